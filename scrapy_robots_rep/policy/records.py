"""Turn one robots.txt fetch into the cache record it yields (``docs/behaviour.md`` §5 and §6).

Shared by the middleware and the command line, so both read a fetch the same way: the
status policy's outcome, the rules kept for the agent, the freshness lifetime, the
validators for the next conditional refresh, and, after a failure, what follows it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple

from scrapy_robots_rep.core import AgentRules, RobotsTxt
from scrapy_robots_rep.policy.deferral import OriginState, Recovery
from scrapy_robots_rep.policy.freshness import Freshness, freshness, retry_after, validators_from
from scrapy_robots_rep.policy.record_cache import CacheRecord
from scrapy_robots_rep.policy.settings import RepSettings
from scrapy_robots_rep.policy.status import Hop, Outcome, status_policy

if TYPE_CHECKING:
    from scrapy_robots_rep.policy.failure_plan import FailurePlan


class Exchange(NamedTuple):
    """One HTTP request of a robots.txt fetch and what came back, as sent and received (for the audit trail)."""

    url: str
    time: float
    request_headers: tuple[tuple[str, str], ...] = ()
    status: int | None = None
    """None when no answer came (``error`` says why)."""
    response_headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""
    address: str | None = None
    """The server's IP address, when Scrapy exposes it."""
    error: str | None = None


class FetchResult(NamedTuple):
    """One robots.txt fetch, redirects followed, as plain data."""

    origin: str
    hop: Hop
    """How the last response, or the failure, was judged."""
    status: int | None = None
    body: bytes = b""
    headers: Mapping[str, str] = MappingProxyType({})
    """The last response's headers, lower-case names."""
    exchanges: tuple[Exchange, ...] = ()
    """Every request made, redirects included, in order."""
    no_server: bool = False
    """No server answered: the host name did not resolve, or the connection was refused."""


class Conclusion(NamedTuple):
    """What a fetch yields: the record to keep, what follows a failure, and the parsed file."""

    record: CacheRecord
    reason: str
    """What the fetch met, for logs (e.g. ``robots.txt returned 503``)."""
    plan: FailurePlan | None = None
    """``None`` after a success."""
    robots: RobotsTxt | None = None
    """The parsed robots.txt, when a body was parsed."""


