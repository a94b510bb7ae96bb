"""``OriginRobots``: one origin's robots.txt while it is being obtained, and ``Origins``, all of them.

An ``OriginRobots`` owns its origin's deferral state, its one fetch task (shared-store
look-up, fetch, retries with backoff), the requests that bypassed the scheduler and wait
for an attempt to end, and what happens when an attempt ends: the record is kept, the
parked requests are released, the waiters woken (``docs/behaviour.md`` §5 and §6).
``Origins`` holds what they share: the record cache, the fetcher, the shared store.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from scrapy.utils.defer import deferred_from_coro, maybe_deferred_to_future
from twisted.internet.defer import CancelledError, Deferred
from twisted.python.failure import Failure

from scrapy_robots_rep.crawl.outcomes import Outcomes
from scrapy_robots_rep.policy.deferral import OriginState, Recovery, Route, refresh_due, route
from scrapy_robots_rep.policy.record_cache import CacheRecord, MemoryCache
from scrapy_robots_rep.policy.records import Conclusion, FetchResult, RecordMaker
from scrapy_robots_rep.policy.stat_names import Stat

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler

    from scrapy_robots_rep.core.changes import RulesChange
    from scrapy_robots_rep.downloader.fetcher import RobotsFetcher
    from scrapy_robots_rep.downloader.parking import Parking
    from scrapy_robots_rep.policy.settings import RepSettings
    from scrapy_robots_rep.stores import SharedStore

logger = logging.getLogger(__name__)

PINNED_ORIGINS = 1024
"""Origins whose last released record is kept beside the cache (released requests reach the
downloader within a few batches, long before this many other origins are released)."""


class Origins:
    """Every origin's record and, for origins being obtained or failing, its ``OriginRobots``."""

    def __init__(
        self,
        crawler: Crawler,
        outcomes: Outcomes,
        settings: RepSettings,
        fetcher: RobotsFetcher,
        parking: Parking,
        store: SharedStore | None,
    ) -> None:
        self.crawler = crawler
        self.outcomes = outcomes
        self.settings = settings
        self.fetcher = fetcher
        self.parking = parking
        self.store = store
        self.maker = RecordMaker(settings)
        self.cache = MemoryCache(settings.cache_max_origins)
        self._active: dict[str, OriginRobots] = {}
        self._pinned: OrderedDict[str, CacheRecord] = OrderedDict()
        self._at_once: dict[str, float] = {}
        """URL prefixes (``scheme://netloc``, as written) of origins that :meth:`decides_at_once`,
        to when their record expires; emptied whenever a record is kept or a fetch task made."""

    def record(self, origin: str, released: bool = False) -> CacheRecord | None:
        """The record requests of ``origin`` are decided by; for a released request, also the
        record that released it if the cache evicted it since."""
        record = self.cache.get(origin)
        if record is None and released:
            return self._pinned.get(origin)
        return record

    def decides_at_once(self, origin: str, now: float) -> bool:
        """Whether ``origin``'s requests are decided by fresh rules with no fetch task or failure
        state: what :meth:`route` says then is ``Route.DECIDE``, and it starts nothing."""
        record = self.cache.get(origin)
        return record is not None and now < record.expires_at and record.holds_rules and origin not in self._active

    def prefix_decides_at_once(self, prefix: str, now: float) -> bool:
        """:meth:`decides_at_once` for the origin of URLs starting with ``prefix``, if it was noted
        (:meth:`note_at_once`) since the last change: one look-up, no parsing."""
        return now < self._at_once.get(prefix, 0.0)

    def note_at_once(self, prefix: str, origin: str) -> None:
        """Note that URLs starting with ``prefix`` belong to ``origin``, which :meth:`decides_at_once`."""
        record = self.cache.get(origin)
        assert record is not None
        self._at_once[prefix] = record.expires_at

    def route(self, origin: str, now: float, released: bool = False) -> tuple[Route, CacheRecord | None]:
        """Where a request of ``origin`` goes now, and the record it would be decided by."""
        record = self.record(origin, released)
        active = self._active.get(origin)
        where = route(active.state if active else None, record, now, released)
        if where is Route.DECIDE and record is not None and refresh_due(active.state if active else None, record, now):
            self.of(origin).start(None)
        return where, record

    async def settled(self, origin: str, trigger: Request | None) -> tuple[Route, CacheRecord | None]:
        """Wait until ``origin`` has rules or its deferral cycle failed; then where a waiting request goes.

        For what cannot be parked (a request that bypassed the scheduler, a sitemap look-up):
        never ``Route.PARK``.
        """
        where, record = self.route(origin, time.time())
        while where is Route.PARK:
            active = self.of(origin)
            active.start(trigger)
            await active.attempt_ended()
            while active.fetching:
                await active.attempt_ended()
            # The task ended: with rules, or a failed cycle whose requests are dropped.
            where, record = self.route(origin, time.time(), released=True)
        return where, record

    def drop_reason(self, origin: str, url: str) -> str:
        """Why a request for ``url`` of ``origin`` is dropped: what its rules say, else that it is unreachable."""
        record = self.record(origin)
        return record.rules.explain(url).reason if record is not None else "unreachable"

    def of(self, origin: str) -> OriginRobots:
        """The ``OriginRobots`` of ``origin``, created on first need."""
        active = self._active.get(origin)
        if active is None:
            active = self._active[origin] = OriginRobots(origin, self)
            self._at_once.clear()
        return active

    def pin(self, origin: str, record: CacheRecord) -> None:
        """Keep ``record`` for ``origin``'s released requests, even if the cache evicts it before
        they reach the downloader (a tiny ``REP_CACHE_MAX_ORIGINS`` must not make them wait again)."""
        self._pinned[origin] = record
        self._pinned.move_to_end(origin)
        if len(self._pinned) > PINNED_ORIGINS:
            self._pinned.popitem(last=False)

    def forget(self, origin: str) -> None:
        self._active.pop(origin, None)

    def pending(self) -> list[OriginRobots]:
        """The origins being obtained or failing."""
        return list(self._active.values())

    def remember(self, origin: str, record: CacheRecord) -> None:
        evictions = self.cache.evictions
        self.cache.put(origin, record)
        self._at_once.clear()
        if self.cache.evictions != evictions:
            self.outcomes.gauge(Stat.CACHE_EVICTIONS, self.cache.evictions)

    def cancel_all(self) -> None:
        for active in list(self._active.values()):
            active.cancel()


