"""``Outcomes``: the one owner of how requests and robots.txt fetches ended, told to every sink.

Every checked request ends in exactly one :class:`RequestOutcome` (after being deferred, maybe);
every robots.txt fetch attempt ends in a conclusion. ``Outcomes`` is told each of them once and
tells its sinks: the crawl stats, the log, the signals (``scrapy_robots_rep.signals``) and the
per-origin counts the end-of-crawl report reads. Other counters (cache, Crawl-delay, page-level
directives) are counted through it too. One more sink is one more :class:`OutcomeSink`: the
audit trail (``crawl/evidence.py``) is one, and ``REP_OUTCOME_SINKS`` names a project's own
(each built with Scrapy's ``build_from_crawler``, so it may take the crawler in ``from_crawler``).

One ``Outcomes`` per crawler, made with the crawler's other shared parts (``crawl/parts.py``) and
handed to every component that tells it something.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from enum import Enum
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn

from pydispatch import dispatcher
from scrapy import signals as scrapy_signals
from scrapy.utils.misc import build_from_crawler, load_object

from scrapy_robots_rep import signals
from scrapy_robots_rep.core.file_shape import plainly_robots_txt
from scrapy_robots_rep.core.lines import decode
from scrapy_robots_rep.crawl.settings import rep_settings
from scrapy_robots_rep.exceptions import RobotsDisallowed, RobotsUnreachable
from scrapy_robots_rep.policy.accounting import Accounting
from scrapy_robots_rep.policy.deferral import Recovery
from scrapy_robots_rep.policy.origin import origin_of
from scrapy_robots_rep.policy.settings import SettingsError
from scrapy_robots_rep.policy.stat_names import Stat

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from scrapy.signalmanager import SignalManager
    from scrapy.statscollectors import StatsCollector

    from scrapy_robots_rep.core import Decision
    from scrapy_robots_rep.core.changes import RulesChange
    from scrapy_robots_rep.crawl.page_dropped import PageDropped
    from scrapy_robots_rep.policy.record_cache import CacheRecord
    from scrapy_robots_rep.policy.records import Conclusion, FetchResult

logger = logging.getLogger("scrapy_robots_rep.downloader.middleware")
fetch_logger = logging.getLogger("scrapy_robots_rep.downloader.fetch_tasks")
page_logger = logging.getLogger("scrapy_robots_rep.page.middleware")

ROBOTS_PARSED = getattr(scrapy_signals, "robots_parsed", None)
"""Scrapy's own signal for a parsed robots.txt (Scrapy 2.18 and later)."""


def __getattr__(name: str) -> Any:
    """``PageDropped``, a sink's argument, is named here too: its module is imported at the first page drop."""
    if name == "PageDropped":
        from scrapy_robots_rep.crawl.page_dropped import PageDropped

        return PageDropped
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class RequestOutcome(Enum):
    """How a checked request ended (``deferred`` is a step before one of the others)."""

    ALLOWED = "allowed"
    DISALLOWED = "disallowed"
    REFUSED_PURPOSES = "refused_purposes"
    DROPPED_UNREACHABLE = "dropped_unreachable"
    DEFERRED = "deferred"


class RequestEnded(NamedTuple):
    """One request's outcome: the record and decision behind it, where there was one."""

    outcome: RequestOutcome
    request: Request
    origin: str
    decision: Decision | None = None
    record: CacheRecord | None = None
    reason: str = ""


class FetchEnded(NamedTuple):
    """One attempt to obtain an origin's robots.txt: what it came to, and the request that needed it."""

    origin: str
    conclusion: Conclusion
    trigger: Request | None
    revalidated: bool | None
    """True for a 304 to a conditional refresh, False for a new body, None when nothing was revalidated."""
    result: FetchResult | None = None
    """The fetch itself (its requests and answers); None when no fetch was made."""
    previous: CacheRecord | None = None
    change: RulesChange | None = None
    """How the agent's rules differ from those of ``previous``, the record replaced; None when they do not."""


class OutcomeSink:
    """Where outcomes are told. Each method does nothing unless a sink overrides it."""

    def request_ended(self, ended: RequestEnded) -> None:
        """A request was decided, dropped or deferred."""

    def request_unchecked(self, request: Request, exempt: bool) -> None:
        """A request went through unchecked (``exempt``: ``REP_EXEMPT_DOMAINS``; else ``dont_obey_robotstxt``
        or a URL without an origin)."""

    def fetch_ended(self, ended: FetchEnded) -> None:
        """An attempt to obtain an origin's robots.txt ended."""

    def page_dropped(self, dropped: PageDropped) -> None:
        """A request or item a page yielded was dropped."""


