"""Requests keep their priority through deferral: released requests are downloaded in priority order,
as if they had never been deferred (docs/behaviour.md §7)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest_twisted
from scrapy import Request
from scrapy.http import Response

from tests.crawling import CrawlingSpider, PageHook, crawl
from tests.settings.measure import ROBOTS
from tests.sites import Site, Sites, text

LOW = 40
SETTINGS = {"CONCURRENT_REQUESTS_PER_DOMAIN": 1}


def low_then_urgent(site: Site) -> PageHook:
    """From the start page: :data:`LOW` requests at priority 0, then one at priority 100, all to ``site``."""

    def hook(response: Response, spider: CrawlingSpider) -> Iterator[Request]:
        if response.url.endswith("/start"):
            yield from (Request(f"{site.url}/low{index}") for index in range(LOW))
            yield Request(f"{site.url}/urgent", priority=100)

    return hook


def downloads(site: Site) -> list[str]:
    return [path for path in site.paths() if path != ROBOTS]


@pytest_twisted.ensureDeferred
async def test_a_high_priority_request_to_a_fresh_origin_is_downloaded_first(sites: Sites) -> None:
    # Scrapy alone usually downloads /urgent first here too, but not always: its downloader may
    # start on the low ones before the callback's last request is scheduled. Deferred requests
    # are all in hand when they are released, so priority decides every time.
    start = sites.start()
    fresh = sites.start({"/robots.txt": text("User-agent: *\nAllow: /\n")})
    result = await crawl([f"{start.url}/start"], settings=SETTINGS, page=low_then_urgent(fresh))

    assert len(downloads(fresh)) == LOW + 1 and len(result.pages) == LOW + 2
    print(f"\n/urgent was download number {downloads(fresh).index('/urgent') + 1}")
    assert downloads(fresh)[0] == "/urgent", f"/urgent was download number {downloads(fresh).index('/urgent') + 1}"
