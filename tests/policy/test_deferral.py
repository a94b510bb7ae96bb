"""Routing requests by origin state, backoff, and what follows a failed fetch."""

from __future__ import annotations

import pytest

from scrapy_robots_rep.core import AgentRules
from scrapy_robots_rep.policy.accounting import Accounting
from scrapy_robots_rep.policy.deferral import (
    BACKOFF_MAX,
    OriginState,
    Recovery,
    Route,
    backoff_delay,
    refresh_due,
    route,
)
from scrapy_robots_rep.policy.failure_plan import plan_after_failure
from scrapy_robots_rep.policy.record_cache import CacheRecord
from scrapy_robots_rep.policy.status import Outcome

RULES = AgentRules.allow_all("test")


def record(outcome: Outcome, *, expires_at: float = 150.0, copy: bool = False) -> CacheRecord:
    rules = RULES if not outcome.failed else AgentRules.disallow_all("unreachable")
    return CacheRecord(
        rules=RULES if copy else rules,
        outcome=outcome,
        status=200,
        fetched_at=100.0,
        expires_at=expires_at,
        last_good=RULES if copy or not outcome.failed else None,
    )


def test_backoff_doubles_up_to_the_cap() -> None:
    assert [backoff_delay(n) for n in range(1, 6)] == [1, 2, 4, 8, 16]
    assert backoff_delay(30) == BACKOFF_MAX


def test_route_without_anything_known_parks() -> None:
    assert route(None, None, now=100.0) is Route.PARK
    assert route(OriginState(), None, now=100.0) is Route.PARK


def test_route_in_drop_window_drops_until_it_ends() -> None:
    state = OriginState(drop_until=200.0)
    assert route(state, None, now=199.9) is Route.DROP
    assert route(state, None, now=200.0) is Route.PARK


def test_rules_decide_also_once_expired_and_a_failure_without_copy_parks() -> None:
    assert route(None, record(Outcome.RULES), now=120.0) is Route.DECIDE
    assert route(None, record(Outcome.RULES), now=500.0) is Route.DECIDE
    assert route(None, record(Outcome.UNREACHABLE, copy=True), now=500.0) is Route.DECIDE
    assert route(None, record(Outcome.UNREACHABLE), now=120.0) is Route.PARK


def test_a_refresh_is_due_once_expired_unless_running_or_backing_off() -> None:
    expired = record(Outcome.RULES, expires_at=110.0)
    assert not refresh_due(None, record(Outcome.RULES), now=120.0)
    assert refresh_due(None, expired, now=120.0)
    assert not refresh_due(OriginState(fetching=True), expired, now=120.0)
    assert not refresh_due(OriginState(next_fetch_at=130.0), expired, now=120.0)
    assert refresh_due(OriginState(next_fetch_at=130.0), expired, now=130.0)


PLAN = dict(thirty_day_rule=True, unreachable_max_age=1000.0, defer_max_time=600.0)


def test_failure_retries_with_backoff_within_the_cycle() -> None:
    result = plan_after_failure(
        now=110.0, cycle_started=100.0, failures=3, unreachable_since=100.0, has_copy=False, **PLAN
    )
    assert (result.recovery, result.delay) == (Recovery.RETRY, 4.0)


def test_last_retry_is_at_the_end_of_the_cycle() -> None:
    result = plan_after_failure(
        now=698.0, cycle_started=100.0, failures=8, unreachable_since=100.0, has_copy=False, **PLAN
    )
    assert (result.recovery, result.delay) == (Recovery.RETRY, pytest.approx(2.0))


def test_cycle_over_drops_for_another_cycle() -> None:
    result = plan_after_failure(
        now=700.0, cycle_started=100.0, failures=9, unreachable_since=100.0, has_copy=False, **PLAN
    )
    assert (result.recovery, result.delay) == (Recovery.DROP, 600.0)


@pytest.mark.parametrize(("failures", "recovery"), [(1, Recovery.RETRY), (2, Recovery.RETRY), (3, Recovery.DROP)])
def test_a_host_no_server_answers_for_is_dropped_after_three_attempts(failures, recovery) -> None:
    result = plan_after_failure(
        now=103.0,
        cycle_started=100.0,
        failures=failures,
        unreachable_since=100.0,
        has_copy=False,
        no_server=True,
        **PLAN,
    )
    assert result.recovery is recovery
    assert result.delay == (600.0 if recovery is Recovery.DROP else failures)


def test_a_copy_is_used_when_unreachable() -> None:
    result = plan_after_failure(
        now=110.0, cycle_started=100.0, failures=2, unreachable_since=100.0, has_copy=True, **PLAN
    )
    assert (result.recovery, result.delay) == (Recovery.USE_COPY, 2.0)


def test_thirty_day_rule_allows_all_without_a_copy_in_rfc9309_only() -> None:
    args = dict(now=2000.0, cycle_started=1990.0, failures=1, unreachable_since=500.0, has_copy=False)
    assert plan_after_failure(**args, **PLAN).recovery is Recovery.ALLOW_ALL
    legacy = dict(PLAN, thirty_day_rule=False)
    assert plan_after_failure(**args, **legacy).recovery is Recovery.RETRY


def test_retry_after_is_honoured_and_capped_by_the_cycle() -> None:
    args = dict(now=110.0, cycle_started=100.0, failures=1, unreachable_since=100.0, has_copy=False, **PLAN)
    result = plan_after_failure(**args, retry_after=30.0)
    assert (result.recovery, result.delay) == (Recovery.RETRY, 30.0)
    late = plan_after_failure(**dict(args, now=690.0), retry_after=30.0)
    assert (late.recovery, late.delay) == (Recovery.DROP, 600.0)  # never sooner than the server asked
    copy = plan_after_failure(**dict(args, has_copy=True), retry_after=5000.0)
    assert (copy.recovery, copy.delay) == (Recovery.USE_COPY, 600.0)  # capped at REP_DEFER_MAX_TIME


def test_accounting_names_origins_with_requests_lost_from_parking() -> None:
    accounting = Accounting()
    counts = accounting.of("http://a")
    counts.allowed, counts.disallowed, counts.dropped_unreachable = 2, 1, 1
    assert counts.seen == 4
    assert accounting.unbalanced() == {}
    counts.parked = 1
    assert accounting.unbalanced() == {"http://a": counts}
