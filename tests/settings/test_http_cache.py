"""The robots check comes before Scrapy's HTTP cache (docs/behaviour.md §7): a priority that lets the
cache answer first is a start-up error, and a cached page of a now disallowed URL is not served."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_twisted

from scrapy_robots_rep.exceptions import RobotsDisallowed
from scrapy_robots_rep.policy.settings import SettingsError
from tests.crawling import crawl
from tests.sites import Sites, text


@pytest_twisted.ensureDeferred
async def test_a_priority_after_the_http_cache_is_a_start_up_error(sites: Sites, tmp_path: Path) -> None:
    site = sites.start({"/robots.txt": text("User-agent: *\nAllow: /\n")})
    settings = {
        "DOWNLOADER_MIDDLEWARES": {"scrapy_robots_rep.RobotsMiddleware": 950},
        "HTTPCACHE_ENABLED": True,
        "HTTPCACHE_DIR": str(tmp_path / "httpcache"),
    }
    with pytest.raises(SettingsError, match=r"at or after HttpCacheMiddleware \(900\)"):
        await crawl([f"{site.url}/page"], settings=settings)
    assert site.hits() == []


@pytest_twisted.ensureDeferred
async def test_a_cached_page_of_a_disallowed_url_is_not_served(sites: Sites, tmp_path: Path) -> None:
    site = sites.start({"/robots.txt": text("User-agent: *\nDisallow: /page\n")})
    settings = {"HTTPCACHE_ENABLED": True, "HTTPCACHE_DIR": str(tmp_path / "httpcache")}
    # A first crawl without robots.txt handling puts /page in Scrapy's HTTP cache.
    first = await crawl([f"{site.url}/page"], settings={**settings, "REP_ENABLED": False})
    assert first.pages == [f"{site.url}/page"]

    second = await crawl([f"{site.url}/page"], settings=settings)
    assert second.by_url()[f"{site.url}/page"].error_type is RobotsDisallowed
    assert second.stat("rep/requests/disallowed") == 1
    assert second.stat("httpcache/hit") == 0
    assert site.paths() == ["/page", "/robots.txt"]
