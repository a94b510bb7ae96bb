"""Caching (docs/behaviour.md §6): TTL refetch, max-age within clamps, stale-on-error, the LRU bound."""

from __future__ import annotations

import pytest_twisted

from scrapy_robots_rep.exceptions import RobotsDisallowed
from tests.crawling import CrawlingSpider, Wave, crawl, obtained
from tests.sites import Sites, text

RULES = "User-agent: *\nDisallow: /private\n"


@pytest_twisted.ensureDeferred
async def test_lifetimes_and_stale_on_error(sites: Sites) -> None:
    plain = sites.start({"/robots.txt": text(RULES)})
    clamped_up = sites.start({"/robots.txt": text(RULES, **{"Cache-Control": "max-age=0"})})
    long_lived = sites.start({"/robots.txt": text(RULES, **{"Cache-Control": "public, max-age=60"})})
    failing_refresh = sites.start({"/robots.txt": [text(RULES), text("", status=503)]})
    every = (plain, clamped_up, long_lived, failing_refresh)

    async def both_refreshed(spider: CrawlingSpider) -> None:
        for site in (plain, failing_refresh):
            await obtained(site.url, 2)(spider)

    result = await crawl(
        [f"{site.url}/a" for site in every],
        Wave([f"{site.url}/b" for site in every] + [f"{failing_refresh.url}/private"], pause=1.3),
        # the crawl stays open until both refreshes have ended
        Wave([], after=both_refreshed),
        settings={"REP_CACHE_TTL": 1, "REP_CACHE_TTL_MIN": 5, "REP_CACHE_TTL_MAX": 3600},
    )
    assert len(plain.hits("/robots.txt")) == 2  # REP_CACHE_TTL expired: one refetch
    assert len(clamped_up.hits("/robots.txt")) == 1  # max-age=0 raised to REP_CACHE_TTL_MIN
    assert len(long_lived.hits("/robots.txt")) == 1  # max-age=60 honoured over REP_CACHE_TTL
    assert len(failing_refresh.hits("/robots.txt")) == 2
    by_url = result.by_url()
    for site in every:
        assert by_url[f"{site.url}/a"].response is not None
        assert by_url[f"{site.url}/b"].response is not None
    # the refresh failed (503): the previous rules still apply
    assert isinstance(by_url[f"{failing_refresh.url}/private"].error, RobotsDisallowed)
    assert result.stats["rep/robots/outcome/unreachable"] == 1
    assert result.stats.get("rep/requests/dropped_unreachable", 0) == 0
    record = result.middleware.cache.get(failing_refresh.url)
    assert record is not None and record.outcome.value == "unreachable" and record.unreachable_since is not None


@pytest_twisted.ensureDeferred
async def test_the_cache_is_bounded(sites: Sites) -> None:
    many = [sites.start({"/robots.txt": text(RULES)}) for _ in range(6)]
    result = await crawl(
        [f"{site.url}/a" for site in many], [f"{site.url}/b" for site in many], settings={"REP_CACHE_MAX_ORIGINS": 2}
    )
    assert len(result.pages) == len(result.outcomes) == 12
    assert len(result.middleware.cache) == 2
    assert result.stats["rep/cache/evictions"] >= 4 + 4
    # the origins evicted after the first wave fetched robots.txt again
    assert sum(len(site.hits("/robots.txt")) for site in many) >= 6 + 4
