"""``RobotsMiddleware``: the downloader middleware that wires Scrapy to the robots.txt parts.

How a request travels (``docs/behaviour.md`` §5-§7):

* As the scheduler is asked to enqueue it (``scheduling.py``), a request whose origin holds no
  rules yet is *parked* (``Parking``), out of the scheduler and the downloader, and the origin's
  one fetch task starts (``OriginRobots``). Requests Scrapy's ``OffsiteMiddleware`` rejects
  never get there.
* ``process_request`` decides: allowed requests pass, disallowed ones raise
  :class:`~scrapy_robots_rep.exceptions.RobotsDisallowed`, those of an origin whose deferral
  cycle failed raise :class:`~scrapy_robots_rep.exceptions.RobotsUnreachable`. Rules that
  expired still decide while they are refreshed. A scheduled request that finds no rules
  goes back to be parked; one that bypassed the scheduler (``engine.download_async``) waits
  there, not counted against ``CONCURRENT_REQUESTS``.
* ``spider_idle`` keeps the spider open while requests wait; ``spider_closed`` saves them in
  ``JOBDIR`` and reports; ``spider_opened`` takes saved ones back.

How each request ended is told to ``Outcomes`` (``crawl/outcomes.py``); robots.txt itself is obtained by
``OriginRobots``; parked requests wait in ``Parking``; Crawl-delay is held by ``SlotDelays``.
"""

from __future__ import annotations

import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

from scrapy import signals as scrapy_signals
from scrapy.exceptions import DontCloseSpider, NotConfigured
from scrapy.utils.httpobj import urlparse_cached

from scrapy_robots_rep.crawl.evidence import Evidence
from scrapy_robots_rep.crawl.meta_keys import (
    CONTENT_SIGNALS,
    CONTENT_USAGE,
    DONT_OBEY,
    FLEET_SLOT,
    RELEASED,
    ROBOTS_FETCH,
    SCHEDULED,
)
from scrapy_robots_rep.crawl.outcomes import Outcomes
from scrapy_robots_rep.crawl.report import CrawlReporter
from scrapy_robots_rep.crawl.settings import rep_settings
from scrapy_robots_rep.downloader.concurrency import beside_pages
from scrapy_robots_rep.downloader.fetch_tasks import Origins
from scrapy_robots_rep.downloader.fetcher import RobotsFetcher
from scrapy_robots_rep.downloader.fleet_pacing import FleetPacing
from scrapy_robots_rep.downloader.parking import Parked, Parking
from scrapy_robots_rep.downloader.saved import SavedRequests
from scrapy_robots_rep.downloader.scheduling import hook_scheduler, past_the_dupefilter
from scrapy_robots_rep.downloader.scrapy_compat import engine_scheduler
from scrapy_robots_rep.downloader.slot_delays import SlotDelays
from scrapy_robots_rep.downloader.startup import (
    check_order,
    load_store,
    log_start,
    proxy_configured,
    start_up_errors,
    warn_unknown_settings,
)
from scrapy_robots_rep.exceptions import RobotsUnreachable
from scrapy_robots_rep.policy.deferral import Route
from scrapy_robots_rep.policy.origin import is_exempt, origin_from_parts
from scrapy_robots_rep.policy.stat_names import Stat

if TYPE_CHECKING:
    from collections.abc import Coroutine

    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response

    from scrapy_robots_rep.downloader.shared_parking import SharedParking
    from scrapy_robots_rep.policy.accounting import Accounting
    from scrapy_robots_rep.policy.record_cache import CacheRecord, MemoryCache
    from scrapy_robots_rep.policy.settings import RepSettings

logger = logging.getLogger(__name__)


