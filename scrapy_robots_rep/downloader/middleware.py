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

The middleware is wiring: :func:`build_parts` makes its collaborators (``RobotsParts``), each
handed what it needs. A request is decided by ``RequestDecider`` and parked at enqueue by
``ParkingGate``; how each request ended is told to ``Outcomes`` (``crawl/outcomes.py``); robots.txt itself is obtained
by ``OriginRobots``; parked requests wait in ``Parking``; Crawl-delay is held by ``SlotDelays``.
"""

from __future__ import annotations

import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any, NamedTuple

from scrapy import signals as scrapy_signals
from scrapy.exceptions import DontCloseSpider, NotConfigured

from scrapy_robots_rep.crawl.meta_keys import (
    DONT_OBEY,
    FLEET_SLOT,
    RELEASED,
    ROBOTS_FETCH,
    SCHEDULED,
)
from scrapy_robots_rep.crawl.outcomes import Outcomes
from scrapy_robots_rep.crawl.parts import CrawlParts
from scrapy_robots_rep.crawl.settings import rep_settings
from scrapy_robots_rep.downloader.concurrency import beside_pages
from scrapy_robots_rep.downloader.deciding import RequestDecider
from scrapy_robots_rep.downloader.fetch_tasks import Origins
from scrapy_robots_rep.downloader.fetcher import RobotsFetcher
from scrapy_robots_rep.downloader.parking import Parking, past_the_dupefilter, shared_parking
from scrapy_robots_rep.downloader.report import CrawlReporter
from scrapy_robots_rep.downloader.saved import SavedRequests
from scrapy_robots_rep.downloader.scheduling import ParkingGate, checked_origin, hook_scheduler
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
from scrapy_robots_rep.policy.stat_names import Stat

if TYPE_CHECKING:
    from collections.abc import Coroutine

    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response

    from scrapy_robots_rep.crawl.evidence import Evidence
    from scrapy_robots_rep.downloader.fleet_pacing import FleetPacing
    from scrapy_robots_rep.policy.accounting import Accounting
    from scrapy_robots_rep.policy.record_cache import CacheRecord, MemoryCache
    from scrapy_robots_rep.policy.settings import RepSettings

logger = logging.getLogger(__name__)


class RobotsMiddleware:
    """Obeys robots.txt per origin; see the module docstring."""

    def __init__(self, crawler: Crawler, parts: RobotsParts) -> None:
        self._crawler = crawler
        self._settings = parts.settings
        self.outcomes = parts.outcomes
        self._evidence = parts.evidence
        self.origins = parts.origins
        self.parking = parts.origins.parking
        self._delays = parts.delays
        self._fleet = parts.fleet
        self._saved = parts.saved
        self._reporter = parts.reporter
        self._decider = parts.decider
        crawler.signals.connect(self._on_spider_opened, scrapy_signals.spider_opened)
        crawler.signals.connect(self._on_spider_idle, scrapy_signals.spider_idle)
        crawler.signals.connect(self._on_spider_closed, scrapy_signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RobotsMiddleware:
        """Check the settings, build the parts (``build_parts``) and log what is obeyed."""
        warn_unknown_settings(crawler.settings)
        with start_up_errors():
            if not rep_settings(crawler.settings).enabled:
                logger.info("scrapy_robots_rep is off (REP_ENABLED = False): robots.txt is not obeyed")
                raise NotConfigured
            check_order(crawler.settings, cls)
            middleware = cls(crawler, build_parts(crawler))
            log_start(middleware._settings, middleware.origins.store, proxy_configured(crawler.settings))
        return middleware

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
        origin = checked_origin(request, self._settings.exempt_domains)
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
            self._decider.decide(request, origin, record)
            return self._paced(request, origin, record)
        if where is Route.DROP:
            self.outcomes.raise_dropped(request, origin, self.origins.drop_reason(origin, request.url))
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

    def _paced(self, request: Request, origin: str, record: CacheRecord) -> Coroutine[Any, Any, None] | None:
        """With a store pacing the fleet, a request to an origin with a Crawl-delay waits for the origin's slot."""
        delay = min(record.rules.crawl_delay or 0.0, self._settings.crawl_delay_max)
        if delay <= 0 or self._fleet is None:
            return None
        return self._fleet.wait(request, origin, delay)

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
            self.outcomes.raise_dropped(request, origin, self.origins.drop_reason(origin, request.url))
        assert record is not None
        self._decider.decide(request, origin, record)
        paced = self._paced(request, origin, record)
        if paced is not None:
            await paced

    def _on_spider_opened(self, spider: Spider) -> None:
        gate = ParkingGate(self.origins, self.outcomes, self._settings.exempt_domains, self._fleet)
        self.parking.enqueue = hook_scheduler(self._crawler, gate.parks)
        self._reporter.start()
        shared = shared_parking(self._crawler, self.outcomes, self._settings)
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
            await self._fleet.close()
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


class RobotsParts(NamedTuple):
    """What ``RobotsMiddleware`` works with, made by :func:`build_parts` (one per crawler)."""

    settings: RepSettings
    outcomes: Outcomes
    evidence: Evidence | None
    origins: Origins
    delays: SlotDelays | None
    fleet: FleetPacing | None
    saved: SavedRequests
    reporter: CrawlReporter
    decider: RequestDecider


def build_parts(crawler: Crawler) -> RobotsParts:
    """The middleware's collaborators, each handed what it needs: the crawler's shared parts
    (``CrawlParts``), the shared store ``REP_CACHE_BACKEND`` names, parking, the origins' fetch
    tasks, Crawl-delay (fleet-wide with a store that paces), the reporter and the decider."""
    parts = CrawlParts.of(crawler)
    settings, outcomes = parts.settings, parts.outcomes
    store = load_store(crawler, settings.cache_backend)

    def released(origin: str, request: Request) -> None:
        """A parked request goes back into the scheduler, to be decided by the record that released it."""
        outcomes.released(origin)
        request.meta[RELEASED] = True

    def dropped(origin: str, request: Request) -> None:
        """A request parked in the shared scheduler's Redis, whose origin's deferral cycle failed."""
        with contextlib.suppress(RobotsUnreachable):
            outcomes.raise_dropped(request, origin, origins.drop_reason(origin, request.url))

    parking = Parking(crawler, outcomes, released, dropped, settings.max_parked)
    origins = Origins(crawler, outcomes, settings, RobotsFetcher(crawler, outcomes, settings), parking, store)
    delays = SlotDelays(crawler, outcomes, settings.crawl_delay_max) if settings.crawl_delay else None
    fleet = None
    if store is not None and store.shares_slots and delays is not None:
        from scrapy_robots_rep.downloader.fleet_pacing import FleetPacing  # only a store that shares slots needs it

        fleet = FleetPacing(crawler, outcomes, store)
    return RobotsParts(
        settings=settings,
        outcomes=outcomes,
        evidence=parts.evidence,
        origins=origins,
        delays=delays,
        fleet=fleet,
        saved=SavedRequests(crawler),
        reporter=CrawlReporter(
            crawler,
            outcomes,
            origins,
            delays,
            settings.report,
            parts.evidence.trail if parts.evidence is not None else None,
        ),
        decider=RequestDecider(outcomes, delays, settings.purposes),
    )
