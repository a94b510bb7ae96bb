"""A fetch result becomes a cache record: outcome, rules, lifetime, validators, and what follows a failure."""

from __future__ import annotations

import pytest

from scrapy_robots_rep.policy.deferral import OriginState, Recovery
from scrapy_robots_rep.policy.freshness import LifetimeSource, Validators
from scrapy_robots_rep.policy.records import FetchResult, RecordMaker
from scrapy_robots_rep.policy.settings import RepSettings
from scrapy_robots_rep.policy.status import NOT_MODIFIED, Outcome, status_policy

ORIGIN = "https://a.example"
BODY = b"User-agent: mybot\nDisallow: /private\nSitemap: https://a.example/s.xml\n"
NOW = 1_000_000.0


def maker(**settings: object) -> RecordMaker:
    return RecordMaker(RepSettings.from_mapping({"REP_USER_AGENT": "mybot/1.0 (+https://x)", **settings}))


def fetched(status: int, body: bytes = BODY, policy: str = "rfc9309", **headers: str) -> FetchResult:
    hop = status_policy(policy).judge_response(status, ORIGIN + "/robots.txt", None, 0, max_redirects=5)
    return FetchResult(ORIGIN, hop, status, body, headers)


def test_a_200_keeps_the_agents_rules_lifetime_and_validators() -> None:
    state = OriginState(cycle_started=NOW, failures=2)
    conclusion = maker().conclude(
        fetched(200, **{"cache-control": "max-age=3600", "age": "600", "etag": '"v1"'}), None, state, NOW
    )
    record = conclusion.record
    assert conclusion.plan is None and conclusion.robots is not None
    assert record.outcome is Outcome.RULES and record.holds_rules
    assert not record.rules.allowed(ORIGIN + "/private/x") and record.rules.allowed(ORIGIN + "/public")
    assert record.rules.sitemaps == ("https://a.example/s.xml",)
    assert record.expires_at == NOW + 3000 and record.lifetime_source is LifetimeSource.MAX_AGE
    assert record.validators == Validators(etag='"v1"')
    assert (state.failures, state.cycle_started) == (0, None)


def test_a_304_keeps_the_rules_without_a_parse_and_starts_a_new_lifetime() -> None:
    first = maker().conclude(fetched(200, etag='"v1"'), None, OriginState(), NOW).record
    result = FetchResult(ORIGIN, NOT_MODIFIED, 304, b"", {"cache-control": "max-age=120"})
    conclusion = maker().conclude(result, first, OriginState(), NOW + 90_000)
    assert conclusion.robots is None
    assert conclusion.record.rules is first.rules
    assert conclusion.record.expires_at == NOW + 90_000 + 120
    assert conclusion.record.validators == Validators(etag='"v1"')


def test_a_304_without_rules_held_is_a_failure() -> None:
    result = FetchResult(ORIGIN, NOT_MODIFIED, 304, b"", {})
    conclusion = maker().conclude(result, None, OriginState(), NOW)
    assert conclusion.record.outcome is Outcome.UNREACHABLE and not conclusion.record.holds_rules
    assert conclusion.plan is not None and conclusion.plan.recovery is Recovery.RETRY


@pytest.mark.parametrize(
    ("status", "outcome", "allowed"), [(404, Outcome.ALLOW_ALL, True), (403, Outcome.ALLOW_ALL, True)]
)
def test_unavailable_allows_all(status: int, outcome: Outcome, allowed: bool) -> None:
    record = maker().conclude(fetched(status), None, OriginState(), NOW).record
    assert record.outcome is outcome and record.rules.allowed(ORIGIN + "/private") is allowed
    assert record.validators is None


def test_legacy_policy_reads_403_as_closed_to_robots() -> None:
    record = maker(REP_STATUS_POLICY="legacy").conclude(fetched(403, policy="legacy"), None, OriginState(), NOW).record
    assert record.outcome is Outcome.DISALLOW_ALL and not record.rules.allowed(ORIGIN + "/")


def test_a_failure_with_a_copy_keeps_deciding_by_it_and_honours_retry_after() -> None:
    good = maker().conclude(fetched(200), None, OriginState(), NOW).record
    state = OriginState()
    conclusion = maker().conclude(fetched(503, **{"retry-after": "30"}), good, state, NOW + 10)
    record = conclusion.record
    assert conclusion.plan is not None and conclusion.plan.recovery is Recovery.USE_COPY
    assert record.outcome is Outcome.UNREACHABLE and record.holds_rules and record.rules is good.rules
    assert state.next_fetch_at == NOW + 10 + 30 == record.expires_at
    assert record.unreachable_since == NOW + 10


def test_a_failure_without_a_copy_retries_then_drops_at_the_end_of_the_cycle() -> None:
    state = OriginState()
    make = maker(REP_DEFER_MAX_TIME=5)
    first = make.conclude(fetched(503), None, state, NOW)
    assert first.plan is not None and first.plan.recovery is Recovery.RETRY and not first.record.holds_rules
    last = make.conclude(fetched(503), first.record, state, NOW + 6)
    assert last.plan is not None and last.plan.recovery is Recovery.DROP
    assert state.drop_until == NOW + 6 + 5
    assert last.record.unreachable_since == NOW  # remembered across attempts


def test_defer_max_time_zero_drops_at_the_first_failure() -> None:
    state = OriginState()
    conclusion = maker(REP_DEFER_MAX_TIME=0).conclude(fetched(500), None, state, NOW)
    assert conclusion.plan is not None and conclusion.plan.recovery is Recovery.DROP


def test_unreachable_past_the_max_age_allows_all_without_a_copy_in_rfc9309_only() -> None:
    failing = maker(REP_UNREACHABLE_MAX_AGE=100).conclude(fetched(503), None, OriginState(), NOW).record
    conclusion = maker(REP_UNREACHABLE_MAX_AGE=100).conclude(fetched(503), failing, OriginState(), NOW + 200)
    assert conclusion.plan is not None and conclusion.plan.recovery is Recovery.ALLOW_ALL
    assert conclusion.record.holds_rules and conclusion.record.rules.allowed(ORIGIN + "/private")
    legacy = maker(REP_UNREACHABLE_MAX_AGE=100, REP_STATUS_POLICY="legacy")
    failing = legacy.conclude(fetched(503, policy="legacy"), None, OriginState(), NOW).record
    later = legacy.conclude(fetched(503, policy="legacy"), failing, OriginState(), NOW + 200)
    assert later.record.outcome is Outcome.DEFERRED and not later.record.holds_rules


def test_the_extension_fields_of_the_settings_are_kept_with_the_rules() -> None:
    body = b"User-agent: mybot\nLLM-Policy: https://a.example/llm.txt\nDisallow: /private\n"
    record = maker(REP_EXTENSION_FIELDS="llm-policy").conclude(fetched(200, body), None, OriginState(), NOW).record
    assert record.rules.extension("llm-policy") == ("https://a.example/llm.txt",)
    assert maker().conclude(fetched(200, body), None, OriginState(), NOW).record.rules.extension("llm-policy") == ()