_STATS_OF = {
    RequestOutcome.ALLOWED: (Stat.REQUESTS_ALLOWED,),
    RequestOutcome.DISALLOWED: (Stat.REQUESTS_DISALLOWED, Stat.SCRAPY_FORBIDDEN),
    RequestOutcome.REFUSED_PURPOSES: (
        Stat.REQUESTS_REFUSED_PURPOSES,
        Stat.REQUESTS_DISALLOWED,
        Stat.SCRAPY_FORBIDDEN,
    ),
    RequestOutcome.DROPPED_UNREACHABLE: (Stat.REQUESTS_DROPPED_UNREACHABLE,),
    RequestOutcome.DEFERRED: (Stat.REQUESTS_DEFERRED,),
}
_STAT_KEYS = {outcome: tuple(stat.key() for stat in stats) for outcome, stats in _STATS_OF.items()}
"""The stats each request outcome adds to, by name (worked out once: this runs for every request)."""


class _Stats(OutcomeSink):
    """The crawl stats under ``rep/`` (and Scrapy's ``robotstxt/forbidden``)."""

    def __init__(self, stats: StatsCollector) -> None:
        self._inc_value = stats.inc_value  # looked up once: Scrapy's stats wrap every attribute access

    def request_ended(self, ended: RequestEnded) -> None:
        for key in _STAT_KEYS[ended.outcome]:
            self._inc_value(key)

    def fetch_ended(self, ended: FetchEnded) -> None:
        record = ended.conclusion.record
        self._inc_value(Stat.ROBOTS_OUTCOME.key(record.outcome.value))
        if record.lifetime_source is not None:
            self._inc_value(Stat.ROBOTS_LIFETIME.key(record.lifetime_source.value))
        if ended.revalidated is not None:
            self._inc_value(Stat.ROBOTS_REVALIDATED.key("not_modified" if ended.revalidated else "modified"))
        if ended.change is not None:
            self._inc_value(Stat.ROBOTS_CHANGED.key())

    def page_dropped(self, dropped: PageDropped) -> None:
        stat = Stat.PAGE_REQUESTS_DROPPED if dropped.request is not None else Stat.PAGE_ITEMS_DROPPED
        self._inc_value(stat.key(dropped.kind))


