"""One worker of a test fleet: a Scrapy process crawling from a shared scrapy-redis queue.

Run as ``python -m tests.redis.fleet_worker --queue-url redis://... [--cache-url redis://...]``
from the repository root. The worker pops requests from the shared scrapy-redis request queue
(``QUEUE_KEY``, filled with :func:`push`), obeys robots.txt with ``RobotsMiddleware`` (its
cache shared through Redis when ``--cache-url`` is given), closes after ``--idle`` seconds
without work, and writes its crawl stats as JSON to ``--stats-file``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterator
from typing import Any

from redis import Redis
from scrapy import Request
from scrapy.crawler import CrawlerProcess
from scrapy.http import Response
from scrapy.utils.misc import load_object
from scrapy_redis.spiders import RedisSpider

QUEUE_KEY = "fleet:requests"


class FleetSpider(RedisSpider):
    """Fetches every URL it is given and follows the links of the pages."""

    name = "fleet"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.spider_idle_start_time = int(time.time())

    def parse(self, response: Response) -> Iterator[Request]:
        yield from response.follow_all(css="a")


class SwappingMiddleware:
    """A downloader middleware after the robots middleware that returns a new request in place of
    each page request it sees first (as proxy and session middlewares do): the copy goes to the scheduler."""

    def process_request(self, request: Request, spider: Any = None) -> Request | None:
        if request.meta.get("swapped") or request.url.endswith("/robots.txt"):
            return None
        return request.replace(dont_filter=True, meta={**request.meta, "swapped": True})


def settings(options: argparse.Namespace) -> dict[str, Any]:
    """Scrapy settings of a worker: scrapy-redis queue, RobotsMiddleware, optional Redis cache."""
    result: dict[str, Any] = {
        "SCHEDULER": "scrapy_redis.scheduler.Scheduler",
        "DUPEFILTER_CLASS": "scrapy_redis.dupefilter.RFPDupeFilter",
        "SCHEDULER_PERSIST": True,
        "SCHEDULER_QUEUE_KEY": QUEUE_KEY,
        "REDIS_URL": options.queue_url,
        "MAX_IDLE_TIME_BEFORE_CLOSE": options.idle,
        "DOWNLOADER_MIDDLEWARES": {"scrapy_robots_rep.RobotsMiddleware": 100},
        "ROBOTSTXT_OBEY": False,
        "USER_AGENT": f"fleetbot/1.0 ({options.name})",
        "DOWNLOAD_TIMEOUT": options.download_timeout,
        "RETRY_ENABLED": False,
        "CONCURRENT_REQUESTS": options.concurrency,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
        "TELNETCONSOLE_ENABLED": False,
        "LOG_LEVEL": "INFO",
        "LOG_FILE": options.log_file,
    }
    if options.cache_url:
        result.update(
            REP_CACHE_BACKEND="scrapy_robots_rep.RedisStore",
            REP_REDIS_URL=options.cache_url,
            REP_REDIS_LOCK_TIMEOUT=options.lock_timeout,
        )
    for setting in options.setting:
        name, _, value = setting.partition("=")
        result[name] = json.loads(value)
    return result


def push(client: Redis, urls: list[str], priority: int = 0, kind: str = "scrapy_redis.queue.PriorityQueue") -> None:
    """Put requests for ``urls`` on the fleet's shared queue (of class ``kind``), as a worker's scheduler would."""
    queue = load_object(kind)(client, FleetSpider(), QUEUE_KEY)
    for url in urls:
        queue.push(Request(url, priority=priority))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--queue-url", required=True, help="Redis of the scrapy-redis queue")
    parser.add_argument("--name", default="worker", help="named in the User-Agent: fleetbot/1.0 (<name>)")
    parser.add_argument("--cache-url", help="Redis of the robots.txt cache (none: memory only)")
    parser.add_argument("--lock-timeout", type=float, default=10.0)
    parser.add_argument("--download-timeout", type=float, default=10.0)
    parser.add_argument("--concurrency", type=int, default=32, help="CONCURRENT_REQUESTS")
    parser.add_argument("--idle", type=int, default=3, help="seconds without work before closing")
    parser.add_argument("--setting", action="append", default=[], help="NAME=<JSON value>, over the others")
    parser.add_argument("--stats-file", required=True)
    parser.add_argument("--log-file", default=None)
    options = parser.parse_args()
    process = CrawlerProcess(settings(options))
    crawler = process.create_crawler(FleetSpider)
    process.crawl(crawler)
    process.start()
    with open(options.stats_file, "w") as out:
        json.dump(crawler.stats.get_stats(), out, default=str)


if __name__ == "__main__":
    main()
