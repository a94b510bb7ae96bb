"""Revalidation across a fleet: the validators travel with the shared record (docs/behaviour.md §6).

Two crawlers ("workers") share robots.txt records through a real redis-server. Worker 1 fetches
robots.txt (with an ``ETag``, ``max-age=2``); once that record has expired, worker 2, which never
saw the file, revalidates it with worker 1's ``ETag`` and gets a 304; worker 1's own refresh then
finds worker 2's renewed record in Redis. The server sends the body once in all.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
import pytest_twisted
from twisted.internet import defer

pytest.importorskip("redis", reason="the redis client is not installed (extra 'redis')")

from scrapy_robots_rep.exceptions import RobotsDisallowed
from tests.crawling import CrawlResult, Wave, crawl
from tests.redis.server import MISSING, RedisServer, find_redis_server
from tests.revalidation.servers import RobotsFile, Version
from tests.sites import Sites

ROBOTS = "User-agent: *\nDisallow: /private\n"


@pytest.fixture(scope="module")
def redis_server() -> Iterator[RedisServer]:
    executable = find_redis_server()
    if executable is None:
        pytest.skip(MISSING)
    server = RedisServer(executable)
    try:
        server.start()
    except RuntimeError as error:
        pytest.skip(str(error))
    yield server
    server.stop()


@pytest.fixture
def kept_log_level() -> Iterator[None]:
    """Two crawls at once: put back the level of the package's logger, whichever crawl ends last."""
    logger = logging.getLogger("scrapy_robots_rep")
    level = logger.level
    yield
    logger.setLevel(level)


@pytest_twisted.ensureDeferred
async def test_a_second_worker_revalidates_the_first_workers_record(
    sites: Sites, redis_server: RedisServer, kept_log_level: None
) -> None:
    robots = RobotsFile(Version(ROBOTS, etag='"v1"', headers={"Cache-Control": "max-age=2"}))
    site = sites.start({"/robots.txt": robots})
    url = site.url
    settings: dict[str, Any] = {
        "REP_CACHE_BACKEND": "scrapy_robots_rep.RedisStore",
        "REP_REDIS_URL": redis_server.url,
        "REP_CACHE_TTL_MIN": 0,
        "RETRY_ENABLED": False,
    }
    with redis_server.client() as client:
        client.flushall()

    # t=0: worker 1 fetches (fresh until t=2). t=2.3: worker 2 revalidates (fresh until t=4.3).
    # t=3.3: worker 1's rules have expired; its refresh finds worker 2's record in Redis.
    worker_1: defer.Deferred[CrawlResult] = defer.ensureDeferred(
        crawl([f"{url}/a", f"{url}/private/1"], Wave([f"{url}/c"], pause=3.3), settings=settings, loggers=())
    )
    worker_2: defer.Deferred[CrawlResult] = defer.ensureDeferred(
        crawl(Wave([f"{url}/b", f"{url}/private/2"], pause=2.3), settings=settings)
    )
    first, second = await defer.gatherResults([worker_1, worker_2])

    assert robots.statuses() == [200, 304], "one full download in all"
    assert robots.request_headers("If-None-Match") == [None, '"v1"'], "worker 2 used worker 1's ETag"
    assert second.stat("rep/robots/revalidated/not_modified") == 1
    assert first.stat("rep/robots/fetches") == 1 and second.stat("rep/robots/fetches") == 1
    assert first.stat("rep/cache/shared_hits") == 1, "worker 1's refresh found worker 2's renewed record"
    assert second.failures == {f"{url}/private/2": RobotsDisallowed}, "worker 2 obeys rules it never downloaded"
    assert first.failures == {f"{url}/private/1": RobotsDisallowed}
    assert {"/a", "/b", "/c"} <= set(site.paths())
    assert not [path for path in site.paths() if path.startswith("/private")]
    renewed = second.last_record(url)
    assert renewed.status == 304 and renewed.validators.etag == '"v1"'
    assert renewed.fetched_at >= first.records[url][0].expires_at
