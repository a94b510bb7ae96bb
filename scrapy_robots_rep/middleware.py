"""``RobotsMiddleware``: the thin Scrapy layer over the core parser and the policy.

How a request travels (SPEC.md sections 5-7):

* ``request_scheduled``: a request whose origin has no fresh rules is *parked*
  here, out of the scheduler and out of the downloader, and the origin's one
  robots.txt fetch is started. Parked requests occupy no download concurrency.
  (Scrapy's engine sends ``request_scheduled`` before ``enqueue_request`` and
  drops a request a handler raised ``IgnoreRequest`` for, silently: the
  dupefilter has not seen a parked request yet.)
* When the fetch resolves, the parked requests go back through
  ``engine.crawl()``, in round-robin batches across origins, and are decided
  with the rules obtained.
* ``process_request`` is the authoritative check: allowed requests pass,
  disallowed ones raise :class:`~scrapy_robots_rep.exceptions.RobotsDisallowed`,
  requests of an origin whose deferral cycle failed raise
  :class:`~scrapy_robots_rep.exceptions.RobotsUnreachable`. A scheduled request
  whose rules expired meanwhile is sent back (a ``dont_filter`` copy) to be
  parked; a request that never went through the scheduler
  (``engine.download_async``) waits for the rules instead.
* ``spider_idle``: the spider stays open while requests are parked or a fetch
  or its backoff retry is pending.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict, deque
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary, WeakSet

from scrapy import signals as scrapy_signals
from scrapy.exceptions import DontCloseSpider, IgnoreRequest, NotConfigured
from scrapy.http import Request
from scrapy.utils.defer import deferred_from_coro, maybe_deferred_to_future
from scrapy.utils.httpobj import urlparse_cached
from scrapy.utils.misc import load_object
from twisted.internet.defer import CancelledError, Deferred

from scrapy_robots_rep import signals
from scrapy_robots_rep.core import AgentRules, RobotsTxt
from scrapy_robots_rep.exceptions import RobotsDisallowed, RobotsUnreachable
from scrapy_robots_rep.fetcher import Fetched, RobotsFetcher
from scrapy_robots_rep.policy.accounting import Accounting
from scrapy_robots_rep.policy.cache import CacheRecord, MemoryCache, SharedStore, record_lifetime
from scrapy_robots_rep.policy.deferral import FailurePlan, OriginState, Plan, Route, plan_after_failure, route
from scrapy_robots_rep.policy.origin import origin_from_parts
from scrapy_robots_rep.policy.settings import RepSettings
from scrapy_robots_rep.policy.status import (
    ALLOW_ALL,
    DISALLOW_ALL,
    FAILED_OUTCOMES,
    RULES,
    judge_failure,
)
from scrapy_robots_rep.robotparser import RepRobotParser

if TYPE_CHECKING:
    from collections.abc import Coroutine

    from scrapy import Spider
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

ROBOTS_PARSED = getattr(scrapy_signals, "robots_parsed", None)
"""Scrapy's ``robots_parsed`` signal; Scrapy 2.14 does not define it yet."""

RELEASED_PER_DOWNLOAD = 2
"""Released requests given back to the engine each time a download ends (see ``_release``)."""


