"""Revalidation across a fleet: the validators travel with the shared record (docs/behaviour.md §6).

Two crawlers ("workers") share robots.txt records through a real redis-server. Worker 1 fetches
robots.txt (with an ``ETag``, ``max-age=2``); once that record has expired, worker 2, which never
saw the file, revalidates it with worker 1's ``ETag`` and gets a 304; once worker 2 has stored
the renewed record, worker 1's own refresh finds it in Redis. The server sends the body once in all.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import pytest_twisted
from twisted.internet import defer

from scrapy_robots_rep.exceptions import RobotsDisallowed
from scrapy_robots_rep.stores.redis_scripts import RECORD_HEADER
from tests.crawling import AGENT, CrawlingSpider, CrawlResult, Wave, WaveEvent, crawl
from tests.redis.server import RedisServer
from tests.revalidation.servers import RobotsFile, Version
from tests.sites import Sites

ROBOTS = "User-agent: *\nDisallow: /private\n"
WAIT = 30.0
"""Seconds a wave waits at most for the other worker's step."""


@pytest.fixture
def kept_log_level() -> Iterator[None]:
    """Two crawls at once: put back the level of the package's logger, whichever crawl ends last."""
    logger = logging.getLogger("scrapy_robots_rep")
    level = logger.level
    yield
    logger.setLevel(level)


def until(condition: Callable[[], bool], what: str) -> WaveEvent:
    """A wave's ``after``: poll ``condition`` until it holds (fail after ``WAIT`` seconds)."""

    async def wait(_: CrawlingSpider) -> None:
        deadline = time.monotonic() + WAIT
        while not condition():
            assert time.monotonic() < deadline, f"timed out waiting until {what}"
            await asyncio.sleep(0.05)

    return wait


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
    key = f"rep:{{{AGENT}/rfc9309/rfc9309:{url}}}"

    def shared_expiry() -> float:
        """When the shared record expires, on Redis's clock (this machine's), 0 while there is none."""
        with redis_server.client() as client:
            value = client.get(key)
        return RECORD_HEADER.unpack_from(value)[1] / 1000 if value is not None else 0.0

    first_expiry: list[float] = []

    def expired() -> bool:
        expires_at = shared_expiry()
        if expires_at and not first_expiry:
            first_expiry.append(expires_at)
        return bool(first_expiry) and time.time() > first_expiry[0]

    def renewed() -> bool:
        return bool(first_expiry) and shared_expiry() > first_expiry[0]

    # Worker 1 fetches; worker 2 waits until that record has expired, then revalidates it; worker 1
    # then asks again (its own copy expired too) once worker 2's renewed record is in Redis.
    worker_1: defer.Deferred[CrawlResult] = defer.ensureDeferred(
        crawl(
            [f"{url}/a", f"{url}/private/1"],
            Wave([f"{url}/c"], after=until(renewed, "worker 2 renewed the record")),
            settings=settings,
            loggers=(),
        )
    )
    worker_2: defer.Deferred[CrawlResult] = defer.ensureDeferred(
        crawl(
            Wave([f"{url}/b", f"{url}/private/2"], after=until(expired, "worker 1's record expired")), settings=settings
        )
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
    renewed_record = second.last_record(url)
    assert renewed_record.status == 304 and renewed_record.validators.etag == '"v1"'
    assert renewed_record.fetched_at >= first.records[url][0].expires_at
