"""The status table of SPEC.md section 5, both policies, one hop at a time."""

from __future__ import annotations

import pytest

from scrapy_robots_rep.policy.status import (
    ALLOW_ALL,
    DEFERRED,
    DISALLOW_ALL,
    RULES,
    UNREACHABLE,
    judge_failure,
    judge_response,
)

URL = "http://a.example/robots.txt"


def judge(status: int, policy: str, location: str | None = None, hops: int = 0):
    return judge_response(status, URL, location, hops, policy=policy, max_redirects=5)


@pytest.mark.parametrize(
    ("status", "rfc9309", "legacy"),
    [
        (200, RULES, RULES),
        (204, RULES, RULES),
        (401, ALLOW_ALL, DISALLOW_ALL),
        (403, ALLOW_ALL, DISALLOW_ALL),
        (404, ALLOW_ALL, ALLOW_ALL),
        (410, ALLOW_ALL, ALLOW_ALL),
        (418, ALLOW_ALL, ALLOW_ALL),
        (429, UNREACHABLE, DEFERRED),
        (500, UNREACHABLE, DEFERRED),
        (503, UNREACHABLE, DEFERRED),
        (599, UNREACHABLE, DEFERRED),
        (600, UNREACHABLE, DEFERRED),
    ],
)
def test_final_statuses(status: int, rfc9309: str, legacy: str) -> None:
    assert judge(status, "rfc9309").outcome == rfc9309
    assert judge(status, "legacy").outcome == legacy
    assert str(status) in judge(status, "rfc9309").reason


@pytest.mark.parametrize("policy", ["rfc9309", "legacy"])
def test_redirects_are_followed_also_to_other_origins(policy: str) -> None:
    same = judge(301, policy, "/elsewhere.txt")
    assert (same.outcome, same.follow) == (None, "http://a.example/elsewhere.txt")
    other = judge(302, policy, "https://b.example:8443/robots.txt", hops=4)
    assert (other.outcome, other.follow) == (None, "https://b.example:8443/robots.txt")


@pytest.mark.parametrize("policy", ["rfc9309", "legacy"])
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
def test_bad_redirects_count_as_404(policy: str, location: str | None, hops: int) -> None:
    verdict = judge(301, policy, location, hops)
    assert verdict.outcome == ALLOW_ALL
    assert verdict.follow is None
    assert "as 404" in verdict.reason


def test_redirect_limit_is_configurable() -> None:
    assert judge_response(301, URL, "/x", 0, policy="rfc9309", max_redirects=0).outcome == ALLOW_ALL
    assert judge_response(301, URL, "/x", 1, policy="rfc9309", max_redirects=2).follow is not None


def test_network_failures() -> None:
    assert judge_failure("timeout", policy="rfc9309").outcome == UNREACHABLE
    assert judge_failure("connection refused", policy="legacy").outcome == DEFERRED
    assert judge_failure("connection refused", policy="legacy").reason == "connection refused"
