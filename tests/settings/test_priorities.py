"""Requests keep their priority through deferral: released requests are downloaded in priority order,
as if they had never been deferred (docs/behaviour.md §7)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest_twisted
from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.http import Response

from scrapy_robots_rep import signals
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


def robots_once_parked(path: str) -> tuple[Callable[[Hit], Reply], Callable[[Crawler], None]]:
    """A robots.txt route answering only once the request to ``path`` is parked, and the
    ``on_crawler`` hook that sees it parked: every request is in hand when the rules arrive."""
    parked = threading.Event()

    def robots(hit: Hit) -> Reply:
        parked.wait(timeout=60)
        return text("User-agent: *\nAllow: /\n")

    def on_deferred(request: Request, **kwargs: Any) -> None:
        if request.url.endswith(path):
            parked.set()

    def connect(crawler: Crawler) -> None:
        crawler.signals.connect(on_deferred, signals.request_deferred, weak=False)

    return robots, connect


def downloads(site: Site) -> list[str]:
    return [path for path in site.paths() if path != ROBOTS]


@pytest_twisted.ensureDeferred
async def test_a_high_priority_request_to_a_fresh_origin_is_downloaded_first(sites: Sites) -> None:
    # Scrapy alone usually downloads /urgent first here too, but not always: its downloader may
    # start on the low ones before the callback's last request is scheduled. Deferred requests
    # are all in hand when they are released (robots.txt answers once /urgent is parked; on
    # Scrapy 2.13 the callback's requests are scheduled one by one, interleaved with the fetch),
    # so priority decides every time.
    start = sites.start()
    robots, connect = robots_once_parked("/urgent")
    fresh = sites.start({"/robots.txt": robots})
    result = await crawl([f"{start.url}/start"], settings=SETTINGS, page=low_then_urgent(fresh), on_crawler=connect)

    assert len(downloads(fresh)) == LOW + 1 and len(result.pages) == LOW + 2
    print(f"\n/urgent was download number {downloads(fresh).index('/urgent') + 1}")
    assert downloads(fresh)[0] == "/urgent", f"/urgent was download number {downloads(fresh).index('/urgent') + 1}"
