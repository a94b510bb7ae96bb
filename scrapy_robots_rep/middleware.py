"""``RobotsMiddleware``: the downloader middleware that wires Scrapy to the robots.txt parts.

How a request travels (``docs/behaviour.md`` §5-§7):

* ``request_scheduled``: a request whose origin holds no rules yet is *parked*
  (``Parking``), out of the scheduler and the downloader, and the origin's one fetch task
  starts (``OriginRobots``). A request Scrapy's ``OffsiteMiddleware`` rejects is left alone.
* ``process_request`` decides: allowed requests pass, disallowed ones raise
  :class:`~scrapy_robots_rep.exceptions.RobotsDisallowed`, those of an origin whose deferral
  cycle failed raise :class:`~scrapy_robots_rep.exceptions.RobotsUnreachable`. Rules that
  expired still decide while they are refreshed. A scheduled request that finds no rules
  goes back to be parked; one that bypassed the scheduler (``engine.download_async``) waits
  there, not counted against ``CONCURRENT_REQUESTS``.
* ``spider_idle`` keeps the spider open while requests wait; ``spider_closed`` saves them in
  ``JOBDIR`` (``Deferred``) and reports; ``spider_opened`` takes saved ones back.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from scrapy import signals as scrapy_signals
from scrapy.exceptions import DontCloseSpider, IgnoreRequest, NotConfigured
from scrapy.utils.httpobj import urlparse_cached
from scrapy.utils.misc import build_from_crawler, load_object

from scrapy_robots_rep import signals
from scrapy_robots_rep.concurrency import beside_pages
from scrapy_robots_rep.exceptions import RobotsDisallowed, RobotsUnreachable
from scrapy_robots_rep.fetcher import RobotsFetcher
from scrapy_robots_rep.core import Decision
from scrapy_robots_rep.core.page import purpose_refusal
from scrapy_robots_rep.origins import Origins
from scrapy_robots_rep.page_middleware import CONTENT_SIGNALS_META, PageSettings
from scrapy_robots_rep.parking import Parking
from scrapy_robots_rep.policy.accounting import Accounting
from scrapy_robots_rep.policy.deferral import Route
from scrapy_robots_rep.policy.origin import is_exempt, origin_from_parts
from scrapy_robots_rep.policy.settings import RepSettings
from scrapy_robots_rep.report import CrawlReporter
from scrapy_robots_rep.saved import SavedRequests
from scrapy_robots_rep.slot_delays import SlotDelays
from scrapy_robots_rep.startup import check_order, log_start, offsite_filter

if TYPE_CHECKING:
    from collections.abc import Callable, Coroutine, Iterator

    from scrapy import Request, Spider
    from scrapy.crawler import Crawler

    from scrapy_robots_rep.policy.cache import CacheRecord

logger = logging.getLogger(__name__)

SCHEDULED = "rep_scheduled"
"""Meta key of requests that went through the scheduler (it survives disk and Redis queues)."""
RELEASED = "rep_released"
"""Meta key of parked requests given back to the engine, until they are decided."""


class RobotsMiddleware:
    """Obeys robots.txt per origin; see the module docstring."""

    def __init__(self, crawler: Crawler) -> None:
        settings = RepSettings.from_mapping(crawler.settings)
        if not settings.enabled:
            logger.info("scrapy_robots_rep is off (REP_ENABLED = False): robots.txt is not obeyed")
            raise NotConfigured
        check_order(crawler.settings, type(self))
        stats = crawler.stats
        assert stats is not None
        self._crawler = crawler
        self._settings = settings
        self._stats = stats
        store = build_from_crawler(load_object(settings.cache_backend), crawler) if settings.cache_backend else None
        self.parking = Parking(crawler, self._on_release)
        self.origins = Origins(crawler, settings, RobotsFetcher(crawler, settings), self.parking, store)
        self.accounting = Accounting()
        self._delays = SlotDelays(crawler, settings.crawl_delay_max) if settings.crawl_delay else None
        self._saved = SavedRequests(crawler)
        self._reporter = CrawlReporter(crawler, self.origins, self.accounting, self._delays, settings.report)
        self._offsite: Callable[[Request], bool] | None = None
        self._purposes = PageSettings.from_mapping(crawler.settings).purposes
        log_start(crawler, settings, store)
        crawler.signals.connect(self._on_spider_opened, scrapy_signals.spider_opened)
        crawler.signals.connect(self._on_request_scheduled, scrapy_signals.request_scheduled)
        crawler.signals.connect(self._on_spider_idle, scrapy_signals.spider_idle)
        crawler.signals.connect(self._on_spider_closed, scrapy_signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RobotsMiddleware:
        return cls(crawler)

    @property
    def cache(self) -> Any:
        """The in-memory record cache (``MemoryCache``)."""
        return self.origins.cache

    def process_request(
        self, request: Request, spider: Spider | None = None
    ) -> Request | Coroutine[Any, Any, None] | None:
        """Decide ``request``; synchronous unless it bypassed the scheduler and must wait for rules."""
        origin = self._checked_origin(request)
        if origin is None:
            return None
        released = request.meta.pop(RELEASED, False)
        where, record = self.origins.route(origin, time.time(), released)
        if where is Route.DECIDE:
            assert record is not None
            if not released:
                self._stats.inc_value("rep/cache/hits")
            self._decide(request, origin, record)
            return None
        if where is Route.DROP:
            self._drop(request, origin)
        if request.meta.get(SCHEDULED):
            again = request.replace(dont_filter=True)
            del again.meta[SCHEDULED]
            return again
        return self._decide_when_obtained(request, origin)

    def _checked_origin(self, request: Request) -> str | None:
        """The origin whose robots.txt governs ``request``; None for requests never checked."""
        if request.meta.get("dont_obey_robotstxt"):
            return None
        parts = urlparse_cached(request)
        origin = origin_from_parts(parts.scheme, parts.netloc)
        exempt = self._settings.exempt_domains
        if origin is None or (exempt and is_exempt(parts.hostname or "", exempt)):
            return None
        return origin

    def _decide(self, request: Request, origin: str, record: CacheRecord) -> None:
        rules = record.rules
        counts = self.accounting.of(origin)
        if rules.allowed(request.url):
            signals_ = rules.content_signals
            refusal = purpose_refusal(signals_, self._purposes) if signals_ and self._purposes else None
            if refusal is None:
                counts.allowed += 1
                self._stats.inc_value("rep/requests/allowed")
                if signals_:
                    request.meta[CONTENT_SIGNALS_META] = dict(signals_)
                if rules.crawl_delay and self._delays is not None:
                    self._delays.apply(request, origin, rules.crawl_delay)
                return
            self._stats.inc_value("rep/requests/refused_purposes")
            decision = Decision(False, None, rules.group, refusal)
        else:
            decision = rules.explain(request.url)
        counts.disallowed += 1
        self._stats.inc_value("rep/requests/disallowed")
        self._stats.inc_value("robotstxt/forbidden")
        rule = decision.rule
        logger.debug(
            "Forbidden by robots.txt: %(url)s (group: %(group)s; rule: %(rule)s; %(reason)s)",
            {
                "url": request.url,
                "group": ", ".join(decision.group) or "none",
                "rule": f"{rule.text!r} at line {rule.line}" if rule is not None else "none",
                "reason": decision.reason,
            },
            extra={"spider": self._crawler.spider},
        )
        self._crawler.signals.send_catch_log(signals.request_disallowed, request=request, decision=decision)
        raise RobotsDisallowed(request.url, decision)

    def _drop(self, request: Request, origin: str, reason: str | None = None) -> None:
        counts = self.accounting.of(origin)
        counts.dropped_unreachable += 1
        self._stats.inc_value("rep/requests/dropped_unreachable")
        if reason is None:
            record = self.origins.record(origin)
            reason = record.rules.explain(request.url).reason if record is not None else "unreachable"
        logger.info(
            "Dropped %(url)s: robots.txt of %(origin)s is unreachable (%(reason)s)",
            {"url": request.url, "origin": origin, "reason": reason},
            extra={"spider": self._crawler.spider},
        )
        self._crawler.signals.send_catch_log(signals.request_dropped_unreachable, request=request, origin=origin)
        raise RobotsUnreachable(request.url, origin, reason)

    async def _decide_when_obtained(self, request: Request, origin: str) -> None:
        """A request that bypassed the scheduler cannot be parked: it waits here, not counted
        against ``CONCURRENT_REQUESTS``, until its origin's rules are obtained or it is dropped."""
        self._deferred(request, origin)
        with beside_pages(self._crawler):
            while True:
                active = self.origins.of(origin)
                active.start(request)
                await active.attempt_ended()
                where, record = self.origins.route(origin, time.time())
                if where is not Route.PARK:
                    break
        if where is Route.DROP:
            self._drop(request, origin)
        assert record is not None
        self._decide(request, origin, record)

    def _on_request_scheduled(self, request: Request, spider: Spider | None = None) -> None:
        origin = self._checked_origin(request)
        if origin is None or (self._offsite is not None and self._offsite(request)):
            return
        where, _ = self.origins.route(origin, time.time(), request.meta.get(RELEASED, False))
        if where is Route.PARK:
            self._deferred(request, origin)
            self.accounting.of(origin).parked += 1
            self.parking.park(origin, request)
            self.origins.of(origin).start(request)
            raise IgnoreRequest(f"Deferred until robots.txt of {origin} is obtained")
        request.meta[SCHEDULED] = True

    def _deferred(self, request: Request, origin: str) -> None:
        self.accounting.of(origin).deferred += 1
        self._stats.inc_value("rep/requests/deferred")
        logger.debug(
            "Deferred %(url)s until robots.txt of %(origin)s is obtained",
            {"url": request.url, "origin": origin},
            extra={"spider": self._crawler.spider},
        )
        self._crawler.signals.send_catch_log(signals.request_deferred, request=request, origin=origin)

    def _on_release(self, origin: str, request: Request) -> None:
        """A parked request goes back to the engine, to be decided by the record that released it."""
        self.accounting.of(origin).parked -= 1
        request.meta[RELEASED] = True

    def _on_spider_opened(self, spider: Spider) -> None:
        self._offsite = offsite_filter(self._crawler)
        self._reporter.start()
        engine = self._crawler.engine
        assert engine is not None
        for request in self._saved.take():
            engine.crawl(request)

    def _on_spider_idle(self, spider: Spider | None = None) -> None:
        if self.parking.waiting:
            self.parking.give_back()
            raise DontCloseSpider

    def _take_waiting(self) -> Iterator[Request]:
        for origin, request in self.parking.take_all():
            self.accounting.of(origin).parked -= 1
            yield request

    async def _on_spider_closed(self, spider: Spider | None = None, reason: str = "") -> None:
        self.origins.cancel_all()
        waiting = self.parking.by_origin()
        self._reporter.close(waiting)
        if waiting:
            count = sum(waiting.values())
            self._stats.set_value("rep/requests/still_deferred", count)
            saved = self._saved.keep(list(self._take_waiting()))
            logger.warning(
                "Spider closed (%(reason)s) with %(count)d requests still waiting for robots.txt of "
                "%(origins)s%(saved)s",
                {
                    "reason": reason,
                    "count": count,
                    "origins": ", ".join(f"{origin} ({number})" for origin, number in sorted(waiting.items())),
                    "saved": "; saved in JOBDIR, they are crawled when the crawl resumes" if saved else "",
                },
                extra={"spider": spider},
            )
        for origin, counts in self.accounting.unbalanced().items():
            logger.error("Request accounting does not add up for %s: %r", origin, counts, extra={"spider": spider})
        if self.origins.store is not None:
            await self.origins.store.close()