class OriginRobots:
    """One origin's robots.txt being obtained: state, fetch task, waiters and shared-store steps."""

    def __init__(self, origin: str, origins: Origins) -> None:
        self.origin = origin
        self.state = OriginState()
        self.waiters: list[Deferred[None]] = []
        self._origins = origins
        self._task: Deferred[None] | None = None
        self._trigger: Request | None = None

    @property
    def fetching(self) -> bool:
        return self.state.fetching

    def start(self, trigger: Request | None) -> None:
        """Start this origin's fetch task unless it runs; ``trigger`` is the request that needed it."""
        if self.state.fetching:
            return
        state = self.state
        state.fetching = True
        state.drop_until = None
        self._trigger = trigger
        self._origins.outcomes.count(Stat.CACHE_MISSES)
        task: Deferred[None] = deferred_from_coro(self._obtain())
        self._task = task
        task.addErrback(_ignore_cancel)

    async def attempt_ended(self) -> None:
        """Wait until the current fetch attempt ends (for a request that bypassed the scheduler)."""
        waiter: Deferred[None] = Deferred()
        self.waiters.append(waiter)
        await maybe_deferred_to_future(waiter)

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _obtain(self) -> None:
        """The one task of this origin: shared store, fetch, retries, until rules or a drop."""
        origins = self._origins
        state = self.state
        try:
            while True:
                delay = state.next_fetch_at - time.time()
                if delay > 0:
                    await _sleep(delay)
                if state.cycle_started is None:
                    state.cycle_started = time.time()
                conclusion = await self._attempt()
                final = conclusion.plan is None or conclusion.plan.recovery is not Recovery.RETRY
                self._settle(conclusion, final)
                if final:
                    return
        except CancelledError:
            raise
        except Exception as error:  # a bug must not strand the parked requests
            logger.exception("Error while obtaining robots.txt of %s", self.origin, extra=self._extra())
            now = time.time()
            reason = f"error while obtaining robots.txt: {error!r}"
            conclusion = origins.maker.failed(reason, None, origins.record(self.origin), state, now)
            state.drop_until = now + origins.settings.defer_max_time
            state.cycle_started = None
            self._settle(conclusion, final=True)
        finally:
            state.fetching = False
            self._wake()
            if state.failures == 0 and not state.dropping(time.time()):
                origins.forget(self.origin)

    async def _attempt(self) -> Conclusion:
        """One attempt: a fresh record from the fleet's store, or a fetch of our own."""
        origins = self._origins
        previous = origins.record(self.origin)
        shared, locked = await self._consult_store()
        if shared is not None and shared.is_fresh(time.time()):
            origins.outcomes.count(Stat.CACHE_SHARED_HITS)
            return Conclusion(shared, "obtained by another crawler of the fleet")
        if shared is not None and (previous is None or shared.fetched_at > previous.fetched_at):
            previous = shared
        try:
            validators = previous.validators if previous is not None and previous.holds_rules else None
            result = await origins.fetcher.fetch(self.origin, validators)
            conclusion = origins.maker.conclude(result, previous, self.state, time.time())
            # a failed refresh revalidated nothing
            revalidated = result.hop.not_modified if validators is not None and conclusion.plan is None else None
            if origins.store is not None:
                await _quietly("store", origins.store.store(self.origin, conclusion.record))
        finally:
            if locked and origins.store is not None:
                await _quietly("release_fetch", origins.store.release_fetch(self.origin))
        change = _change(previous, result, conclusion)
        origins.outcomes.fetch_ended(self.origin, conclusion, self._trigger, revalidated, result, previous, change)
        return conclusion

    async def _consult_store(self) -> tuple[CacheRecord | None, bool]:
        """The fleet's record for this origin, fresh if another process fetched it; and whether we hold the lock.

        While another process holds the fetch lock, wait for the record it stores; past the end
        of the deferral cycle, or when the store fails, fetch without the lock.
        """
        store = self._origins.store
        if store is None:
            return None, False
        settings = self._origins.settings
        assert self.state.cycle_started is not None
        deadline = self.state.cycle_started + settings.defer_max_time
        while True:
            record = await _quietly("load", store.load(self.origin))
            if record is not None and record.is_fresh(time.time()):
                return record, False
            locked = await _quietly("acquire_fetch", store.acquire_fetch(self.origin))
            remaining = deadline - time.time()
            if locked is not False or remaining <= 0:
                return record, bool(locked)
            timeout = min(settings.fetch_timeout * (settings.max_redirects + 1), remaining)
            waited = await _quietly("wait_for_record", store.wait_for_record(self.origin, timeout))
            if waited is not None and waited.is_fresh(time.time()):
                return waited, False

    def _settle(self, conclusion: Conclusion, final: bool) -> None:
        """Keep the record; when the task ends (``final``), release the parked requests: they are
        then decided by its rules, or dropped if it ended without any."""
        origins = self._origins
        record = conclusion.record
        origins.remember(self.origin, record)
        origins.outcomes.record_kept(self.origin, record)
        if final:
            origins.pin(self.origin, record)
            plan = conclusion.plan
            origins.parking.release(self.origin, obtained=plan is None or plan.recovery is not Recovery.DROP)
        self._wake()

    def _wake(self) -> None:
        waiters, self.waiters = self.waiters, []
        for waiter in waiters:
            waiter.callback(None)

    def _extra(self) -> dict[str, Any]:
        return {"spider": self._origins.crawler.spider}


