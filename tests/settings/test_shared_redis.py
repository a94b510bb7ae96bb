"""Shared records are keyed by everything that shaped them (docs/behaviour.md §6): two crawls with
different agents on one Redis each obey their own group."""

from __future__ import annotations

import pytest_twisted

from scrapy_robots_rep.exceptions import RobotsDisallowed
from tests.crawling import crawl
from tests.redis.server import RedisServer
from tests.settings.redis_store import shared_cache
from tests.sites import Sites, text

ROBOTS = "User-agent: alpha\nDisallow: /a\n\nUser-agent: beta\nDisallow: /b\n"


@pytest_twisted.ensureDeferred
async def test_two_agents_sharing_one_redis_obey_their_own_groups(sites: Sites, redis_server: RedisServer) -> None:
    site = sites.start({"/robots.txt": text(ROBOTS)})
    urls = [f"{site.url}/a", f"{site.url}/b"]
    alpha = await crawl(urls, settings={**shared_cache(redis_server), "REP_USER_AGENT": "alpha"})
    beta = await crawl(urls, settings={**shared_cache(redis_server), "REP_USER_AGENT": "beta"})

    assert alpha.by_url()[f"{site.url}/a"].error_type is RobotsDisallowed
    assert beta.by_url()[f"{site.url}/b"].error_type is RobotsDisallowed
    assert sorted(path for path in site.paths() if path != "/robots.txt") == ["/a", "/b"]
    assert len(site.hits("/robots.txt")) == 2
