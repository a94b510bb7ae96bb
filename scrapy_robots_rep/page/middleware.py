"""``PageDirectivesMiddleware``: the spider middleware enforcing page-level directives (docs/behaviour.md §10).

Each response's directives are read before its callback runs and kept in
``response.meta["robots"]`` (a :class:`~scrapy_robots_rep.core.page.PageDirectives`). What the
callback yields is then filtered: requests of a ``nofollow`` page (and, with
``REP_PAGE_REL_NOFOLLOW``, requests for its ``rel="nofollow"`` links) are dropped; items of a
``noindex`` page, or of a page whose signals (``Content-Signal``, the ``Content-Usage`` header and
robots.txt rules, ``noai``, TDMRep) refuse a purpose in ``REP_PURPOSES``, are dropped.
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
from scrapy_robots_rep.crawl.meta_keys import CONTENT_SIGNALS, CONTENT_USAGE, DONT_OBEY, PAGE_DIRECTIVES, PROVENANCE
from scrapy_robots_rep.crawl.outcomes import Outcomes
from scrapy_robots_rep.crawl.parts import CrawlParts
from scrapy_robots_rep.crawl.settings import rep_settings
from scrapy_robots_rep.policy.stat_names import Stat

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response

    from scrapy_robots_rep.crawl.evidence import Evidence
    from scrapy_robots_rep.policy.settings import RepSettings

logger = logging.getLogger(__name__)

META_KEY = PAGE_DIRECTIVES
CONTENT_SIGNALS_META = CONTENT_SIGNALS
CONTENT_USAGE_META = CONTENT_USAGE


class PageDirectivesMiddleware:
    """Obeys robots meta tags, ``X-Robots-Tag`` and content-usage signals (docs/behaviour.md §10).

    A universal spider middleware (both forms of ``process_spider_output``). It leaves start
    requests alone: they come from no page.
    """

    def __init__(self, crawler: Crawler, settings: RepSettings, outcomes: Outcomes, evidence: Evidence | None) -> None:
        self.crawler = crawler
        self.settings = settings
        self.agent = settings.user_agent
        self._outcomes = outcomes
        self._nofollow_urls: WeakKeyDictionary[Response, frozenset[str]] = WeakKeyDictionary()
        self._evidence = evidence
        self._provenance_field = settings.provenance_field
        self._warned: set[type] = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> PageDirectivesMiddleware:
        if not rep_settings(crawler.settings).page_directives:
            raise NotConfigured("REP_PAGE_DIRECTIVES is False")
        parts = CrawlParts.of(crawler)
        return cls(crawler, parts.settings, parts.outcomes, parts.evidence)

    # ``spider`` is passed by Scrapy 2.13 only; later versions pass no spider to a method that can do without.
    def process_spider_output(
        self, response: Response, result: Iterable[Any], spider: Spider | None = None
    ) -> Iterable[Any]:
        try:
            if self._passes_through(response):
                yield from result
                return
            for output in result:
                if (output := self._processed(output, response)) is not None:
                    yield output
        finally:
            self._page_done(response)

    async def process_spider_output_async(
        self, response: Response, result: AsyncIterator[Any], spider: Spider | None = None
    ) -> AsyncIterator[Any]:
        try:
            if self._passes_through(response):
                async for output in result:
                    yield output
                return
            async for output in result:
                if (output := self._processed(output, response)) is not None:
                    yield output
        finally:
            self._page_done(response)

    def _page_done(self, response: Response) -> None:
        """The callback's output is exhausted: the audit trail's pages line, with what was dropped."""
        if self._evidence is not None:
            page = response.meta.get(META_KEY)
            self._evidence.page_done(response, page if isinstance(page, PageDirectives) else None)

    def _passes_through(self, response: Response) -> bool:
        """Whether all that ``response``'s callback yields passes untouched, decided once per page
        (most pages): the page is exempt, or its directives, read before the callback ran, drop
        no request and no item."""
        meta = response.meta
        if meta.get(DONT_OBEY):
            return True
        if self._provenance_field is not None:  # every item gets the page's provenance
            return False
        page = meta.get(META_KEY)
        return isinstance(page, PageDirectives) and not self._acts_on_output(page)

    def _acts_on_output(self, page: PageDirectives) -> bool:
        """Whether ``get_processed_request`` or ``get_processed_item`` may drop something of this page
        (each of their conditions is here)."""
        settings = self.settings
        return (
            page.nofollow
            or (settings.page_rel_nofollow and bool(page.nofollow_hrefs))
            or (page.noindex and settings.page_noindex == "drop")
            or (bool(settings.purposes) and any(page.refusal(purpose) is not None for purpose in settings.purposes))
        )

    def _processed(self, output: Any, response: Response) -> Any:
        if isinstance(output, Request):
            return self.get_processed_request(output, response)
        return self.get_processed_item(output, response)

    def process_spider_input(self, response: Response, spider: Spider | None = None) -> None:
        page = PageDirectives.from_response(response, agent=self.agent, links=self.settings.page_rel_nofollow)
        meta = response.meta
        signals = meta.get(CONTENT_SIGNALS_META)
        if signals:
            page = page.with_site_signals(signals)
        usage = meta.get(CONTENT_USAGE_META)
        if usage:
            page = page.with_site_usage(*usage)
        meta[META_KEY] = page
        if self._evidence is not None:
            self._evidence.page_seen(response, page)
        if page.directives:
            for effect in page.restricted:
                self._outcomes.count(Stat.PAGE_DIRECTIVE, effect.value)

    def get_processed_request(self, request: Request, response: Response | None) -> Request | None:
        if response is None or request.meta.get(DONT_OBEY):
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
        if self._provenance_field is not None:
            self._add_provenance(item, response, self._provenance_field)
        return item

    def _add_provenance(self, item: Any, response: Response, name: str) -> None:
        """Put the page's provenance in the item's field ``name`` (``REP_PROVENANCE_FIELD``); an item
        that cannot hold that field is left as it is, with one warning per item class."""
        provenance = response.meta.get(PROVENANCE)
        if not isinstance(provenance, dict):
            return
        if isinstance(item, dict):
            item[name] = dict(provenance)
            return
        from itemadapter import ItemAdapter  # only with REP_PROVENANCE_FIELD: not imported by a plain crawl

        if ItemAdapter.is_item(item):
            try:
                ItemAdapter(item)[name] = dict(provenance)
                return
            except KeyError:
                pass
        kind = type(item)
        if kind not in self._warned:
            self._warned.add(kind)
            logger.warning(
                "REP_PROVENANCE_FIELD is %(name)r, but items of %(kind)s declare no such field: "
                "their provenance is not added (declare the field to get it)",
                {"name": name, "kind": kind.__qualname__},
            )

    def _page(self, response: Response) -> PageDirectives | None:
        """The page's directives (read now if its callback ran before this middleware saw it), or
        None when the page is exempt."""
        meta = response.meta
        if meta.get(DONT_OBEY):
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