def _change(previous: CacheRecord | None, result: FetchResult, conclusion: Conclusion) -> RulesChange | None:
    """How a refresh that obtained an answer changed the rules the agent held; None for a first
    fetch, a failed one, or a 304 (the rules held are kept). ``core.changes`` is imported here, at
    the first refresh: a crawl that refreshes no robots.txt never loads it."""
    record = conclusion.record
    if previous is None or not previous.holds_rules or record.outcome.failed or result.hop.not_modified:
        return None
    from scrapy_robots_rep.core.changes import compare_rules

    held = previous.last_good if previous.last_good is not None else previous.rules
    return compare_rules(held, record.rules)


def _ignore_cancel(failure: Failure) -> Failure | None:
    """The fetch task was cancelled at close: nothing to report; any other failure goes on. On the
    asyncio reactor the task is an asyncio task, and its cancellation arrives as asyncio's own error."""
    return None if isinstance(failure.value, (CancelledError, asyncio.CancelledError)) else failure


async def _quietly(name: str, call: Any) -> Any:
    """Await a shared-store call; its errors are logged, never break the crawl."""
    try:
        return await call
    except CancelledError:
        raise
    except Exception:
        logger.warning("Shared robots.txt store failed in %s()", name, exc_info=True)
        return None


async def _sleep(seconds: float) -> None:
    """Wait on whichever reactor Scrapy installed (imported late, so as not to install one)."""
    from twisted.internet import reactor
    from twisted.internet.task import deferLater

    await maybe_deferred_to_future(deferLater(reactor, seconds, lambda: None))
