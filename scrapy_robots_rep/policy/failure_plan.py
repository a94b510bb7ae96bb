"""What follows a failed robots.txt fetch (``docs/behaviour.md`` §6): a :class:`FailurePlan`.

Apart from ``policy/deferral.py`` (the routing every request takes) because only a failed fetch
needs it: ``policy/records.py`` imports it at the first failure.
"""

from __future__ import annotations

from dataclasses import dataclass

from scrapy_robots_rep.policy.deferral import NO_SERVER_ATTEMPTS, Recovery, backoff_delay


@dataclass(frozen=True, slots=True)
class FailurePlan:
    """A :class:`Recovery` and its delay: until the next fetch, or the length of the drop window."""

    recovery: Recovery
    delay: float


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
    retry_after: float | None = None,
    no_server: bool = False,
) -> FailurePlan:
    """What follows a failed fetch (status 429/5xx, timeout, network error).

    The next fetch waits for the backoff, and never less than the server's
    ``Retry-After`` (itself capped at ``defer_max_time``). When no server answered at all
    (``no_server``), the cycle ends after :data:`NO_SERVER_ATTEMPTS` failures in a row: a host
    that is not there cannot serve its pages either.
    """
    wait = backoff_delay(failures)
    if retry_after is not None:
        wait = max(wait, min(retry_after, defer_max_time))
    if has_copy:
        return FailurePlan(Recovery.USE_COPY, wait)
    if thirty_day_rule and now - unreachable_since >= unreachable_max_age:
        return FailurePlan(Recovery.ALLOW_ALL, wait)
    remaining = cycle_started + defer_max_time - now
    if (
        remaining <= 0
        or (retry_after is not None and wait > remaining)
        or (no_server and failures >= NO_SERVER_ATTEMPTS)
    ):
        return FailurePlan(Recovery.DROP, defer_max_time)
    return FailurePlan(Recovery.RETRY, min(wait, remaining))