class RobotsMiddleware:
    """Obeys robots.txt per origin; see the module docstring."""

    def __init__(self, crawler: Crawler) -> None:
        warn_unknown_settings(crawler.settings)
        with start_up_errors():
            settings = rep_settings(crawler.settings)
            if not settings.enabled:
                logger.info("scrapy_robots_rep is off (REP_ENABLED = False): robots.txt is not obeyed")
                raise NotConfigured
            check_order(crawler.settings, type(self))
            self._crawler = crawler
            self._settings = settings
            store = load_store(crawler, settings.cache_backend)
            self.parking = Parking(crawler, self._on_release, self._on_drop, settings.max_parked)
            self.origins = Origins(crawler, settings, RobotsFetcher(crawler, settings), self.parking, store)
            self.outcomes = Outcomes.of(crawler)
            self._evidence = Evidence.of(crawler)
            self._delays = SlotDelays(crawler, settings.crawl_delay_max) if settings.crawl_delay else None
            self._fleet = (
                FleetPacing(crawler, store) if store is not None and store.shares_slots and self._delays else None
            )
            self._saved = SavedRequests(crawler)
            self._reporter = CrawlReporter(
                crawler, self.origins, self.outcomes.accounting, self._delays, settings.report
            )
            self._purposes = settings.purposes
            log_start(settings, store, proxy_configured(crawler.settings))
        crawler.signals.connect(self._on_spider_opened, scrapy_signals.spider_opened)
        crawler.signals.connect(self._on_spider_idle, scrapy_signals.spider_idle)
        crawler.signals.connect(self._on_spider_closed, scrapy_signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RobotsMiddleware:
        return cls(crawler)

    @property
    def cache(self) -> MemoryCache:
        return self.origins.cache

    @property
    def accounting(self) -> Accounting:
        return self.outcomes.accounting

    def process_request(
        self, request: Request, spider: Spider | None = None
    ) -> Request | Coroutine[Any, Any, None] | None:
        """Decide ``request``; synchronous unless it bypassed the scheduler and must wait for rules."""
        if FLEET_SLOT in request.meta and self._fleet is not None:
            self._fleet.done(request)  # a copy of a request that held a slot (a middleware returned it)
        origin = self._checked_origin(request)
        if origin is None:
            if self._evidence is not None and not request.meta.get(ROBOTS_FETCH):
                self.outcomes.request_unchecked(request, exempt=not request.meta.get(DONT_OBEY))
            return None
        released = request.meta.pop(RELEASED, False)
        where, record = self.origins.route(origin, time.time(), released)
        if where is Route.DECIDE:
            assert record is not None
            if not released:
                self.outcomes.count(Stat.CACHE_HITS)
            self._decide(request, origin, record)
            return self._paced(request, origin, record)
        if where is Route.DROP:
            self.outcomes.raise_dropped(request, origin, self._drop_reason(origin, request))
        full = self.parking.full
        if request.meta.get(SCHEDULED) and not full:
            again = past_the_dupefilter(request)
            if again is request:
                again = request.replace()
            del again.meta[SCHEDULED]
            return again
        return self._decide_when_obtained(request, origin, beside=not full)

    def process_response(self, request: Request, response: Response, spider: Spider | None = None) -> Response:
        if FLEET_SLOT in request.meta and self._fleet is not None:
            self._fleet.done(request)
        return response

    def process_exception(self, request: Request, exception: Exception, spider: Spider | None = None) -> None:
        if FLEET_SLOT in request.meta and self._fleet is not None:
            self._fleet.done(request)

    async def sitemaps(self, origin: str) -> tuple[str, ...]:
        """The ``Sitemap:`` URLs of ``origin``'s robots.txt, from the one fetch that obtains its rules."""
        where, record = await self.origins.settled(origin, None)
        return record.rules.sitemaps if where is Route.DECIDE and record is not None else ()

    def _checked_origin(self, request: Request) -> str | None:
        """The origin whose robots.txt governs ``request``; None for requests never checked."""
        if request.meta.get(DONT_OBEY):
            return None
        parts = urlparse_cached(request)
        origin = origin_from_parts(parts.scheme, parts.netloc)
        exempt = self._settings.exempt_domains
        if origin is None or (exempt and is_exempt(parts.hostname or "", exempt)):
            return None
        return origin

    def _decide(self, request: Request, origin: str, record: CacheRecord) -> None:
        rules = record.rules
        if not rules.allowed(request.url):
            self.outcomes.raise_disallowed(request, origin, rules.explain(request.url), record)
        if self._purposes:
            refusal = rules.purposes_refusal(request.url, self._purposes)
            if refusal is not None:
                self.outcomes.raise_refused(request, origin, refusal, record)
        content_signals = rules.content_signals
        if content_signals:
            request.meta[CONTENT_SIGNALS] = dict(content_signals)
        usage = rules.content_usage(request.url)
        if usage is not None and usage.preferences:
            request.meta[CONTENT_USAGE] = (dict(usage.preferences), usage.source)
        if rules.crawl_delay and self._delays is not None:
            self._delays.apply(request, origin, rules.crawl_delay)
        self.outcomes.allowed(request, origin, record)

    def _paced(self, request: Request, origin: str, record: CacheRecord) -> Coroutine[Any, Any, None] | None:
        """With a store pacing the fleet, a request to an origin with a Crawl-delay waits for the origin's slot."""
        delay = min(record.rules.crawl_delay or 0.0, self._settings.crawl_delay_max)
        if delay <= 0 or self._fleet is None:
            return None
        return self._fleet.wait(request, origin, delay)

    def _drop_reason(self, origin: str, request: Request) -> str:
        record = self.origins.record(origin)
        return record.rules.explain(request.url).reason if record is not None else "unreachable"

    async def _decide_when_obtained(self, request: Request, origin: str, beside: bool) -> None:
        """A request that bypassed the scheduler cannot be parked: it waits here, until its origin's
        rules are obtained or it is dropped; not counted against ``CONCURRENT_REQUESTS`` (``beside``)
        unless this process already holds ``REP_MAX_PARKED`` waiting requests."""
        self.outcomes.deferred(request, origin)
        self.parking.waiters += 1
        try:
            with beside_pages(self._crawler) if beside else contextlib.nullcontext():
                where, record = await self.origins.settled(origin, request)
        finally:
            self.parking.waiters -= 1
        if where is Route.DROP:
            self.outcomes.raise_dropped(request, origin, self._drop_reason(origin, request))
        assert record is not None
        self._decide(request, origin, record)
        paced = self._paced(request, origin, record)
        if paced is not None:
            await paced

    def _parks(self, request: Request) -> bool:
        """Asked for every request the engine schedules, also those the dupefilter then drops: an
        origin with fresh rules and nothing under way (nearly every request of a crawl) costs one
        look-up by the URL's beginning; a request parked (True) is kept out of the scheduler."""
        if self._fleet is not None and FLEET_SLOT in request.meta:
            self._fleet.done(request)  # a copy of a request that held a slot, going to the shared queue
        url = request.url
        end = url.find("/", 8)  # the end of "scheme://netloc" (or of a part of it, then its query)
        prefix = url[:end] if end > 0 else ""
        now = time.time()
        if self.origins.prefix_decides_at_once(prefix, now):
            return False
        origin = self._checked_origin(request)
        if origin is None:
            return False
        if self.origins.decides_at_once(origin, now):
            if prefix:
                self.origins.note_at_once(prefix, origin)
            return False
        return self._park_if_waiting(request, origin)

    def _park_if_waiting(self, request: Request, origin: str) -> bool:
        """Park ``request`` when its origin holds no rules yet (starting the origin's fetch task)."""
        where, _ = self.origins.route(origin, time.time(), request.meta.get(RELEASED, False))
        if where is not Route.PARK or self.parking.full:
            return False
        parked = self.parking.park(origin, request)
        if parked is not Parked.DUPLICATE:
            if parked is not Parked.QUEUED:
                self.outcomes.deferred(request, origin)
            self.origins.of(origin).start(request)
        return True

    def _on_release(self, origin: str, request: Request) -> None:
        """A parked request goes back to the engine, to be decided by the record that released it."""
        self.outcomes.released(origin)
        request.meta[RELEASED] = True

    def _on_drop(self, origin: str, request: Request) -> None:
        """A request parked in the shared scheduler's Redis, whose origin's deferral cycle failed."""
        with contextlib.suppress(RobotsUnreachable):
            self.outcomes.raise_dropped(request, origin, self._drop_reason(origin, request))

    def _on_spider_opened(self, spider: Spider) -> None:
        hook_scheduler(self._crawler, self._parks)
        self._reporter.start()
        shared = _shared_parking(self._crawler, self._settings)
        if shared is not None:
            self.parking.shared = shared
            shared.start()
        engine = self._crawler.engine
        assert engine is not None
        for request in self._saved.take():
            engine.crawl(request)

    def _on_spider_idle(self, spider: Spider | None = None) -> None:
        if self.parking.waiting:
            self.parking.give_back()
            raise DontCloseSpider

    async def _on_spider_closed(self, spider: Spider | None = None, reason: str = "") -> None:
        self.origins.cancel_all()
        if self._fleet is not None:
            self._fleet.close()
        self.parking.stop_sharing()
        waiting = self.parking.by_origin()
        requests = []
        for origin, request in self.parking.take_all():
            self.outcomes.released(origin)
            requests.append(request)
        saved = self._saved.keep(requests) if requests else False
        self._reporter.close(reason, waiting, saved)
        if self.origins.store is not None:
            await self.origins.store.close()


def _shared_parking(crawler: Crawler, settings: RepSettings) -> SharedParking | None:
    """Parking in Redis when the scheduler is scrapy-redis's (imported only then: it needs the redis client),
    under a lease of ``REP_REDIS_LOCK_TIMEOUT``, keys living ``REP_DEFER_MAX_TIME`` past their last renewal,
    at most ``REP_MAX_PARKED`` requests per origin."""
    if getattr(engine_scheduler(crawler.engine), "server", None) is None:
        return None
    from scrapy_robots_rep.downloader.shared_parking import SharedParking

    return SharedParking.of(crawler, settings.redis_lock_timeout, settings.defer_max_time, settings.max_parked)