class RobotsMiddleware:
    """Obeys robots.txt per origin (SPEC.md sections 5-7); see the module docstring."""

    def __init__(self, crawler: Crawler) -> None:
        settings = RepSettings.from_mapping(crawler.settings)
        if not settings.enabled:
            raise NotConfigured("REP_ENABLED is False")
        if crawler.settings.getbool("ROBOTSTXT_OBEY"):
            logger.warning(
                "ROBOTSTXT_OBEY is True and scrapy_robots_rep.RobotsMiddleware is enabled: "
                "robots.txt will be fetched and obeyed twice; set ROBOTSTXT_OBEY = False"
            )
        self._crawler = crawler
        self._settings = settings
        self._stats = crawler.stats
        self.cache = MemoryCache(settings.cache_max_origins)
        self._shared: SharedStore | None = (
            load_object(settings.cache_backend).from_settings(crawler.settings) if settings.cache_backend else None
        )
        self._fetcher = RobotsFetcher(crawler, settings)
        self.accounting = Accounting()
        self._states: dict[str, OriginState[Request]] = {}
        self._tasks: dict[str, Deferred[None]] = {}
        self._waiters: dict[str, list[Deferred[CacheRecord]]] = {}
        self._triggers: dict[str, Request] = {}
        self._scheduled: WeakSet[Request] = WeakSet()
        self._released: WeakKeyDictionary[Request, CacheRecord] = WeakKeyDictionary()
        self._ready: OrderedDict[str, deque[Request]] = OrderedDict()
        self._release_batch = max(crawler.settings.getint("CONCURRENT_REQUESTS"), 1)
        self._pacing = False
        self._crawl_delays: dict[str, float] = {}
        crawler.signals.connect(self._on_request_scheduled, scrapy_signals.request_scheduled)
        crawler.signals.connect(self._on_spider_idle, scrapy_signals.spider_idle)
        crawler.signals.connect(self._on_scheduler_empty, scrapy_signals.scheduler_empty)
        crawler.signals.connect(self._on_spider_closed, scrapy_signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RobotsMiddleware:
        return cls(crawler)

    # -- the request path -------------------------------------------------

    def process_request(
        self, request: Request, spider: Spider | None = None
    ) -> Request | Coroutine[Any, Any, None] | None:
        """Decide ``request``; send it back or wait if its origin's rules are not fresh.

        Synchronous on the hot path (fresh rules); only a request that bypassed
        the scheduler gets a coroutine, which Scrapy awaits.
        """
        origin = self._checked_origin(request)
        if origin is None:
            return None
        record = self.cache.get(origin)
        where = route(self._states.get(origin), record, time.time())
        released = self._released.pop(request, None) if self._released else None
        if where is Route.DECIDE:
            assert record is not None
            if released is None:
                self._stats.inc_value("rep/cache/hits")
            return self._decide(request, origin, record)
        if where is Route.DROP:
            self._drop(request, origin)
        if released is not None:
            return self._decide(request, origin, released)
        if request in self._scheduled:
            return request.replace(dont_filter=True)
        return self._decide_when_obtained(request, origin)

    def _checked_origin(self, request: Request) -> str | None:
        """The origin whose robots.txt governs ``request``; None for requests never checked."""
        if request.meta.get("dont_obey_robotstxt"):
            return None
        parts = urlparse_cached(request)
        return origin_from_parts(parts.scheme, parts.netloc)

    def _decide(self, request: Request, origin: str, record: CacheRecord) -> None:
        rules = record.rules
        counts = self.accounting.of(origin)
        counts.seen += 1
        if rules.allowed(request.url):
            counts.allowed += 1
            self._stats.inc_value("rep/requests/allowed")
            if rules.crawl_delay and self._settings.crawl_delay:
                self._apply_crawl_delay(request, rules.crawl_delay)
            return None
        counts.disallowed += 1
        self._stats.inc_value("rep/requests/disallowed")
        decision = rules.explain(request.url)
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

    def _drop(self, request: Request, origin: str) -> None:
        counts = self.accounting.of(origin)
        counts.seen += 1
        counts.dropped_unreachable += 1
        self._stats.inc_value("rep/requests/dropped_unreachable")
        record = self.cache.get(origin)
        reason = record.rules.explain(request.url).reason if record is not None else "unreachable"
        logger.info(
            "Dropped %(url)s: robots.txt of %(origin)s stayed unreachable for %(seconds)gs (%(reason)s)",
            {"url": request.url, "origin": origin, "seconds": self._settings.defer_max_time, "reason": reason},
            extra={"spider": self._crawler.spider},
        )
        self._crawler.signals.send_catch_log(signals.request_dropped_unreachable, request=request, origin=origin)
        raise RobotsUnreachable(request.url, origin, reason)

    async def _decide_when_obtained(self, request: Request, origin: str) -> None:
        """For a request that bypassed the scheduler: wait for the origin's rules here."""
        self._defer(request, origin)
        waiter: Deferred[CacheRecord] = Deferred()
        self._waiters.setdefault(origin, []).append(waiter)
        self._ensure_fetch(origin, request)
        record = await maybe_deferred_to_future(waiter)
        self._undefer(origin, 1)
        if route(self._states.get(origin), record, time.time()) is Route.DROP:
            self._drop(request, origin)
        self._decide(request, origin, record)

    def _apply_crawl_delay(self, request: Request, crawl_delay: float) -> None:
        """Raise the delay of the request's downloader slot to the robots.txt delay (capped)."""
        delay = min(crawl_delay, self._settings.crawl_delay_max)
        engine = self._crawler.engine
        assert engine is not None
        downloader = engine.downloader
        key = downloader.get_slot_key(request)
        if self._crawl_delays.get(key, 0.0) < delay:
            self._crawl_delays[key] = delay
            slot_settings = downloader.per_slot_settings.get(key, {})
            if slot_settings.get("delay", downloader.settings.getfloat("DOWNLOAD_DELAY")) < delay:
                # "jitter" is Scrapy >= 2.19's name for what older versions call "randomize_delay"
                downloader.per_slot_settings[key] = {
                    **slot_settings,
                    "delay": delay,
                    "jitter": 0.0,
                    "randomize_delay": False,
                }
        slot = downloader.slots.get(key)
        if slot is not None and slot.delay < self._crawl_delays[key]:
            slot.delay = self._crawl_delays[key]
            if hasattr(slot, "jitter"):
                slot.jitter = 0.0
            else:
                slot.randomize_delay = False

    # -- parking ----------------------------------------------------------

    def _on_request_scheduled(self, request: Request, spider: Spider | None = None) -> None:
        origin = self._checked_origin(request)
        if origin is None:
            return
        self._scheduled.add(request)
        if self._released and request in self._released:
            return
        if route(self._states.get(origin), self.cache.get(origin), time.time()) is Route.PARK:
            self._defer(request, origin)
            self._state(origin).parked.append(request)
            self._ensure_fetch(origin, request)
            raise IgnoreRequest(f"Deferred until robots.txt of {origin} is obtained")

    def _defer(self, request: Request, origin: str) -> None:
        counts = self.accounting.of(origin)
        counts.seen += 1
        counts.parked += 1
        counts.deferred += 1
        self._stats.inc_value("rep/requests/deferred")
        logger.debug(
            "Deferred %(url)s until robots.txt of %(origin)s is obtained",
            {"url": request.url, "origin": origin},
            extra={"spider": self._crawler.spider},
        )
        self._crawler.signals.send_catch_log(signals.request_deferred, request=request, origin=origin)

    def _undefer(self, origin: str, count: int) -> None:
        """Parked requests leave the parking: they are counted again where they are decided."""
        counts = self.accounting.of(origin)
        counts.seen -= count
        counts.parked -= count

    def _state(self, origin: str) -> OriginState[Request]:
        state = self._states.get(origin)
        if state is None:
            state = self._states[origin] = OriginState()
        return state

    def _on_spider_idle(self, spider: Spider | None = None) -> None:
        if self._ready:
            self._release(self._release_batch)
            raise DontCloseSpider
        if any(state.fetching or state.parked for state in self._states.values()):
            raise DontCloseSpider

    async def _on_spider_closed(self, spider: Spider | None = None, reason: str = "") -> None:
        for task in list(self._tasks.values()):
            task.cancel()
        abandoned = sum(len(state.parked) for state in self._states.values()) + sum(map(len, self._ready.values()))
        abandoned += sum(map(len, self._waiters.values()))
        if abandoned:
            self._stats.set_value("rep/requests/still_deferred", abandoned)
            logger.warning(
                "Spider closed (%(reason)s) with %(count)d requests still waiting for robots.txt",
                {"reason": reason, "count": abandoned},
                extra={"spider": spider},
            )
        for origin, counts in self.accounting.unbalanced().items():
            logger.error("Request accounting does not add up for %s: %r", origin, counts, extra={"spider": spider})
        if self._shared is not None:
            await self._shared_call("close", self._shared.close())
            for key, count in self._shared.counters.items():
                self._stats.set_value(key, count)

    # -- obtaining rules --------------------------------------------------

    def _ensure_fetch(self, origin: str, trigger: Request) -> None:
        state = self._state(origin)
        if state.fetching:
            return
        state.fetching = True
        state.drop_until = None
        if state.cycle_started is None:
            state.cycle_started = time.time()
        self._triggers[origin] = trigger
        self._stats.inc_value("rep/cache/misses")
        task = deferred_from_coro(self._obtain(origin, state))
        self._tasks[origin] = task
        task.addErrback(lambda failure: failure.trap(CancelledError))
        task.addBoth(lambda _: self._forget_task(origin))

    def _forget_task(self, origin: str) -> None:
        self._tasks.pop(origin, None)

    async def _obtain(self, origin: str, state: OriginState[Request]) -> None:
        """The one task per origin: get rules (shared store, fetch, retries), then release."""
        try:
            while True:
                assert state.cycle_started is not None
                deadline = state.cycle_started + self._settings.defer_max_time
                shared, locked = await self._consult_shared_store(origin, deadline)
                if shared is not None:
                    self._stats.inc_value("rep/cache/shared_hits")
                    self._resolve(origin, state, shared)
                    return
                try:
                    fetched = await self._fetcher.fetch(origin)
                    record, plan = self._record_for(state, fetched)
                    if self._shared is not None:
                        await self._shared_call("store", self._shared.store(origin, record))
                finally:
                    if locked and self._shared is not None:
                        await self._shared_call("release_fetch", self._shared.release_fetch(origin))
                if plan is None or plan.plan in (Plan.USE_COPY, Plan.ALLOW_ALL):
                    self._resolve(origin, state, record)
                    return
                if plan.plan is Plan.DROP:
                    state.drop_until = time.time() + plan.delay
                    self._resolve(origin, state, record)
                    return
                self._remember(origin, record)
                await self._sleep(plan.delay)
        except CancelledError:
            raise
        except Exception as error:  # a bug must not strand the parked requests
            logger.exception("Error while obtaining robots.txt of %s", origin, extra={"spider": self._crawler.spider})
            now = time.time()
            state.drop_until = now + self._settings.defer_max_time
            reason = f"error while obtaining robots.txt: {error!r}"
            outcome = judge_failure(reason, policy=self._settings.status_policy).outcome
            assert outcome is not None
            record = CacheRecord(AgentRules.disallow_all(reason), outcome, None, now, now, now, None)
            self._resolve(origin, state, record)
        finally:
            state.fetching = False

    def _record_for(self, state: OriginState[Request], fetched: Fetched) -> tuple[CacheRecord, FailurePlan | None]:
        """The record a fetch yields, and for a failed fetch the plan that follows it."""
        now = time.time()
        outcome = fetched.verdict.outcome
        assert outcome is not None
        self._stats.inc_value(f"rep/robots/outcome/{outcome}")
        logger.log(
            logging.INFO if outcome in FAILED_OUTCOMES else logging.DEBUG,
            "robots.txt of %(origin)s: %(outcome)s (%(reason)s)",
            {"origin": fetched.origin, "outcome": outcome, "reason": fetched.verdict.reason},
            extra={"spider": self._crawler.spider},
        )
        settings = self._settings
        if outcome not in FAILED_OUTCOMES:
            state.failures = 0
            rules = self._rules_from(fetched)
            lifetime = record_lifetime(
                fetched.cache_control,
                ttl=settings.cache_ttl,
                honor_headers=settings.cache_honor_headers,
                ttl_min=settings.cache_ttl_min,
                ttl_max=settings.cache_ttl_max,
            )
            return CacheRecord(rules, outcome, fetched.status, now, now + lifetime, None, rules), None
        state.failures += 1
        previous = self.cache.get(fetched.origin)
        unreachable_since = previous.unreachable_since if previous and previous.unreachable_since else now
        last_good = previous.last_good if previous else None
        assert state.cycle_started is not None
        plan = plan_after_failure(
            now=now,
            cycle_started=state.cycle_started,
            failures=state.failures,
            unreachable_since=unreachable_since,
            has_copy=last_good is not None,
            thirty_day_rule=settings.status_policy == "rfc9309",
            unreachable_max_age=settings.unreachable_max_age,
            defer_max_time=settings.defer_max_time,
        )
        reason = fetched.verdict.reason
        if plan.plan is Plan.USE_COPY:
            assert last_good is not None
            rules = last_good
            expires_at = now + plan.delay
        elif plan.plan is Plan.ALLOW_ALL:
            rules = AgentRules.allow_all(
                f"{reason}; unreachable for more than {settings.unreachable_max_age:g}s: allow all"
            )
            expires_at = now + plan.delay
        else:
            rules = AgentRules.disallow_all(reason)
            expires_at = now
        record = CacheRecord(rules, outcome, fetched.status, now, expires_at, unreachable_since, last_good)
        return record, plan

    def _rules_from(self, fetched: Fetched) -> AgentRules:
        outcome = fetched.verdict.outcome
        if outcome == RULES:
            robots = RobotsTxt.parse(fetched.body, self._settings.matching, max_size=self._settings.max_size)
            if ROBOTS_PARSED is not None:
                self._crawler.signals.send_catch_log(
                    ROBOTS_PARSED, robotparser=RepRobotParser(robots), request=self._triggers.get(fetched.origin)
                )
            return robots.for_agent(self._settings.user_agent)
        if outcome == DISALLOW_ALL:
            return AgentRules.disallow_all(fetched.verdict.reason)
        assert outcome == ALLOW_ALL
        return AgentRules.allow_all(fetched.verdict.reason)

    def _resolve(self, origin: str, state: OriginState[Request], record: CacheRecord) -> None:
        """Store the record, then release everything that waited for this origin."""
        self._remember(origin, record)
        state.cycle_started = None
        self._triggers.pop(origin, None)
        parked, state.parked = state.parked, []
        if record.outcome not in FAILED_OUTCOMES:
            self._states.pop(origin, None)
        self._crawler.signals.send_catch_log(signals.robots_obtained, origin=origin, record=record)
        if parked:
            for request in parked:
                self._released[request] = record
            self._ready.setdefault(origin, deque()).extend(parked)
            self._release(1)
        for waiter in self._waiters.pop(origin, []):
            waiter.callback(record)

    def _remember(self, origin: str, record: CacheRecord) -> None:
        evictions = self.cache.evictions
        self.cache.put(origin, record)
        if self.cache.evictions != evictions:
            self._stats.set_value("rep/cache/evictions", self.cache.evictions)

    def _release(self, budget: int) -> None:
        """Give up to ``budget`` released requests back to the engine, one origin after another.

        Released requests are fed in round-robin batches, not all at once: a
        block of one origin's requests in the scheduler would fill the
        downloader with a single slot's queue. Batches go out whenever the
        scheduler runs dry, and a few more each time a download ends, so that a
        busy scheduler cannot starve them.
        """
        engine = self._crawler.engine
        if engine is None or engine.spider is None:
            return
        ready = self._ready
        while ready and budget > 0:
            origin, queue = next(iter(ready.items()))
            request = queue.popleft()
            if queue:
                ready.move_to_end(origin)
            else:
                del ready[origin]
            self._undefer(origin, 1)
            engine.crawl(request)
            budget -= 1
        self._pace_releases(bool(ready))

    def _pace_releases(self, on: bool) -> None:
        """Release with every finished download only while requests are ready (the hot path stays cheap)."""
        if on == self._pacing:
            return
        self._pacing = on
        if on:
            self._crawler.signals.connect(self._on_download_left, scrapy_signals.request_left_downloader)
        else:
            self._crawler.signals.disconnect(self._on_download_left, scrapy_signals.request_left_downloader)

    def _on_download_left(self, **kwargs: Any) -> None:
        self._release(RELEASED_PER_DOWNLOAD)

    def _on_scheduler_empty(self) -> None:
        if self._ready:
            self._release(self._release_batch)

    async def _sleep(self, seconds: float) -> None:
        """Wait on whichever reactor Scrapy installed (imported late, so as not to install one)."""
        from twisted.internet import reactor
        from twisted.internet.task import deferLater

        await maybe_deferred_to_future(deferLater(reactor, seconds, lambda: None))

    # -- the optional shared store ----------------------------------------

    async def _consult_shared_store(self, origin: str, deadline: float) -> tuple[CacheRecord | None, bool]:
        """A fresh record from the fleet's store, or whether this process holds the fetch lock.

        While another process holds the lock, wait for the record it stores and
        try again; past ``deadline`` (the end of the deferral cycle) or when the
        store fails, fetch without the lock.
        """
        if self._shared is None:
            return None, False
        while True:
            record = await self._shared_call("load", self._shared.load(origin))
            if record is not None and record.is_fresh(time.time()):
                return record, False
            locked = await self._shared_call("acquire_fetch", self._shared.acquire_fetch(origin))
            remaining = deadline - time.time()
            if locked is not False or remaining <= 0:
                return None, bool(locked)
            timeout = min(self._settings.fetch_timeout * (self._settings.max_redirects + 1), remaining)
            record = await self._shared_call("wait_for_record", self._shared.wait_for_record(origin, timeout))
            if record is not None and record.is_fresh(time.time()):
                return record, False

    async def _shared_call(self, name: str, call: Any) -> Any:
        """Await a shared-store call; its errors are logged, never break the crawl."""
        try:
            return await call
        except CancelledError:
            raise
        except Exception:
            logger.warning("Shared robots.txt store failed in %s()", name, exc_info=True)
            return None