class _Log(OutcomeSink):
    """The log lines: each refusal at DEBUG (drops of unreachable origins at INFO), each failed fetch
    and each change of an origin's rules at INFO, and once per origin a WARNING when what it serves
    as robots.txt is not one, or is larger than ``REP_MAX_SIZE`` (the lint's file-wide warnings)."""

    def __init__(self, crawler: Crawler) -> None:
        self._crawler = crawler
        settings = rep_settings(crawler.settings)
        self._agent = settings.user_agent
        self._matching = settings.matching
        self._max_size = settings.max_size
        self._warned: set[str] = set()

    def request_ended(self, ended: RequestEnded) -> None:
        outcome = ended.outcome
        if outcome is RequestOutcome.ALLOWED:
            return
        extra = {"spider": self._crawler.spider}
        url = ended.request.url
        if outcome is RequestOutcome.DROPPED_UNREACHABLE:
            logger.info(
                "Dropped %(url)s: robots.txt of %(origin)s is unreachable (%(reason)s)",
                {"url": url, "origin": ended.origin, "reason": ended.reason},
                extra=extra,
            )
        elif outcome is RequestOutcome.DEFERRED:
            if not _kept(logger, logging.DEBUG):
                return
            logger.debug(
                "Deferred %(url)s until robots.txt of %(origin)s is obtained",
                {"url": url, "origin": ended.origin},
                extra=extra,
            )
        elif _kept(logger, logging.DEBUG):
            decision = ended.decision
            assert decision is not None
            rule = decision.rule
            logger.debug(
                "Forbidden by robots.txt: %(url)s (group: %(group)s; rule: %(rule)s; %(reason)s)",
                {
                    "url": url,
                    "group": ", ".join(decision.group) or "none",
                    "rule": f"{rule.text!r} at line {rule.line}" if rule is not None else "none",
                    "reason": decision.reason,
                },
                extra=extra,
            )

    def fetch_ended(self, ended: FetchEnded) -> None:
        conclusion = ended.conclusion
        record = conclusion.record
        level = logging.INFO if record.outcome.failed else logging.DEBUG
        if _kept(fetch_logger, level):
            fetch_logger.log(
                level,
                "robots.txt of %(origin)s: %(outcome)s (%(reason)s)%(next)s",
                {
                    "origin": ended.origin,
                    "outcome": record.outcome.value,
                    "reason": conclusion.reason,
                    "next": _next_step(conclusion),
                },
                extra={"spider": self._crawler.spider},
            )
        if ended.change is not None:
            fetch_logger.info(
                "robots.txt of %(origin)s changed for %(agent)s: %(change)s",
                {"origin": ended.origin, "agent": self._agent, "change": ended.change.describe()},
                extra={"spider": self._crawler.spider},
            )
        if conclusion.robots is not None and ended.result is not None and ended.origin not in self._warned:
            self._warn_about_file(ended.origin, ended.result.body)

    def _warn_about_file(self, origin: str, body: bytes) -> None:
        """A body that is not a robots.txt, or too large, is read as RFC 9309 says, and said once per origin.
        The lint is imported only for a body that is not plainly a robots.txt."""
        if plainly_robots_txt(decode(body, self._max_size), len(body), self._max_size):
            return
        from scrapy_robots_rep.core.lint import LintKind, file_warnings

        for warning in file_warnings(body, self._matching, max_size=self._max_size):
            self._warned.add(origin)
            problem = (
                f"it is larger than REP_MAX_SIZE: only the first {self._max_size} bytes are read"
                if warning.kind is LintKind.TOO_LARGE
                else warning.message
            )
            fetch_logger.warning(
                "robots.txt of %(origin)s (%(kind)s): %(problem)s",
                {"origin": origin, "kind": warning.kind.value, "problem": problem},
                extra={"spider": self._crawler.spider},
            )

    def page_dropped(self, dropped: PageDropped) -> None:
        if not _kept(page_logger, logging.DEBUG):
            return
        if dropped.request is not None:
            page_logger.debug(
                "Dropped request %s yielded by %s: %s", dropped.request.url, dropped.response.url, dropped.why
            )
        else:
            page_logger.debug("Dropped an item from %s: %s", dropped.response.url, dropped.why)


class _Signals(OutcomeSink):
    """The signals of ``scrapy_robots_rep.signals``, and Scrapy's ``robots_parsed``."""

    def __init__(self, crawler: Crawler) -> None:
        self._signals = crawler.signals
        self._sender = crawler.signals.sender

    def request_ended(self, ended: RequestEnded) -> None:
        outcome = ended.outcome
        if outcome is RequestOutcome.ALLOWED:
            return
        if outcome is RequestOutcome.DEFERRED:
            if heard(self._sender, signals.request_deferred):
                self._signals.send_catch_log(signals.request_deferred, request=ended.request, origin=ended.origin)
        elif outcome is RequestOutcome.DROPPED_UNREACHABLE:
            if heard(self._sender, signals.request_dropped_unreachable):
                self._signals.send_catch_log(
                    signals.request_dropped_unreachable, request=ended.request, origin=ended.origin
                )
        elif heard(self._sender, signals.request_disallowed):
            self._signals.send_catch_log(signals.request_disallowed, request=ended.request, decision=ended.decision)

    def fetch_ended(self, ended: FetchEnded) -> None:
        robots = ended.conclusion.robots
        if robots is not None and ROBOTS_PARSED is not None and heard(self._sender, ROBOTS_PARSED):
            from scrapy_robots_rep.robotparser import RepRobotParser  # with Scrapy's robotstxt: only when heard

            self._signals.send_catch_log(ROBOTS_PARSED, robotparser=RepRobotParser(robots), request=ended.trigger)
        if ended.change is not None and heard(self._sender, signals.robots_changed):
            self._signals.send_catch_log(
                signals.robots_changed,
                origin=ended.origin,
                old=ended.previous,
                new=ended.conclusion.record,
                change=ended.change,
            )


