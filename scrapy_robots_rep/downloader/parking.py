"""``Parking``: requests held outside the scheduler until their origin's robots.txt is obtained.

Parked requests occupy neither the scheduler nor the download concurrency
(``docs/behaviour.md`` §5). When an origin's rules arrive its requests become ready and
go back into the scheduler in priority order (as if they had never been deferred), taking
turns across origins at equal priority, and paced: a batch whenever the scheduler runs dry
and a few more each time a download ends, so that one origin's backlog never floods the
downloader and a busy scheduler never starves them.

With a shared scheduler (scrapy-redis) the requests wait in Redis instead (``SharedParking``),
so that no process takes them with it when it dies. Either way a process holds at most
``REP_MAX_PARKED`` waiting requests; past that, requests stay in the scheduler.
"""

from __future__ import annotations

import enum
import heapq
from collections import defaultdict
from collections.abc import Callable, Iterator
from itertools import count
from typing import TYPE_CHECKING, Any

from scrapy import signals

from scrapy_robots_rep.crawl.meta_keys import REFILTERED
from scrapy_robots_rep.crawl.scrapy_compat import engine_scheduler, wake_engine

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler

    from scrapy_robots_rep.crawl.outcomes import Outcomes
    from scrapy_robots_rep.downloader.shared_parking import SharedParking
    from scrapy_robots_rep.policy.settings import RepSettings

RELEASED_PER_DOWNLOAD = 2
"""Ready requests given back to the scheduler each time a download ends."""


def past_the_dupefilter(request: Request) -> Request:
    """``request`` set to pass the dupefilter once more, its own ``dont_filter`` kept (:data:`REFILTERED`)."""
    if request.dont_filter:
        return request
    again = request.replace(dont_filter=True)
    again.meta[REFILTERED] = True
    return again


class Parked(enum.Enum):
    """Where :meth:`Parking.park` left a request."""

    HERE = "in this process's memory, released past the dupefilter (without a shared scheduler, or Redis refused it)"
    IN_REDIS = "parked in the shared scheduler's Redis (or, the reply lost, being settled with Redis)"
    QUEUED = "the origin's parked requests in Redis reached the bound: it went into the shared queue"
    DUPLICATE = "the shared scheduler's dupefilter dropped it"


