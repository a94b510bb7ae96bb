"""The demo spider: crawls the embedded demo site (or real sites) and reports per origin.

``scrapy crawl demo`` starts the demo site, requests a fixed set of pages on each of its
origins, yields an item per HTML page and follows up to ten same-site links from each, and
prints what robots.txt decided and what the pages' own robots directives made of their items and
links. ``scrapy crawl demo -a start_urls=https://a.com/`` crawls real sites instead: the given
pages and up to ten same-site links from each.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from typing import Any

import scrapy
from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import IgnoreRequest
from scrapy.http import HtmlResponse, Response, XmlResponse
from scrapy.linkextractors import LinkExtractor
from twisted.python.failure import Failure

from demo.demo_site import DemoSite
from demo.report import CrawlReport, DemoNote, PageReport
from scrapy_robots_rep import PageDirectives
from scrapy_robots_rep import signals as rep_signals
from scrapy_robots_rep.crawl.settings import rep_settings
from scrapy_robots_rep.exceptions import RobotsDisallowed
from scrapy_robots_rep.page.middleware import META_KEY
from scrapy_robots_rep.policy.origin import origin_of
from scrapy_robots_rep.policy.record_cache import CacheRecord

LINKS_PER_PAGE = 10


class DemoSpider(scrapy.Spider):
    """Requests pages, yields an item per page and follows links, counts what robots.txt and the
    pages' directives made of them per origin, prints the report."""

    name = "demo"
    report: CrawlReport

    def __init__(self, start_urls: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.real_urls = [url.strip() for url in start_urls.split(",") if url.strip()]
        self.demo_site: DemoSite | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> DemoSpider:
        spider: DemoSpider = super().from_crawler(crawler, *args, **kwargs)
        rep = rep_settings(crawler.settings)
        purposes = rep.purposes
        spider.report = CrawlReport(rep.user_agent, rep.matching, rep.status_policy, purposes)
        connect = crawler.signals.connect
        connect(spider.item_scraped, signals.item_scraped)
        connect(spider.robots_obtained, rep_signals.robots_obtained)
        connect(spider.request_deferred, rep_signals.request_deferred)
        connect(spider.request_dropped, rep_signals.request_dropped_unreachable)
        connect(spider.print_report, signals.spider_closed)
        if not spider.real_urls:
            spider.demo_site = DemoSite()
            connect(spider.demo_site.start, signals.spider_opened)
            connect(spider.demo_site.stop, signals.spider_closed)
        return spider

    async def start(self) -> AsyncIterator[scrapy.Request]:
        urls = self.real_urls if self.demo_site is None else self.demo_site.start_urls()
        for url in urls:
            yield self._request(url, follow_links=True)

    def _request(self, url: str, follow_links: bool = False) -> scrapy.Request:
        return scrapy.Request(
            url,
            callback=self.parse,
            errback=self.failed,
            cb_kwargs={"follow_links": follow_links},
        )

    def parse(self, response: Response, follow_links: bool) -> Any:
        """An item per HTML page, then its links (the page-level middleware drops what the page forbids)."""
        self.report.reached.add(response.url)
        report = self.report.origin(origin_of(response.url))
        report.allowed += 1
        if isinstance(response, XmlResponse):
            response.selector.remove_namespaces()
            for url in response.xpath("//url/loc/text()").getall():
                yield self._request(url)
        elif isinstance(response, HtmlResponse):
            page = response.meta.get(META_KEY)
            directives = page if isinstance(page, PageDirectives) else None
            links = self._links(response) if follow_links else []
            report.pages.append(PageReport(response.url, directives, tuple(links)))
            # A pipeline would read the directives too: noarchive asks it to keep no copy.
            yield {"url": response.url, "archive": directives is None or not directives.noarchive}
            for url in links:
                yield self._request(url)

    def _links(self, response: HtmlResponse) -> list[str]:
        origin = origin_of(response.url)
        links = [link.url for link in LinkExtractor().extract_links(response)]
        return [url for url in links if origin_of(url) == origin][:LINKS_PER_PAGE]

    def item_scraped(self, item: dict[str, Any]) -> None:
        self.report.scraped.add(item["url"])

    def failed(self, failure: Failure) -> None:
        """Disallowed requests carry the decision; other failures were allowed, then failed."""
        request = failure.request
        self.report.reached.add(request.url)
        report = self.report.origin(origin_of(request.url))
        if failure.check(RobotsDisallowed):
            report.disallowed.append((request.url, failure.value.decision))
        elif not failure.check(IgnoreRequest):
            report.allowed += 1

    def robots_obtained(self, origin: str, record: CacheRecord) -> None:
        self.report.origin(origin).robots.append(record)

    def request_deferred(self, request: scrapy.Request, origin: str) -> None:
        self.report.origin(origin).deferred += 1

    def request_dropped(self, request: scrapy.Request, origin: str) -> None:
        self.report.origin(origin).dropped += 1

    def print_report(self) -> None:
        notes: dict[str, DemoNote] = {}
        site = self.demo_site
        if site is not None:
            for origin in site.origins:
                notes[origin_of(site.urls[origin.name])] = DemoNote(
                    origin.name,
                    origin.shows,
                    site.robots_statuses(origin.name),
                    site.page_gaps(origin.name),
                )
        print(self.report.render(notes))
        settings = rep_settings(self.settings)
        if settings.audit_dir:
            print(f"\n{self.report.audit_lines(settings.audit_dir)}")
            if settings.report and settings.report.endswith(".html"):
                page = os.path.abspath(settings.report)
                print(f"  read it all in a browser: {page} (REP_REPORT), one page that works offline")
