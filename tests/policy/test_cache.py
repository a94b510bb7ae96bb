"""CacheRecord: plain-data form (version 2), usable rules; the bounded LRU."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from scrapy_robots_rep.core import AgentRules, RobotsTxt
from scrapy_robots_rep.policy.freshness import LifetimeSource, Validators
from scrapy_robots_rep.policy.record_cache import RECORD_VERSION, CacheRecord, MemoryCache
from scrapy_robots_rep.policy.status import Outcome

RULES = RobotsTxt.parse("User-agent: *\nDisallow: /private\nCrawl-delay: 2\n").for_agent("testbot")


def record(outcome: Outcome = Outcome.ALLOW_ALL, expires_at: float = 200.0) -> CacheRecord:
    rules = AgentRules.allow_all("robots.txt returned 404")
    return CacheRecord(
        rules=rules, outcome=outcome, status=404, fetched_at=100.0, expires_at=expires_at, last_good=rules
    )


def round_trip(original: CacheRecord) -> CacheRecord:
    return CacheRecord.from_dict(json.loads(json.dumps(original.to_dict())))


def test_a_success_round_trips_with_its_validators_and_lifetime_source() -> None:
    original = CacheRecord(
        rules=RULES,
        outcome=Outcome.RULES,
        status=200,
        fetched_at=1.5,
        expires_at=3601.5,
        last_good=RULES,
        validators=Validators(etag='W/"v1"', last_modified="Sun, 06 Nov 1994 08:49:37 GMT"),
        lifetime_source=LifetimeSource.MAX_AGE,
    )
    restored = round_trip(original)
    assert restored.to_dict() == original.to_dict()
    assert restored.outcome is Outcome.RULES
    assert restored.validators == original.validators
    assert restored.lifetime_source is LifetimeSource.MAX_AGE
    assert restored.last_good is restored.rules, "the copy is stored once and shared again"
    assert not restored.rules.allowed("http://a.example/private/x")
    assert restored.rules.crawl_delay == 2
    assert original.to_dict()["v"] == RECORD_VERSION == 2


def test_a_failure_round_trips_with_its_own_copy() -> None:
    original = CacheRecord(
        rules=RULES,
        outcome=Outcome.UNREACHABLE,
        status=503,
        fetched_at=10.0,
        expires_at=12.0,
        unreachable_since=5.0,
        last_good=RobotsTxt.parse("User-agent: *\nDisallow: /old\n").for_agent("testbot"),
        validators=Validators(etag='"v0"'),
    )
    restored = round_trip(original)
    assert restored.to_dict() == original.to_dict()
    assert (restored.outcome, restored.status, restored.unreachable_since) == (Outcome.UNREACHABLE, 503, 5.0)
    assert restored.last_good is not None and restored.last_good is not restored.rules
    assert not restored.last_good.allowed("http://a.example/old")
    assert (restored.validators, restored.lifetime_source) == (Validators(etag='"v0"'), None)


def test_a_failure_without_anything_round_trips() -> None:
    original = CacheRecord(
        rules=AgentRules.disallow_all("robots.txt unreachable"),
        outcome=Outcome.DEFERRED,
        status=None,
        fetched_at=1.5,
        expires_at=2.5,
        unreachable_since=1.0,
    )
    restored = round_trip(original)
    assert restored.to_dict() == original.to_dict()
    assert (restored.status, restored.last_good, restored.validators) == (None, None, None)


@pytest.mark.parametrize(
    ("outcome", "last_good", "holds"),
    [
        (Outcome.RULES, RULES, True),
        (Outcome.ALLOW_ALL, RULES, True),
        (Outcome.DISALLOW_ALL, None, True),
        (Outcome.UNREACHABLE, RULES, True),
        (Outcome.DEFERRED, RULES, True),
        (Outcome.UNREACHABLE, None, False),
        (Outcome.DEFERRED, None, False),
    ],
)
def test_which_records_hold_rules(outcome: Outcome, last_good: AgentRules | None, holds: bool) -> None:
    held = CacheRecord(rules=RULES, outcome=outcome, status=None, fetched_at=0, expires_at=0, last_good=last_good)
    assert held.holds_rules is holds


MANGLES: list[Callable[[dict[str, Any]], object]] = [
    lambda d: d.update(v=1),
    lambda d: d.update(v=3),
    lambda d: d.pop("v"),
    lambda d: d.pop("outcome"),
    lambda d: d.pop("validators"),
    lambda d: d.pop("lifetime_source"),
    lambda d: d.update(outcome="maybe"),
    lambda d: d.update(expires_at="soon"),
    lambda d: d.update(status="two hundred"),
    lambda d: d.update(rules={"v": 99}),
    lambda d: d.update(last_good=[1]),
    lambda d: d.update(validators="etag"),
    lambda d: d.update(validators={"etag": 5, "last_modified": None}),
    lambda d: d.update(lifetime_source="forever"),
]


@pytest.mark.parametrize("mangle", MANGLES)
def test_malformed_and_other_version_records_are_refused_with_value_error(
    mangle: Callable[[dict[str, Any]], object],
) -> None:
    data = record().to_dict()
    mangle(data)
    with pytest.raises(ValueError):
        CacheRecord.from_dict(data)


@pytest.mark.parametrize("data", [None, [], "record", 3])
def test_non_mappings_are_refused_with_value_error(data: Any) -> None:
    with pytest.raises(ValueError):
        CacheRecord.from_dict(data)


def test_a_version_1_record_is_refused_by_name() -> None:
    version_1 = {
        key: value for key, value in record().to_dict().items() if key not in ("validators", "lifetime_source")
    }
    version_1["v"] = 1
    with pytest.raises(ValueError, match="version 1, expected 2"):
        CacheRecord.from_dict(version_1)


def test_freshness() -> None:
    assert record(expires_at=200.0).is_fresh(199.0)
    assert not record(expires_at=200.0).is_fresh(200.0)


def test_a_record_shifted_onto_another_clock_moves_every_time_and_nothing_else() -> None:
    down = CacheRecord(
        rules=RULES, outcome=Outcome.UNREACHABLE, status=503, fetched_at=10.0, expires_at=12.0, unreachable_since=5.0
    )
    moved = down.shifted(-3.5)
    assert (moved.fetched_at, moved.expires_at, moved.unreachable_since) == (6.5, 8.5, 1.5)
    assert {**moved.to_dict(), "fetched_at": 10.0, "expires_at": 12.0, "unreachable_since": 5.0} == down.to_dict()
    answering = record(expires_at=1.0).shifted(7200.0)
    assert (answering.expires_at, answering.unreachable_since) == (7201.0, None)
    assert answering.last_good is answering.rules


def test_lru_evicts_least_recently_used_and_counts() -> None:
    cache = MemoryCache(max_origins=2)
    cache.put("http://a", record())
    cache.put("http://b", record())
    assert cache.get("http://a") is not None  # a is now the most recently used
    cache.put("http://c", record())
    assert cache.get("http://b") is None
    assert cache.get("http://a") is not None and cache.get("http://c") is not None
    assert (len(cache), cache.evictions) == (2, 1)
    cache.put("http://a", record(outcome=Outcome.RULES))
    assert (len(cache), cache.evictions) == (2, 1)
    refreshed = cache.get("http://a")
    assert refreshed is not None and refreshed.outcome is Outcome.RULES


def test_lru_bound_must_be_positive() -> None:
    with pytest.raises(ValueError, match="max_origins"):
        MemoryCache(0)


ORIGIN = "https://a.com"


def test_each_cache_keeps_its_own_active_rules() -> None:
    """Two caches (two crawlers of one process) never drop each other's tables; rules held
    by no cache keep theirs."""
    caches = [MemoryCache(10, active_origins=2), MemoryCache(10, active_origins=2)]
    kept = []
    for cache in caches:
        rules = RobotsTxt.parse("User-agent: *\nDisallow: /x\n").for_agent("mybot")
        cache.put("https://kept.example", _record(rules))
        rules.allowed(f"{ORIGIN}/y")
        kept.append(rules)
    loose = RobotsTxt.parse("User-agent: *\nDisallow: /x\n").for_agent("mybot")
    loose.allowed(f"{ORIGIN}/y")
    # The second cache reads many origins: only its own kept rules are dropped.
    for index in range(5):
        rules = RobotsTxt.parse(f"User-agent: *\nDisallow: /{index}\n").for_agent("mybot")
        caches[1].put(f"https://{index}.example", _record(rules))
        rules.allowed(f"{ORIGIN}/")
    assert kept[0]._table is not None
    assert kept[1]._table is None
    assert loose._table is not None
    assert not kept[1].allowed(f"{ORIGIN}/x") and kept[1].allowed(f"{ORIGIN}/y")


def _record(rules: AgentRules) -> CacheRecord:
    return CacheRecord(rules=rules, outcome=Outcome.RULES, status=200, fetched_at=0.0, expires_at=1.0)
