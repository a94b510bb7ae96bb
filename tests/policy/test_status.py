"""The status table of docs/behaviour.md §5, both policies, one hop at a time."""

from __future__ import annotations

import pytest

from scrapy_robots_rep.policy.addresses import internal_block
from scrapy_robots_rep.policy.status import (
    NOT_MODIFIED,
    STATUS_POLICIES,
    Hop,
    Outcome,
    StatusPolicy,
    status_policy,
)

URL = "http://a.example/robots.txt"
RFC9309, LEGACY = status_policy("rfc9309"), status_policy("legacy")


def judge(status: int, policy: StatusPolicy, location: str | None = None, hops: int = 0) -> Hop:
    return policy.judge_response(status, URL, location, hops, max_redirects=5)


@pytest.mark.parametrize(
    ("status", "rfc9309", "legacy"),
    [
        (200, Outcome.RULES, Outcome.RULES),
        (204, Outcome.RULES, Outcome.RULES),
        (401, Outcome.ALLOW_ALL, Outcome.DISALLOW_ALL),
        (403, Outcome.ALLOW_ALL, Outcome.DISALLOW_ALL),
        (404, Outcome.ALLOW_ALL, Outcome.ALLOW_ALL),
        (410, Outcome.ALLOW_ALL, Outcome.ALLOW_ALL),
        (418, Outcome.ALLOW_ALL, Outcome.ALLOW_ALL),
        (429, Outcome.UNREACHABLE, Outcome.DEFERRED),
        (500, Outcome.UNREACHABLE, Outcome.DEFERRED),
        (503, Outcome.UNREACHABLE, Outcome.DEFERRED),
        (599, Outcome.UNREACHABLE, Outcome.DEFERRED),
        (600, Outcome.UNREACHABLE, Outcome.DEFERRED),
        (102, Outcome.UNREACHABLE, Outcome.DEFERRED),
    ],
)
def test_final_statuses(status: int, rfc9309: Outcome, legacy: Outcome) -> None:
    assert judge(status, RFC9309).outcome is rfc9309
    assert judge(status, LEGACY).outcome is legacy
    assert str(status) in judge(status, RFC9309).reason


def test_legacy_says_why_401_and_403_disallow() -> None:
    assert judge(403, LEGACY).reason == "robots.txt returned 403: site closed to robots"
    assert judge(403, RFC9309).reason == "robots.txt returned 403"


@pytest.mark.parametrize("policy", [RFC9309, LEGACY])
def test_redirects_are_followed_also_to_other_origins(policy: StatusPolicy) -> None:
    same = judge(301, policy, "/elsewhere.txt")
    assert (same.outcome, same.follow) == (None, "http://a.example/elsewhere.txt")
    other = judge(302, policy, "https://b.example:8443/robots.txt", hops=4)
    assert (other.outcome, other.follow) == (None, "https://b.example:8443/robots.txt")
    assert not other.not_modified


@pytest.mark.parametrize("policy", [RFC9309, LEGACY])
@pytest.mark.parametrize(
    ("location", "hops"),
    [
        ("/loop", 5),
        ("ftp://a.example/robots.txt", 0),
        ("javascript:alert(1)", 0),
        ("http://user:secret@b.example/robots.txt", 0),
        ("http://user@b.example/robots.txt", 0),
        (None, 0),
    ],
)
def test_bad_redirects_count_as_404(policy: StatusPolicy, location: str | None, hops: int) -> None:
    hop = judge(301, policy, location, hops)
    assert hop.outcome is Outcome.ALLOW_ALL
    assert hop.follow is None
    assert "as 404" in hop.reason


def test_redirect_limit_is_configurable() -> None:
    assert RFC9309.judge_response(301, URL, "/x", 0, max_redirects=0).outcome is Outcome.ALLOW_ALL
    assert RFC9309.judge_response(301, URL, "/x", 1, max_redirects=2).follow is not None


@pytest.mark.parametrize("policy", [RFC9309, LEGACY])
def test_304_to_a_conditional_request_keeps_the_rules(policy: StatusPolicy) -> None:
    hop = policy.judge_response(304, URL, None, 0, max_redirects=5, conditional=True)
    assert hop is NOT_MODIFIED
    assert hop.not_modified and hop.outcome is None and hop.follow is None
    assert "304" in hop.reason


@pytest.mark.parametrize(("policy", "outcome"), [(RFC9309, Outcome.UNREACHABLE), (LEGACY, Outcome.DEFERRED)])
def test_304_to_an_unconditional_request_is_a_failure(policy: StatusPolicy, outcome: Outcome) -> None:
    hop = policy.judge_response(304, URL, "/elsewhere", 0, max_redirects=5)
    assert hop.outcome is outcome
    assert not hop.not_modified and hop.follow is None
    assert "not conditional" in hop.reason


@pytest.mark.parametrize("status", [200, 301, 404, 503])
def test_conditional_changes_nothing_but_304(status: int) -> None:
    for policy in (RFC9309, LEGACY):
        plain = policy.judge_response(status, URL, "/x", 0, max_redirects=5)
        assert policy.judge_response(status, URL, "/x", 0, max_redirects=5, conditional=True) == plain


def test_network_failures() -> None:
    assert RFC9309.judge_failure("timeout").outcome is Outcome.UNREACHABLE
    assert LEGACY.judge_failure("connection refused") == Hop(Outcome.DEFERRED, "connection refused")


def test_only_unreachable_and_deferred_are_failures() -> None:
    assert {outcome for outcome in Outcome if outcome.failed} == {Outcome.UNREACHABLE, Outcome.DEFERRED}
    assert [outcome.value for outcome in Outcome] == ["rules", "allow_all", "disallow_all", "unreachable", "deferred"]


def test_policies_are_looked_up_by_name() -> None:
    assert list(STATUS_POLICIES) == ["rfc9309", "legacy"]
    assert all(status_policy(name).name == name for name in STATUS_POLICIES)
    assert (RFC9309.thirty_day_rule, LEGACY.thirty_day_rule) == (True, False)
    with pytest.raises(ValueError, match="status policy must be one of 'rfc9309', 'legacy', got 'strict'"):
        status_policy("strict")


def test_a_new_policy_is_one_object() -> None:
    lenient = StatusPolicy("lenient", closed=Outcome.ALLOW_ALL, failure=Outcome.DEFERRED, thirty_day_rule=False)
    assert judge(403, lenient).outcome is Outcome.ALLOW_ALL
    assert judge(503, lenient).outcome is Outcome.DEFERRED
    assert judge(200, lenient).outcome is Outcome.RULES


@pytest.mark.parametrize(("policy", "outcome"), [(RFC9309, Outcome.UNREACHABLE), (LEGACY, Outcome.DEFERRED)])
@pytest.mark.parametrize("sent", [False, True])
def test_a_refused_redirect_ends_as_the_policys_unreachable_naming_the_rule_and_both_addresses(
    policy: StatusPolicy, outcome: Outcome, sent: bool
) -> None:
    block = internal_block("169.254.169.254")
    assert block is not None
    hop = policy.judge_internal("93.184.216.34", "metadata.example", "169.254.169.254", block, sent=sent)
    assert hop.outcome is outcome and hop.follow is None
    assert hop.reason.startswith("address rule: ")
    assert "93.184.216.34" in hop.reason and "metadata.example (169.254.169.254)" in hop.reason
    assert "169.254.0.0/16 link-local" in hop.reason
    assert ("answer discarded" in hop.reason) is sent and ("no request sent" in hop.reason) is not sent
