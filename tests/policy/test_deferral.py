"""Routing requests by origin state, backoff, and what follows a failed fetch."""

from __future__ import annotations

import pytest

from scrapy_robots_rep.policy.accounting import Accounting
from scrapy_robots_rep.policy.deferral import (
    BACKOFF_MAX,
    OriginState,
    Plan,
    Route,
    backoff_delay,
    plan_after_failure,
    route,
)


def test_backoff_doubles_up_to_the_cap() -> None:
    assert [backoff_delay(n) for n in range(1, 6)] == [1, 2, 4, 8, 16]
    assert backoff_delay(30) == BACKOFF_MAX


def test_route_without_anything_known_parks() -> None:
    assert route(None, None, now=100.0) is Route.PARK
    assert route(OriginState(), None, now=100.0) is Route.PARK


def test_route_in_drop_window_drops_until_it_ends() -> None:
    state: OriginState[str] = OriginState(drop_until=200.0)
    assert route(state, None, now=199.9) is Route.DROP
    assert route(state, None, now=200.0) is Route.PARK


PLAN = dict(thirty_day_rule=True, unreachable_max_age=1000.0, defer_max_time=600.0)


def test_failure_retries_with_backoff_within_the_cycle() -> None:
    result = plan_after_failure(
        now=110.0, cycle_started=100.0, failures=3, unreachable_since=100.0, has_copy=False, **PLAN
    )
    assert (result.plan, result.delay) == (Plan.RETRY, 4.0)


def test_last_retry_is_at_the_end_of_the_cycle() -> None:
    result = plan_after_failure(
        now=698.0, cycle_started=100.0, failures=8, unreachable_since=100.0, has_copy=False, **PLAN
    )
    assert (result.plan, result.delay) == (Plan.RETRY, pytest.approx(2.0))


def test_cycle_over_drops_for_another_cycle() -> None:
    result = plan_after_failure(
        now=700.0, cycle_started=100.0, failures=9, unreachable_since=100.0, has_copy=False, **PLAN
    )
    assert (result.plan, result.delay) == (Plan.DROP, 600.0)


def test_a_copy_is_used_when_unreachable() -> None:
    result = plan_after_failure(
        now=110.0, cycle_started=100.0, failures=2, unreachable_since=100.0, has_copy=True, **PLAN
    )
    assert (result.plan, result.delay) == (Plan.USE_COPY, 2.0)


def test_thirty_day_rule_allows_all_without_a_copy_in_rfc9309_only() -> None:
    args = dict(now=2000.0, cycle_started=1990.0, failures=1, unreachable_since=500.0, has_copy=False)
    assert plan_after_failure(**args, **PLAN).plan is Plan.ALLOW_ALL
    legacy = dict(PLAN, thirty_day_rule=False)
    assert plan_after_failure(**args, **legacy).plan is Plan.RETRY


def test_accounting_balances_only_when_every_request_is_accounted() -> None:
    accounting = Accounting()
    counts = accounting.of("http://a")
    counts.seen, counts.allowed, counts.disallowed, counts.dropped_unreachable, counts.parked = 5, 2, 1, 1, 1
    assert accounting.unbalanced() == {}
    counts.parked = 0
    assert accounting.unbalanced() == {"http://a": counts}
