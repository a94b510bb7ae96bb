"""Disk queues (JOBDIR) and scrapy-redis hand back new request objects: rules expiring mid-crawl must
cost no extra robots.txt fetch and no pause for a healthy origin (docs/behaviour.md §5, §6, §7)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_twisted
from twisted.internet import defer

from tests.crawling import crawl
from tests.redis.server import RedisServer
from tests.settings.measure import ROBOTS, gaps, page_times
from tests.settings.redis_store import redis_queue
from tests.sites import PAGE, Reply, Sites

PAGES = 24
ROBOTS_DELAY = 0.8
"""How long robots.txt takes to answer: a request parked behind a refresh leaves a gap this long."""
TTL = 1.0
SETTINGS = {"REP_CACHE_TTL": TTL, "REP_CACHE_TTL_MIN": 0, "CONCURRENT_REQUESTS": 2, "RETRY_ENABLED": False}


@dataclass(frozen=True)
class Paced:
    """How one crawl of the same shape went, seen from the server."""

    largest_gap: float
    robots_fetches: int
    seconds: float


async def paced_crawl(sites: Sites, queue: dict[str, Any]) -> Paced:
    """A healthy origin's pages, 0.1 s each, two at a time; its rules live :data:`TTL` seconds."""
    routes = {f"/p{index}": Reply(body=PAGE, delay=0.1) for index in range(PAGES)}
    robots = Reply(body=b"User-agent: *\nAllow: /\n", headers={"Content-Type": "text/plain"}, delay=ROBOTS_DELAY)
    site = sites.start({ROBOTS: robots, **routes})
    result = await crawl([f"{site.url}/p{index}" for index in range(PAGES)], settings={**SETTINGS, **queue})
    assert len(result.pages) == PAGES
    assert sorted(path for path in site.paths() if path != ROBOTS) == sorted(routes)
    return Paced(max(gaps(page_times(site))), len(site.hits(ROBOTS)), result.seconds)


def check_against_memory(serialised: Paced, memory: Paced) -> None:
    print(
        f"\nlargest gap {serialised.largest_gap:.2f} s vs {memory.largest_gap:.2f} s with the memory queue; "
        f"robots.txt fetches {serialised.robots_fetches} in {serialised.seconds:.1f} s"
    )
    assert serialised.robots_fetches <= int(serialised.seconds / TTL) + 1, "more than one fetch per lifetime"
    assert serialised.largest_gap < max(2 * memory.largest_gap, ROBOTS_DELAY / 2)


@pytest.fixture(scope="module")
def memory() -> Iterator[Paced]:
    """The same crawl with Scrapy's default memory queue."""
    with Sites() as sites:
        yield pytest_twisted.blockon(defer.ensureDeferred(paced_crawl(sites, {})))


@pytest_twisted.ensureDeferred
async def test_disk_queues(sites: Sites, tmp_path: Path, memory: Paced) -> None:
    check_against_memory(await paced_crawl(sites, {"JOBDIR": str(tmp_path / "job")}), memory)


@pytest_twisted.ensureDeferred
async def test_scrapy_redis_queue(sites: Sites, redis_server: RedisServer, memory: Paced) -> None:
    pytest.importorskip("scrapy_redis")
    check_against_memory(await paced_crawl(sites, redis_queue(redis_server)), memory)
