"""Disk queues (JOBDIR) and scrapy-redis hand back new request objects: rules expiring mid-crawl must
cost no extra robots.txt fetch and no pause for a healthy origin (docs/behaviour.md §5, §6, §7)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import pytest_twisted

from tests.crawling import crawl
from tests.redis.server import RedisServer
from tests.settings.measure import ROBOTS
from tests.settings.redis_store import redis_queue
from tests.sites import PAGE, Gate, Reply, Sites, text

PAGES = 30
TTL = 1.0
"""The rules' lifetime: the pages take 1.5 s at least (0.1 s each, two at a time), so they expire mid-crawl."""
SETTINGS = {"REP_CACHE_TTL": TTL, "REP_CACHE_TTL_MIN": 0, "CONCURRENT_REQUESTS": 2, "RETRY_ENABLED": False}


async def check_paced_crawl(sites: Sites, queue: dict[str, Any]) -> None:
    """A healthy origin's pages; its rules expire mid-crawl and its refresh is held until the server has
    seen every page. A request parked behind the refresh would wait for the gate's timeout; one that
    lost the middleware's marks on the way through the queue would start another fetch."""
    every_page_seen = Gate(needed=PAGES)
    routes = {f"/p{index}": every_page_seen.opening(Reply(body=PAGE, delay=0.1)) for index in range(PAGES)}
    rules = text("User-agent: *\nAllow: /\n")
    site = sites.start({ROBOTS: [rules, every_page_seen.hold(rules)], **routes})

    result = await crawl([f"{site.url}/p{index}" for index in range(PAGES)], settings={**SETTINGS, **queue})

    assert len(result.pages) == PAGES
    assert sorted(path for path in site.paths() if path != ROBOTS) == sorted(routes)
    assert len(site.hits(ROBOTS)) == 2, "one fetch, then one refresh once the rules expired"
    assert every_page_seen.kept_order, "a request waited for the refresh"


@pytest_twisted.ensureDeferred
async def test_memory_queue(sites: Sites) -> None:
    """Scrapy's default queue, which keeps the request objects: the crawl every other queue must match."""
    await check_paced_crawl(sites, {})


@pytest_twisted.ensureDeferred
async def test_disk_queues(sites: Sites, tmp_path: Path) -> None:
    await check_paced_crawl(sites, {"JOBDIR": str(tmp_path / "job")})


@pytest.mark.parametrize("queue_class", ["PriorityQueue", "FifoQueue", "LifoQueue"])
@pytest_twisted.ensureDeferred
async def test_scrapy_redis_queues(sites: Sites, redis_server: RedisServer, queue_class: str) -> None:
    """Each of scrapy-redis's three queues (a sorted set, a list read from either end)."""
    pytest.importorskip("scrapy_redis")
    queue = {**redis_queue(redis_server), "SCHEDULER_QUEUE_CLASS": f"scrapy_redis.queue.{queue_class}"}
    await check_paced_crawl(sites, queue)
