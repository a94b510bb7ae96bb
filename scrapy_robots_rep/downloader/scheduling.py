"""Where the robots middleware meets the scheduler: requests going in, and coming out.

Going in, a request whose origin holds no rules yet is parked instead of being enqueued.
This is asked of the scheduler's own ``enqueue_request`` rather than through Scrapy's
``request_scheduled`` signal: the engine calls it once for every request a callback yields
(also the many that the dupefilter then drops), after every ``request_scheduled`` handler
(``OffsiteMiddleware``'s among them) let the request through, and a direct call costs a
fraction of a signal dispatch. A parked request given back goes straight into the scheduler's
own ``enqueue_request``: it was let through once. Coming out, every request the scheduler hands
out is marked as scheduled: one that then finds no rules can go back to be parked
(``docs/behaviour.md`` §5).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from scrapy import signals
from scrapy.utils.httpobj import urlparse_cached

from scrapy_robots_rep.crawl.meta_keys import DONT_OBEY, FLEET_SLOT, REFILTERED, RELEASED, SCHEDULED
from scrapy_robots_rep.crawl.scrapy_compat import engine_scheduler
from scrapy_robots_rep.downloader.parking import Parked
from scrapy_robots_rep.policy.deferral import Route
from scrapy_robots_rep.policy.origin import is_exempt, origin_from_parts

if TYPE_CHECKING:
    from collections.abc import Callable

    from scrapy import Request
    from scrapy.crawler import Crawler

    from scrapy_robots_rep.crawl.outcomes import Outcomes
    from scrapy_robots_rep.downloader.fetch_tasks import Origins
    from scrapy_robots_rep.downloader.fleet_pacing import FleetPacing


def hook_scheduler(crawler: Crawler, parks: Callable[[Request], bool]) -> Callable[[Request], None]:
    """Make the crawl's scheduler ask ``parks`` before enqueueing a request (True: parked, not
    enqueued), and mark every request it hands out with :data:`SCHEDULED` (giving a
    :data:`REFILTERED` one its own ``dont_filter`` back). Returns how a released request
    goes back into the scheduler.

    Scheduler-agnostic: it wraps the two methods every Scrapy scheduler has
    (``BaseScheduler``), on the scheduler instance, when the spider opens.
    """
    scheduler = engine_scheduler(crawler.engine)
    assert scheduler is not None
    enqueue = scheduler.enqueue_request
    dequeue = scheduler.next_request

    def enqueue_request(request: Request) -> bool:
        # A parked request counts as enqueued: the engine must not report it as dropped.
        return parks(request) or enqueue(request)

    def next_request() -> Request | None:
        request = dequeue()
        if request is not None:
            meta = request.meta
            meta[SCHEDULED] = True
            if meta.pop(REFILTERED, False):
                request.dont_filter = False
        return request

    def enqueue_released(request: Request) -> None:
        """A parked request given back: every ``request_scheduled`` handler let it through when it
        was first scheduled, and its origin's rules are in, so it goes straight into the scheduler
        (no second signal, no second look by ``parks``). One the dupefilter drops is reported
        dropped, as the engine reports it."""
        if not enqueue(request):
            crawler.signals.send_catch_log(signals.request_dropped, request=request, spider=crawler.spider)

    scheduler.enqueue_request = enqueue_request  # type: ignore[method-assign]
    scheduler.next_request = next_request  # type: ignore[method-assign]
    return enqueue_released


def checked_origin(request: Request, exempt: tuple[str, ...]) -> str | None:
    """The origin whose robots.txt governs ``request``; None for requests never checked
    (``dont_obey_robotstxt``, a URL without an origin, a host of ``REP_EXEMPT_DOMAINS``)."""
    if request.meta.get(DONT_OBEY):
        return None
    parts = urlparse_cached(request)
    origin = origin_from_parts(parts.scheme, parts.netloc)
    if origin is None or (exempt and is_exempt(parts.hostname or "", exempt)):
        return None
    return origin


class ParkingGate:
    """Asked by the hooked scheduler for every request before it is enqueued: park it or not."""

    def __init__(
        self, origins: Origins, outcomes: Outcomes, exempt: tuple[str, ...], fleet: FleetPacing | None
    ) -> None:
        self.origins = origins
        self.parking = origins.parking
        self.outcomes = outcomes
        self.exempt = exempt
        self.fleet = fleet

    def parks(self, request: Request) -> bool:
        """Asked for every request the engine schedules, also those the dupefilter then drops: an
        origin with fresh rules and nothing under way (nearly every request of a crawl) costs one
        look-up by the URL's beginning; a request parked (True) is kept out of the scheduler."""
        if self.fleet is not None and FLEET_SLOT in request.meta:
            self.fleet.done(request)  # a copy of a request that held a slot, going to the (shared) queue
        url = request.url
        end = url.find("/", 8)  # the end of "scheme://netloc" (or of a part of it, then its query)
        prefix = url[:end] if end > 0 else ""
        now = time.time()
        if self.origins.prefix_decides_at_once(prefix, now):
            return False
        origin = checked_origin(request, self.exempt)
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
