"""``PageDirectivesMiddleware``: the spider middleware enforcing page-level directives (docs/behaviour.md §10).

Each response's directives are read before its callback runs and kept in
``response.meta["robots"]`` (a :class:`~scrapy_robots_rep.core.page.PageDirectives`). What the
callback yields is then filtered: requests of a ``nofollow`` page (and, with
``REP_PAGE_REL_NOFOLLOW``, requests for its ``rel="nofollow"`` links) are dropped; items of a
``noindex`` page, or of a page whose signals refuse a purpose in ``REP_PURPOSES``, are dropped.
A request, or a page fetched, with ``meta["dont_obey_robotstxt"]`` is exempt. Every drop is
counted under ``rep/page/`` and logged at DEBUG with the directive and where it came from.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterable
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin
from weakref import WeakKeyDictionary

from scrapy import Request
from scrapy.exceptions import NotConfigured
from w3lib.url import canonicalize_url

from scrapy_robots_rep.core.page import Effect, PageDirectives
from scrapy_robots_rep.crawl.outcomes import Outcomes
from scrapy_robots_rep.crawl.settings import rep_settings

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)

META_KEY = "robots"
"""``response.meta`` key holding the page's :class:`PageDirectives`."""

CONTENT_SIGNALS_META = "rep_content_signals"
"""``request.meta`` key where the robots.txt middleware puts the origin's ``Content-Signal``
(a ``{purpose: bool}`` mapping) when it allows a request; folded into the page's directives."""


class PageDirectivesMiddleware:
    """Obeys robots meta tags, ``X-Robots-Tag`` and content-usage signals (docs/behaviour.md §10).

    A universal spider middleware (both forms of ``process_spider_output``). It leaves start
    requests alone: they come from no page.
    """

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        settings = rep_settings(crawler.settings)
        if not settings.page_directives:
            raise NotConfigured("REP_PAGE_DIRECTIVES is False")
        self.settings = settings
        self.agent = settings.user_agent
        self._outcomes = Outcomes.of(crawler)
        self._nofollow_urls: WeakKeyDictionary[Response, frozenset[str]] = WeakKeyDictionary()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> PageDirectivesMiddleware:
        return cls(crawler)

    def process_spider_output(self, response: Response, result: Iterable[Any]) -> Iterable[Any]:
        for output in result:
            if (output := self._processed(output, response)) is not None:
                yield output

    async def process_spider_output_async(self, response: Response, result: AsyncIterator[Any]) -> AsyncIterator[Any]:
        async for output in result:
            if (output := self._processed(output, response)) is not None:
                yield output

    def _processed(self, output: Any, response: Response) -> Any:
        if isinstance(output, Request):
            return self.get_processed_request(output, response)
        return self.get_processed_item(output, response)

    def process_spider_input(self, response: Response) -> None:
        page = PageDirectives.from_response(response, agent=self.agent, links=self.settings.page_rel_nofollow)
        signals = response.meta.get(CONTENT_SIGNALS_META)
        if signals:
            page = page.with_site_signals(signals)
        response.meta[META_KEY] = page
        if page.directives:
            for effect in page.restricted:
                self._outcomes.count(f"rep/page/directive/{effect.value}")

    def get_processed_request(self, request: Request, response: Response | None) -> Request | None:
        if response is None or request.meta.get("dont_obey_robotstxt"):
            return request
        page = self._page(response)
        if page is None:
            return request
        if page.nofollow:
            self._drop_request(request, response, "nofollow", page.why(Effect.NOFOLLOW))
            return None
        if self.settings.page_rel_nofollow and page.nofollow_hrefs and self._marked_nofollow(request, response, page):
            self._drop_request(request, response, "rel_nofollow", 'the page links to it with rel="nofollow"')
            return None
        return request

    def get_processed_item(self, item: Any, response: Response | None) -> Any:
        if response is None:
            return item
        page = self._page(response)
        if page is None:
            return item
        if page.noindex and self.settings.page_noindex == "drop":
            cause = page.cause(Effect.NOINDEX)
            kind = "unavailable_after" if cause is not None and cause.name == "unavailable_after" else "noindex"
            self._drop_item(response, kind, page.why(Effect.NOINDEX))
            return None
        for purpose in self.settings.purposes:
            refusal = page.refusal(purpose)
            if refusal is not None:
                self._drop_item(response, f"purpose/{purpose}", refusal)
                return None
        return item

    def _page(self, response: Response) -> PageDirectives | None:
        """The page's directives (read now if its callback ran before this middleware saw it), or
        None when the page is exempt."""
        meta = response.meta
        if meta.get("dont_obey_robotstxt"):
            return None
        page = meta.get(META_KEY)
        if not isinstance(page, PageDirectives):
            self.process_spider_input(response)
            page = meta[META_KEY]
        return page

    def _marked_nofollow(self, request: Request, response: Response, page: PageDirectives) -> bool:
        urls = self._nofollow_urls.get(response)
        if urls is None:
            base = urljoin(response.url, page.base_href) if page.base_href else response.url
            urls = frozenset(canonicalize_url(urljoin(base, href)) for href in page.nofollow_hrefs)
            self._nofollow_urls[response] = urls
        return canonicalize_url(request.url) in urls

    def _drop_request(self, request: Request, response: Response, kind: str, why: str | None) -> None:
        self._outcomes.page_dropped(response, kind, why, request)

    def _drop_item(self, response: Response, kind: str, why: str | None) -> None:
        self._outcomes.page_dropped(response, kind, why)