class _Counts(OutcomeSink):
    """The per-origin counts of the end-of-crawl report."""

    def __init__(self, accounting: Accounting) -> None:
        self._accounting = accounting

    def request_ended(self, ended: RequestEnded) -> None:
        counts = self._accounting.of(ended.origin)
        outcome = ended.outcome
        if outcome is RequestOutcome.ALLOWED:
            counts.allowed += 1
        elif outcome is RequestOutcome.DROPPED_UNREACHABLE:
            counts.dropped_unreachable += 1
        elif outcome is RequestOutcome.DEFERRED:
            counts.deferred += 1
        else:
            decision = ended.decision
            assert decision is not None
            rule = decision.rule
            counts.refused((rule.line, rule.text) if rule is not None else (None, decision.reason))

    def fetch_ended(self, ended: FetchEnded) -> None:
        if ended.change is not None:
            self._accounting.of(ended.origin).robots_changed += 1

    def page_dropped(self, dropped: PageDropped) -> None:
        origin = origin_of(dropped.response.url)
        if origin is not None:
            self._accounting.of(origin).page_dropped(dropped.kind)


class Outcomes:
    """Told how each request and robots.txt fetch ended; tells the stats, log, signals and report."""

    def __init__(
        self, stats: StatsCollector, signals: SignalManager, accounting: Accounting, sinks: Iterable[OutcomeSink]
    ) -> None:
        self._stats = stats
        self._inc_value = stats.inc_value  # looked up once: Scrapy's stats wrap every attribute access
        self._signals = signals
        self._sender = signals.sender
        self.accounting = accounting
        self._sinks = list(sinks)
        self._record_watchers: list[Callable[[str, CacheRecord], None]] = []

    @classmethod
    def from_crawler(cls, crawler: Crawler, *more: OutcomeSink) -> Outcomes:
        """The crawler's outcome owner: its stats, log, signals and report counts, then ``more``
        (the audit trail), then the sinks ``REP_OUTCOME_SINKS`` names."""
        stats = crawler.stats
        assert stats is not None
        accounting = Accounting()
        own = (_Stats(stats), _Log(crawler), _Signals(crawler), _Counts(accounting))
        return cls(stats, crawler.signals, accounting, (*own, *more, *configured_sinks(crawler)))

    def allowed(self, request: Request, origin: str, record: CacheRecord) -> None:
        self._request_ended(RequestEnded(RequestOutcome.ALLOWED, request, origin, record=record))

    def deferred(self, request: Request, origin: str) -> None:
        """``request`` waits for its origin's robots.txt."""
        self._request_ended(RequestEnded(RequestOutcome.DEFERRED, request, origin))

    def held_here(self, origin: str) -> None:
        """A deferred request is parked in this process's memory, until :meth:`released`."""
        self.accounting.of(origin).parked += 1

    def released(self, origin: str) -> None:
        """A request parked in this process's memory went back to the engine (or was saved at close)."""
        self.accounting.of(origin).parked -= 1

    def raise_disallowed(self, request: Request, origin: str, decision: Decision, record: CacheRecord) -> NoReturn:
        """Tell that a rule disallows ``request``, then drop it with the exception its errback receives."""
        self._request_ended(RequestEnded(RequestOutcome.DISALLOWED, request, origin, decision, record))
        raise RobotsDisallowed(request.url, decision)

    def raise_refused(self, request: Request, origin: str, decision: Decision, record: CacheRecord) -> NoReturn:
        """Tell that robots.txt refuses every declared purpose for ``request``, then drop it."""
        self._request_ended(RequestEnded(RequestOutcome.REFUSED_PURPOSES, request, origin, decision, record))
        raise RobotsDisallowed(request.url, decision)

    def raise_dropped(self, request: Request, origin: str, reason: str) -> NoReturn:
        """Tell that ``request``'s origin stayed unreachable, then drop it."""
        self._request_ended(RequestEnded(RequestOutcome.DROPPED_UNREACHABLE, request, origin, reason=reason))
        raise RobotsUnreachable(request.url, origin, reason)

    def request_unchecked(self, request: Request, exempt: bool) -> None:
        """``request`` goes on unchecked: nothing is counted, only sinks that want it are told."""
        for sink in self._sinks:
            sink.request_unchecked(request, exempt)

    def fetch_ended(
        self,
        origin: str,
        conclusion: Conclusion,
        trigger: Request | None,
        revalidated: bool | None,
        result: FetchResult | None = None,
        previous: CacheRecord | None = None,
        change: RulesChange | None = None,
    ) -> None:
        ended = FetchEnded(origin, conclusion, trigger, revalidated, result, previous, change)
        for sink in self._sinks:
            sink.fetch_ended(ended)

    def watch_records(self, watcher: Callable[[str, CacheRecord], None]) -> None:
        """Have ``watcher`` called with each origin and the record it is given (the report's), as
        ``robots_obtained`` would, without the signal's dispatch."""
        self._record_watchers.append(watcher)

    def record_kept(self, origin: str, record: CacheRecord) -> None:
        """An attempt gave ``origin`` the record its requests are now decided by."""
        for watcher in self._record_watchers:
            watcher(origin, record)
        if heard(self._sender, signals.robots_obtained):
            self._signals.send_catch_log(signals.robots_obtained, origin=origin, record=record)

    def page_dropped(self, response: Response, kind: str, why: str | None, request: Request | None = None) -> None:
        from scrapy_robots_rep.crawl.page_dropped import PageDropped

        dropped = PageDropped(response, kind, why, request)
        for sink in self._sinks:
            sink.page_dropped(dropped)

    def count(self, stat: Stat, part: object = None, *, by: int = 1) -> None:
        """Add to a crawl stat that is not an outcome (cache hits, Crawl-delay applied, ...); ``part``
        names the member of a family (``Stat.ROBOTS_STATUS``: the status)."""
        self._inc_value(stat.key(part), by)

    def gauge(self, stat: Stat, value: int) -> None:
        """Set a crawl stat that is a level, not a count (cache evictions so far, requests still waiting)."""
        self._stats.set_value(stat.key(), value)

    def _request_ended(self, ended: RequestEnded) -> None:
        for sink in self._sinks:
            sink.request_ended(ended)


