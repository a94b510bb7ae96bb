"""Fetch a live page and its origin's robots.txt for ``check --page``, in one short Scrapy crawl.

robots.txt is fetched as :mod:`.fetch` fetches it (the middleware's own fetcher and record
maker); the page is then downloaded through Scrapy's downloader (redirects followed, any status
kept, not retried), whatever robots.txt says of it: the point is to show what it carries.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import scrapy
from scrapy.http import Response

from scrapy_robots_rep.cli.checks import RobotsSource
from scrapy_robots_rep.cli.fetch import source_from
from scrapy_robots_rep.cli.page import PageSource
from scrapy_robots_rep.crawl.outcomes import Outcomes
from scrapy_robots_rep.crawl.scrapy_compat import download
from scrapy_robots_rep.crawl.settings import rep_settings
from scrapy_robots_rep.downloader.fetcher import RobotsFetcher
from scrapy_robots_rep.policy.origin import origin_of
from scrapy_robots_rep.policy.records import RecordMaker

if TYPE_CHECKING:
    from scrapy.crawler import CrawlerProcessBase


def fetch_page(process: CrawlerProcessBase, url: str) -> PageSource:
    """Fetch ``<origin>/robots.txt`` of ``url``, then ``url``; RuntimeError if the page was not obtained."""
    found: dict[str, PageSource | str] = {}
    process.crawl(PageFetchSpider, url=url, found=found)
    process.start()
    answer = found.get(url, "the fetch crawl ended without an answer; see the log above")
    if isinstance(answer, str):
        raise RuntimeError(f"could not fetch the page {url}: {answer}")
    return answer


class PageFetchSpider(scrapy.Spider):
    """Crawls nothing: its start fetches robots.txt and the page, then the crawl ends."""

    name = "page_fetch"

    def __init__(self, url: str, found: dict[str, PageSource | str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.url = url
        self.found = found

    async def start(self) -> AsyncIterator[scrapy.Request]:
        """Fetch both; the answer (or why there is none) goes into ``found``; no request is yielded."""
        settings = rep_settings(self.settings)
        origin = origin_of(self.url)
        assert origin is not None, "the command line checks that PAGE is an http(s) URL"
        result = await RobotsFetcher(self.crawler, Outcomes.from_crawler(self.crawler), settings).fetch(origin)
        robots = source_from(result, RecordMaker(settings), settings, time.time())
        assert self.crawler.engine is not None
        try:
            request = scrapy.Request(self.url, dont_filter=True, meta={"dont_retry": True})
            response = await download(self.crawler.engine, request)
        except Exception as error:  # any download failure is the answer to report
            self.found[self.url] = f"{type(error).__name__}: {error}"
            return
        self.found[self.url] = page_source(self.url, response, robots)
        return
        yield  # the bare yield makes this the async generator Scrapy expects; it never runs


def page_source(url: str, response: Response, robots: RobotsSource) -> PageSource:
    """The page as ``check --page`` reads it: body, every header, and how it was answered."""
    headers = tuple(
        (name.decode("latin-1"), value.decode("latin-1"))
        for name, values in response.headers.items()
        for value in values
    )
    content_type = response.headers.get("Content-Type")
    served_as = content_type.decode("latin-1") if content_type else "no Content-Type"
    summary = f"returned {response.status} ({served_as})"
    if response.url != url:
        summary += f", redirected to {response.url}"
    return PageSource(url, summary, response.body, headers, robots)