class RecordMaker:
    """Builds cache records from fetch results for one crawl's settings."""

    def __init__(self, settings: RepSettings) -> None:
        self._settings = settings
        self._policy = status_policy(settings.status_policy)

    def conclude(self, result: FetchResult, previous: CacheRecord | None, state: OriginState, now: float) -> Conclusion:
        """The record ``result`` yields; updates ``state`` (failures, next fetch, drop window)."""
        hop = result.hop
        if hop.not_modified and previous is not None and previous.holds_rules:
            return Conclusion(self._revalidated(result, previous, state, now), hop.reason)
        outcome = hop.outcome
        if outcome is not None and not outcome.failed:
            return self._obtained(result, outcome, state, now)
        reason = hop.reason if not hop.not_modified else f"{hop.reason}, and no rules are held to keep"
        return self.failed(reason, result.status, previous, state, now, result.headers, result.no_server)

    def failed(
        self,
        reason: str,
        status: int | None,
        previous: CacheRecord | None,
        state: OriginState,
        now: float,
        headers: Mapping[str, str] | None = None,
        no_server: bool = False,
    ) -> Conclusion:
        """The record after a fetch that got no usable answer (``no_server``: no server answered at
        all), and what follows it."""
        settings = self._settings
        outcome = self._policy.judge_failure(reason).outcome
        assert outcome is not None
        state.failures += 1
        if state.cycle_started is None:
            state.cycle_started = now
        unreachable_since = previous.unreachable_since if previous and previous.unreachable_since else now
        copy = previous.last_good if previous is not None else None
        from scrapy_robots_rep.policy.failure_plan import plan_after_failure

        plan = plan_after_failure(
            now=now,
            cycle_started=state.cycle_started,
            failures=state.failures,
            unreachable_since=unreachable_since,
            has_copy=copy is not None,
            thirty_day_rule=self._policy.thirty_day_rule,
            unreachable_max_age=settings.unreachable_max_age,
            defer_max_time=settings.defer_max_time,
            retry_after=retry_after(headers, now) if headers else None,
            no_server=no_server,
        )
        state.next_fetch_at = now + plan.delay
        rules = AgentRules.disallow_all(reason, matching=settings.matching)
        expires_at = now
        sha256 = None
        if plan.recovery is Recovery.USE_COPY:
            assert copy is not None
            rules = copy
            expires_at = now + plan.delay
            sha256 = previous.sha256 if previous is not None else None
        elif plan.recovery is Recovery.ALLOW_ALL:
            age = settings.unreachable_max_age
            copy = rules = AgentRules.allow_all(
                f"{reason}; unreachable for more than {age:g}s: allow all", matching=settings.matching
            )
            expires_at = now + plan.delay
        elif plan.recovery is Recovery.DROP:
            state.drop_until = now + plan.delay
            state.cycle_started = None
        record = CacheRecord(
            rules=rules,
            outcome=outcome,
            status=status,
            fetched_at=now,
            expires_at=expires_at,
            unreachable_since=unreachable_since,
            last_good=copy,
            validators=previous.validators if previous is not None else None,
            sha256=sha256,
        )
        return Conclusion(record, reason, plan)

    def _obtained(self, result: FetchResult, outcome: Outcome, state: OriginState, now: float) -> Conclusion:
        settings = self._settings
        robots = None
        sha256 = None
        if outcome is Outcome.RULES:
            robots = RobotsTxt.parse(
                result.body, settings.matching, max_size=settings.max_size, extensions=settings.extension_fields
            )
            rules = robots.for_agent(settings.user_agent)
            sha256 = hashlib.sha256(result.body).hexdigest()
        elif outcome is Outcome.DISALLOW_ALL:
            rules = AgentRules.disallow_all(result.hop.reason, matching=settings.matching)
        else:
            rules = AgentRules.allow_all(result.hop.reason, matching=settings.matching)
        lifetime = self._freshness(result.headers, now)
        _succeeded(state)
        record = CacheRecord(
            rules=rules,
            outcome=outcome,
            status=result.status,
            fetched_at=now,
            expires_at=now + lifetime.lifetime,
            unreachable_since=None,
            last_good=rules,
            validators=validators_from(result.headers) if outcome is Outcome.RULES else None,
            lifetime_source=lifetime.source,
            sha256=sha256,
        )
        return Conclusion(record, result.hop.reason, robots=robots)

    def _revalidated(self, result: FetchResult, previous: CacheRecord, state: OriginState, now: float) -> CacheRecord:
        """A 304: the held rules stay, with a new lifetime from the 304's headers."""
        lifetime = self._freshness(result.headers, now)
        _succeeded(state)
        rules = previous.last_good if previous.last_good is not None else previous.rules
        return previous._replace(
            rules=rules,
            outcome=Outcome.RULES,
            status=result.status,
            fetched_at=now,
            expires_at=now + lifetime.lifetime,
            unreachable_since=None,
            last_good=rules,
            validators=validators_from(result.headers) or previous.validators,
            lifetime_source=lifetime.source,
        )

    def _freshness(self, headers: Mapping[str, str], now: float) -> Freshness:
        settings = self._settings
        return freshness(
            headers,
            now,
            ttl=settings.cache_ttl,
            honor_headers=settings.cache_honor_headers,
            ttl_min=settings.cache_ttl_min,
            ttl_max=settings.cache_ttl_max,
        )


def _succeeded(state: OriginState) -> None:
    state.failures = 0
    state.next_fetch_at = 0.0
    state.cycle_started = None
    state.drop_until = None
