"""Per-origin deferral state and the decisions around it (SPEC.md section 5).

An origin whose rules are not fresh has its requests *parked* while one
fetch runs; failed fetches are retried with exponential backoff within a
deferral cycle of ``REP_DEFER_MAX_TIME`` seconds, after which the origin's
requests are dropped for another ``REP_DEFER_MAX_TIME`` seconds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Generic, TypeVar

from scrapy_robots_rep.policy.cache import CacheRecord

BACKOFF_BASE = 1.0
BACKOFF_MAX = 300.0

T = TypeVar("T")


class Route(Enum):
    """What to do with a request of an origin right now."""

    DECIDE = "decide"  # fresh rules: allowed or disallowed by them
    PARK = "park"  # hold it until the origin's fetch resolves
    DROP = "drop"  # the origin is in its drop window after a failed deferral cycle


class Plan(Enum):
    """What to do after a fetch that left the origin unreachable."""

    USE_COPY = "use_copy"  # stale-on-error: apply the last rules obtained
    ALLOW_ALL = "allow_all"  # unreachable longer than REP_UNREACHABLE_MAX_AGE, no copy
    RETRY = "retry"  # wait, then fetch again
    DROP = "drop"  # the deferral cycle is over: drop the origin's requests


@dataclass(slots=True)
class OriginState(Generic[T]):
    """What the middleware tracks about an origin besides its cache record."""

    parked: list[T] = field(default_factory=list)
    fetching: bool = False
    cycle_started: float | None = None
    failures: int = 0
    drop_until: float | None = None


def route(state: OriginState[T] | None, record: CacheRecord | None, now: float) -> Route:
    """Where a request of this origin goes."""
    if state is not None and state.drop_until is not None and now < state.drop_until:
        return Route.DROP
    if record is not None and record.is_fresh(now):
        return Route.DECIDE
    return Route.PARK


def backoff_delay(failures: int) -> float:
    """Seconds to wait after the ``failures``-th failed fetch in a row (1, 2, 4, … capped)."""
    return min(BACKOFF_BASE * 2 ** max(failures - 1, 0), BACKOFF_MAX)


@dataclass(frozen=True, slots=True)
class FailurePlan:
    """A :class:`Plan` and its delay: until the retry, until the copy's refresh, or the drop window."""

    plan: Plan
    delay: float = 0.0


def plan_after_failure(
    *,
    now: float,
    cycle_started: float,
    failures: int,
    unreachable_since: float,
    has_copy: bool,
    thirty_day_rule: bool,
    unreachable_max_age: float,
    defer_max_time: float,
) -> FailurePlan:
    """Decide what follows a failed fetch (status 429/5xx, timeout, network error).

    ``thirty_day_rule`` is True for the ``rfc9309`` status policy only.
    """
    if has_copy:
        return FailurePlan(Plan.USE_COPY, backoff_delay(failures))
    if thirty_day_rule and now - unreachable_since >= unreachable_max_age:
        return FailurePlan(Plan.ALLOW_ALL, backoff_delay(failures))
    remaining = cycle_started + defer_max_time - now
    if remaining <= 0:
        return FailurePlan(Plan.DROP, defer_max_time)
    return FailurePlan(Plan.RETRY, min(backoff_delay(failures), remaining))
