"""Requests keep their priority through deferral: released requests are downloaded in priority order,
as if they had never been deferred (docs/behaviour.md §7)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest_twisted
from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.http import Response

from scrapy_robots_rep import signals
from tests.crawling import CrawlingSpider, PageHook, crawl
from tests.settings.measure import ROBOTS
from tests.sites import HeldReply, Site, Sites, text

LOW = 40
SETTINGS = {"CONCURRENT_REQUESTS_PER_DOMAIN": 1}


def low_then_urgent(site: Site) -> PageHook:
    """From the start page: :data:`LOW` requests at priority 0, then one at priority 100, all to ``site``."""

    def hook(response: Response, spider: CrawlingSpider) -> Iterator[Request]:
        if response.url.endswith("/start"):
            yield from (Request(f"{site.url}/low{index}") for index in range(LOW))
            yield Request(f"{site.url}/urgent", priority=100)

    return hook


def open_once_parked(gate: HeldReply, path: str) -> Callable[[Crawler], None]:
    """An ``on_crawler`` hook opening ``gate`` once the request to ``path`` is parked."""

    def on_deferred(request: Request, **kwargs: Any) -> None:
        if request.url.endswith(path):
            gate.open()

    def connect(crawler: Crawler) -> None:
        crawler.signals.connect(on_deferred, signals.request_deferred, weak=False)

    return connect


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
    robots = HeldReply(text("User-agent: *\nAllow: /\n"))
    fresh = sites.start({"/robots.txt": robots})
    result = await crawl(
        [f"{start.url}/start"],
        settings=SETTINGS,
        page=low_then_urgent(fresh),
        on_crawler=open_once_parked(robots, "/urgent"),
    )

    assert len(downloads(fresh)) == LOW + 1 and len(result.pages) == LOW + 2
    print(f"\n/urgent was download number {downloads(fresh).index('/urgent') + 1}")
    assert downloads(fresh)[0] == "/urgent", f"/urgent was download number {downloads(fresh).index('/urgent') + 1}"
