"""Requests keep their priority through deferral: released requests are downloaded in priority order,
as if they had never been deferred (docs/behaviour.md §7)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest_twisted
from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.http import Response

from tests.crawling import CrawlingSpider, PageHook, crawl
from tests.settings.measure import ROBOTS
from tests.sites import Hit, Reply, Site, Sites, text

LOW = 40
SETTINGS = {"CONCURRENT_REQUESTS_PER_DOMAIN": 1}


def low_then_urgent(site: Site) -> PageHook:
    """From the start page: :data:`LOW` requests at priority 0, then one at priority 100, all to ``site``."""

    def hook(response: Response, spider: CrawlingSpider) -> Iterator[Request]:
        if response.url.endswith("/start"):
            yield from (Request(f"{site.url}/low{index}") for index in range(LOW))
            yield Request(f"{site.url}/urgent", priority=100)

    return hook


def deferred(crawlers: list[Crawler]) -> int:
    """Requests the crawl has deferred so far (read from the server's thread)."""
    stats = crawlers[0].stats if crawlers else None
    return int(stats.get_value("rep/requests/deferred", 0)) if stats is not None else 0


def downloads(site: Site) -> list[str]:
    return [path for path in site.paths() if path != ROBOTS]


@pytest_twisted.ensureDeferred
async def test_a_high_priority_request_to_a_fresh_origin_is_downloaded_first(sites: Sites) -> None:
    # Scrapy alone usually downloads /urgent first here too, but not always: its downloader may
    # start on the low ones before the callback's last request is scheduled. Deferred requests
    # are all in hand when they are released, so priority decides every time.
    # Its robots.txt answers once every request waits for it (the start page waited for its own origin's;
    # polled from the crawl's stats, at most 10 s), however long the callback's requests take to reach
    # the middleware on a loaded machine.
    crawlers: list[Crawler] = []

    def once_all_wait(hit: Hit) -> Reply:
        deadline = time.monotonic() + 10
        while deferred(crawlers) < 1 + LOW + 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        return text("User-agent: *\nAllow: /\n")

    start = sites.start()
    fresh = sites.start({ROBOTS: once_all_wait})
    result = await crawl(
        [f"{start.url}/start"], settings=SETTINGS, page=low_then_urgent(fresh), on_crawler=crawlers.append
    )
    assert result.stat("rep/requests/deferred") == 1 + LOW + 1

    assert len(downloads(fresh)) == LOW + 1 and len(result.pages) == LOW + 2
    print(f"\n/urgent was download number {downloads(fresh).index('/urgent') + 1}")
    assert downloads(fresh)[0] == "/urgent", f"/urgent was download number {downloads(fresh).index('/urgent') + 1}"