def configured_sinks(crawler: Crawler) -> list[OutcomeSink]:
    """The sinks ``REP_OUTCOME_SINKS`` names, each built with ``build_from_crawler``; a start-up error
    naming the setting for one that cannot be loaded or is not an :class:`OutcomeSink`."""
    sinks = []
    for path in rep_settings(crawler.settings).outcome_sinks:
        try:
            sink_class = load_object(path)
        except (ImportError, AttributeError, NameError, ValueError) as error:
            message = str(error).replace("\n", " ")
            raise SettingsError(f"REP_OUTCOME_SINKS entry {path!r} cannot be loaded: {message}") from error
        sink = build_from_crawler(sink_class, crawler)
        if not isinstance(sink, OutcomeSink):
            raise SettingsError(
                f"REP_OUTCOME_SINKS entry {path!r} is not an OutcomeSink "
                "(subclass scrapy_robots_rep.crawl.outcomes.OutcomeSink)"
            )
        sinks.append(sink)
    return sinks


def heard(sender: object, signal: object) -> bool:
    """Whether any receiver is connected to ``signal`` from ``sender`` (or from any sender, or to any
    signal), looked up in pydispatch's table of connections as ``getAllReceivers`` would.

    Sending a signal to none through ``send_catch_log`` still costs about 36,000 instructions (four
    look-ups, three of them failing with a ``KeyError``, and two generators); this costs a few dict
    look-ups. A receiver that died but is still listed makes it True: the signal is then sent,
    and reaches nobody, as before."""
    connections = dispatcher.connections
    for key in (id(sender), id(dispatcher.Any)):
        by_signal = connections.get(key)
        if by_signal and (by_signal.get(signal) or by_signal.get(dispatcher.Any)):
            return True
    return False


def _kept(logger: logging.Logger, level: int) -> bool:
    """Whether a record of ``level`` from ``logger`` would reach a handler that keeps it, as
    ``Logger.callHandlers`` would hand it on. Scrapy's own handler drops DEBUG records (unless
    ``LOG_LEVEL`` is DEBUG) while its loggers let them through, so a per-request or per-origin DEBUG
    line would be made, its caller looked up, and thrown away: asked first, it costs a few look-ups."""
    if not logger.isEnabledFor(level):
        return False
    found = False
    current: logging.Logger | None = logger
    while current is not None:
        for handler in current.handlers:
            found = True
            if level >= handler.level:
                return True
        current = current.parent if current.propagate else None
    return not found and logging.lastResort is not None and level >= logging.lastResort.level


def _next_step(conclusion: Conclusion) -> str:
    plan = conclusion.plan
    if plan is None:
        return ""
    if plan.recovery is Recovery.RETRY:
        return f"; next attempt in {plan.delay:.1f}s"
    if plan.recovery is Recovery.USE_COPY:
        return f"; using the rules obtained earlier, next attempt in {plan.delay:.1f}s"
    if plan.recovery is Recovery.DROP:
        later = f", and new ones for {plan.delay:.0f}s" if plan.delay > 0 else ""
        return f"; its requests are dropped{later}"
    return "; unreachable too long: allow all"