class Parking:
    """Parked requests per origin, and the ready ones waiting to go back into the scheduler."""

    def __init__(
        self,
        crawler: Crawler,
        outcomes: Outcomes,
        on_release: Callable[[str, Request], None],
        on_drop: Callable[[str, Request], None],
        max_parked: int,
    ) -> None:
        self._crawler = crawler
        self._outcomes = outcomes
        self._on_release = on_release
        self._on_drop = on_drop
        self._max_parked = max_parked
        self._shared: SharedParking | None = None
        self.waiters = 0
        """Requests that bypassed the scheduler and wait for robots.txt in the downloader."""
        self._count = 0
        self._batch = max(crawler.settings.getint("CONCURRENT_REQUESTS"), 1)
        self._parked: defaultdict[str, list[Request]] = defaultdict(list)
        self._ready: list[tuple[int, int, int, str, Request]] = []
        self._order = count()
        self._pacing = False
        self.enqueue: Callable[[Request], None] | None = None
        """How a released request goes back into the scheduler (``scheduling.hook_scheduler``); set when the
        spider opens."""
        crawler.signals.connect(self._on_scheduler_empty, signals.scheduler_empty)

    @property
    def shared(self) -> SharedParking | None:
        """Where requests are parked with a shared scheduler; set when the spider opens."""
        return self._shared

    @shared.setter
    def shared(self, shared: SharedParking) -> None:
        self._shared = shared
        shared.keep_here = self._keep_refused

    def park(self, origin: str, request: Request) -> Parked:
        """Park ``request`` until ``origin``'s rules are obtained: in the shared scheduler's Redis, else here."""
        if self._shared is not None:
            parked = self._shared.park(origin, request)
            if parked is not Parked.HERE:
                return parked
            # The dupefilter may have seen it: it goes back past it, once.
            request = past_the_dupefilter(request)
        self._keep(origin, request)
        return Parked.HERE

    def _keep(self, origin: str, request: Request) -> None:
        self._parked[origin].append(request)
        self._count += 1
        self._outcomes.held_here(origin)

    def _keep_refused(self, origin: str, request: Request, released: bool) -> None:
        """A request whose park Redis refused once its lost reply was asked about again: kept here."""
        self._keep(origin, request)
        if released:
            self.release(origin)

    @property
    def full(self) -> bool:
        """Whether this process holds ``REP_MAX_PARKED`` waiting requests (parked or waiting in the downloader)."""
        shared = self._shared
        in_redis = sum(shared.held.values()) + len(shared.unsettled) if shared is not None else 0
        return self._count + in_redis + self.waiters >= self._max_parked

    def release(self, origin: str, obtained: bool = True) -> None:
        """Make ``origin``'s parked requests ready and start giving them back; with a shared
        scheduler, move them (whoever parked them) into its queue. Without rules
        (``obtained`` False: the deferral cycle failed) a shared scheduler's are dropped here."""
        shared = self._shared
        if shared is not None:
            if obtained:
                shared.release(origin)
            else:
                for request in shared.take(origin):
                    self._on_drop(origin, request)
        requests = self._parked.pop(origin, None)
        if not requests:
            return
        for turn, request in enumerate(requests):
            heapq.heappush(self._ready, (-request.priority, turn, next(self._order), origin, request))
        self.give_back(1)

    @property
    def waiting(self) -> bool:
        """Whether any request is parked (here or, by this process, in Redis) or ready."""
        shared = self._shared
        return (
            bool(self._ready)
            or any(self._parked.values())
            or bool(shared is not None and (shared.held or shared.unsettled))
        )

    def by_origin(self) -> dict[str, int]:
        """Parked and ready requests per origin."""
        counts = {origin: len(requests) for origin, requests in self._parked.items() if requests}
        if self._shared is not None:
            for origin, number in self._shared.held.items():
                counts[origin] = counts.get(origin, 0) + number
            for park in self._shared.unsettled:
                counts[park.origin] = counts.get(park.origin, 0) + 1
        for *_, origin, _ in self._ready:
            counts[origin] = counts.get(origin, 0) + 1
        return counts

    def take_all(self) -> Iterator[tuple[str, Request]]:
        """Remove and yield every parked and ready request (at close)."""
        parked, self._parked = self._parked, defaultdict(list)
        ready, self._ready = self._ready, []
        self._count = 0
        self._pace(False)
        for origin, requests in parked.items():
            for request in requests:
                yield origin, request
        for *_, origin, request in sorted(ready):
            yield origin, request

    def stop_sharing(self) -> None:
        """At close, with a shared scheduler: the requests this process parked in Redis go back to its
        queue, or, when the queue does not persist (it was just flushed), come here to be taken out."""
        if self._shared is not None:
            for origin, request in self._shared.close():
                self._keep(origin, request)

    def give_back(self, budget: int | None = None) -> None:
        """Give up to ``budget`` ready requests (default: one batch) back to the scheduler, best first,
        then wake the engine once."""
        engine = self._crawler.engine
        enqueue = self.enqueue
        if engine is None or engine.spider is None or enqueue is None:
            return
        budget = self._batch if budget is None else budget
        ready = self._ready
        given = budget
        while ready and budget > 0:
            *_, origin, request = heapq.heappop(ready)
            self._count -= 1
            self._on_release(origin, request)
            enqueue(request)
            budget -= 1
        if budget < given:
            wake_engine(engine)
        self._pace(bool(ready))

    def _pace(self, on: bool) -> None:
        """Listen to finished downloads only while requests are ready (the hot path stays cheap)."""
        if on == self._pacing:
            return
        self._pacing = on
        if on:
            self._crawler.signals.connect(self._on_download_left, signals.request_left_downloader)
        else:
            self._crawler.signals.disconnect(self._on_download_left, signals.request_left_downloader)

    def _on_download_left(self, **kwargs: Any) -> None:
        self.give_back(RELEASED_PER_DOWNLOAD)

    def _on_scheduler_empty(self) -> None:
        if self._ready:
            self.give_back()


def shared_parking(crawler: Crawler, outcomes: Outcomes, settings: RepSettings) -> SharedParking | None:
    """Parking in Redis when the scheduler is scrapy-redis's (imported only then: it needs the redis client),
    under a lease of ``REP_REDIS_LOCK_TIMEOUT``, keys living ``REP_DEFER_MAX_TIME`` past their last renewal,
    at most ``REP_MAX_PARKED`` requests per origin."""
    if getattr(engine_scheduler(crawler.engine), "server", None) is None:
        return None
    from scrapy_robots_rep.downloader.shared_parking import SharedParking

    lease, lifetime = settings.redis_lock_timeout, settings.defer_max_time
    return SharedParking.of(crawler, outcomes, lease, lifetime, settings.max_parked)
