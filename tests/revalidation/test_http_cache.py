"""Scrapy's HTTP cache in front of the robots.txt fetch (docs/behaviour.md §5 and §6).

A robots.txt that Scrapy's ``HttpCacheMiddleware`` replays is as old as the copy on disk: its
lifetime counts from when the copy was received (its ``Date``, plus the ``Age`` it came with),
never from the replay. Every crawl here uses ``HTTPCACHE_DIR`` in the test's ``tmp_path``, with
each of Scrapy's two cache policies, and still checks every page against the rules.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import pytest_twisted

from scrapy_robots_rep.exceptions import RobotsDisallowed
from tests.crawling import CrawlResult, Wave, crawl, obtained
from tests.revalidation.servers import RobotsFile, Version, http_date, raw_robots
from tests.sites import Sites, text

ROBOTS = "User-agent: *\nDisallow: /private\n"
POLICIES = {
    "dummy": "scrapy.extensions.httpcache.DummyPolicy",
    "rfc2616": "scrapy.extensions.httpcache.RFC2616Policy",
}


@pytest.fixture(params=sorted(POLICIES))
def http_cache(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, Any]:
    """Settings of a crawl behind Scrapy's HTTP cache, with one policy or the other."""
    return {
        "HTTPCACHE_ENABLED": True,
        "HTTPCACHE_DIR": str(tmp_path / "httpcache"),
        "HTTPCACHE_POLICY": POLICIES[request.param],
        "REP_CACHE_TTL_MIN": 0,
        "REP_CACHE_TTL_MAX": 600,
        "RETRY_ENABLED": False,
    }


def lifetime(result: CrawlResult, origin: str) -> float:
    record = result.last_record(origin)
    return float(record.expires_at - record.fetched_at)


def assert_checked(result: CrawlResult, url: str) -> None:
    assert result.failures == {url: RobotsDisallowed}, "the replayed rules still decide"


@pytest_twisted.ensureDeferred
async def test_a_copy_received_long_ago_is_not_fresh_for_its_whole_max_age(
    sites: Sites, http_cache: dict[str, Any]
) -> None:
    """The server's ``Date`` says the response is 595 s old when first received; ``max-age=600``.

    First-hand, only ``Age`` counts (a server clock may be wrong), so the first crawl keeps it for
    600 s. Replayed from Scrapy's cache, the copy is as old as its ``Date``: 5 s at most are left.
    """
    site = sites.start(
        {"/robots.txt": raw_robots(ROBOTS, lambda: {"Date": http_date(-595), "Cache-Control": "max-age=600"})}
    )

    first = await crawl([f"{site.url}/a", f"{site.url}/private/1"], settings=http_cache)
    second = await crawl([f"{site.url}/b", f"{site.url}/private/2"], settings=http_cache)

    assert lifetime(first, site.url) == 600
    assert len(site.hits("/robots.txt")) == 1, "the second crawl's robots.txt came from Scrapy's cache"
    assert second.stat("httpcache/hit") >= 1
    assert 0 <= lifetime(second, site.url) <= 5
    assert_checked(first, f"{site.url}/private/1")
    assert_checked(second, f"{site.url}/private/2")
    assert "/private/1" not in site.paths() and "/private/2" not in site.paths()


@pytest_twisted.ensureDeferred
async def test_a_replayed_copy_keeps_the_age_it_came_with(sites: Sites, http_cache: dict[str, Any]) -> None:
    """A response that spent 597 s in a proxy cache (``Age: 597``, ``max-age=600``) has 3 s left,
    also when Scrapy's cache replays it a moment later (the replay adds its time on disk to ``Age``)."""
    site = sites.start({"/robots.txt": text(ROBOTS, **{"Cache-Control": "max-age=600", "Age": "597"})})

    first = await crawl([f"{site.url}/a"], settings=http_cache)
    second = await crawl([f"{site.url}/b", f"{site.url}/private/1"], settings=http_cache)

    assert lifetime(first, site.url) == 3
    assert len(site.hits("/robots.txt")) == 1, "the second crawl's robots.txt came from Scrapy's cache"
    assert 0 <= lifetime(second, site.url) <= 3
    assert_checked(second, f"{site.url}/private/1")


@pytest_twisted.ensureDeferred
async def test_a_conditional_refresh_is_answered_by_the_server(sites: Sites, http_cache: dict[str, Any]) -> None:
    """Rules of ``max-age=1`` with an ``ETag``, refreshed in the same crawl: the conditional request
    bypasses Scrapy's cache, so the server's 304 (not a copy replayed as a 200) renews the rules."""
    robots = RobotsFile(Version(ROBOTS, etag='"v1"', headers={"Cache-Control": "max-age=1"}))
    site = sites.start({"/robots.txt": robots})
    url = site.url

    result = await crawl(
        [f"{url}/a"],
        Wave([f"{url}/b"], pause=1.2),
        Wave([f"{url}/c", f"{url}/private/1"], after=obtained(url, 2)),
        settings=http_cache,
    )

    assert robots.statuses() == [200, 304]
    assert robots.request_headers("If-None-Match") == [None, '"v1"']
    assert result.stat("rep/robots/revalidated/not_modified") == 1
    _, revalidated = result.records[url]
    assert revalidated.expires_at - revalidated.fetched_at == pytest.approx(1.0), "a new lifetime from the 304"
    assert_checked(result, f"{url}/private/1")
    assert "/c" in site.paths() and "/private/1" not in site.paths()


@pytest_twisted.ensureDeferred
async def test_a_304_is_never_replayed_to_a_later_unconditional_fetch(sites: Sites, tmp_path: Path) -> None:
    """DummyPolicy stores any response. Were the server's 304 to a refresh stored, the next crawl's
    first (unconditional) fetch would get it back and count the origin as unreachable."""
    robots = RobotsFile(Version(ROBOTS, etag='"v1"', headers={"Cache-Control": "max-age=1"}))
    site = sites.start({"/robots.txt": robots})
    settings = {
        "HTTPCACHE_ENABLED": True,
        "HTTPCACHE_DIR": str(tmp_path / "httpcache"),
        "HTTPCACHE_POLICY": POLICIES["dummy"],
        "HTTPCACHE_EXPIRATION_SECS": 2,  # the first 200 on disk has expired when the rules are refreshed
        "REP_CACHE_TTL_MIN": 0,
        "RETRY_ENABLED": False,
    }

    first = await crawl(
        [f"{site.url}/a"],
        Wave([f"{site.url}/b"], pause=2.2),
        Wave([f"{site.url}/c"], after=obtained(site.url, 2)),
        settings=settings,
    )
    second = await crawl([f"{site.url}/d", f"{site.url}/private/1"], settings=settings)

    assert first.stat("rep/robots/revalidated/not_modified") == 1
    assert second.stat("rep/robots/status/304") == 0
    assert second.stat("rep/robots/outcome/unreachable") == 0
    assert second.stat("rep/robots/outcome/rules") == 1
    assert "/d" in site.paths()
    assert_checked(second, f"{site.url}/private/1")
