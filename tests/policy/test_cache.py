"""CacheRecord serialisation, lifetimes from Cache-Control, and the bounded LRU."""

from __future__ import annotations

import json

import pytest

from scrapy_robots_rep.core import AgentRules
from scrapy_robots_rep.policy.cache import CacheRecord, MemoryCache, record_lifetime


def record(outcome: str = "allow_all", expires_at: float = 200.0) -> CacheRecord:
    rules = AgentRules.allow_all("robots.txt returned 404")
    return CacheRecord(
        rules=rules,
        outcome=outcome,
        status=404,
        fetched_at=100.0,
        expires_at=expires_at,
        unreachable_since=None,
        last_good=rules,
    )


def test_record_round_trips_through_json() -> None:
    original = CacheRecord(
        rules=AgentRules.disallow_all("robots.txt unreachable"),
        outcome="unreachable",
        status=None,
        fetched_at=1.5,
        expires_at=2.5,
        unreachable_since=1.0,
        last_good=None,
    )
    data = json.loads(json.dumps(original.to_dict()))
    restored = CacheRecord.from_dict(data)
    assert restored.outcome == "unreachable"
    assert restored.status is None
    assert (restored.fetched_at, restored.expires_at, restored.unreachable_since) == (1.5, 2.5, 1.0)
    assert restored.last_good is None
    assert restored.rules.to_dict() == original.rules.to_dict()


@pytest.mark.parametrize(
    "mangle",
    [
        lambda d: d.update(v=2),
        lambda d: d.pop("outcome"),
        lambda d: d.update(outcome="maybe"),
        lambda d: d.update(expires_at="soon"),
        lambda d: d.update(rules={"v": 99}),
    ],
)
def test_malformed_records_are_rejected(mangle) -> None:
    data = record().to_dict()
    mangle(data)
    with pytest.raises(ValueError):
        CacheRecord.from_dict(data)


def test_freshness() -> None:
    assert record(expires_at=200.0).is_fresh(199.0)
    assert not record(expires_at=200.0).is_fresh(200.0)


LIFETIME = dict(ttl=86400.0, ttl_min=60.0, ttl_max=604800.0)


@pytest.mark.parametrize(
    ("cache_control", "lifetime"),
    [
        (None, 86400.0),
        ("no-store", 86400.0),
        ("max-age=3600", 3600.0),
        ("public, max-age=120, must-revalidate", 120.0),
        ('MAX-AGE="300"', 300.0),
        ("max-age=5", 60.0),
        ("max-age=99999999", 604800.0),
        ("s-maxage=10", 86400.0),
    ],
)
def test_max_age_is_honoured_within_the_clamps(cache_control: str | None, lifetime: float) -> None:
    assert record_lifetime(cache_control, honor_headers=True, **LIFETIME) == lifetime


def test_headers_ignored_when_not_honoured() -> None:
    assert record_lifetime("max-age=3600", honor_headers=False, **LIFETIME) == 86400.0


def test_lru_evicts_least_recently_used_and_counts() -> None:
    cache = MemoryCache(max_origins=2)
    cache.put("http://a", record())
    cache.put("http://b", record())
    assert cache.get("http://a") is not None  # a is now the most recently used
    cache.put("http://c", record())
    assert cache.get("http://b") is None
    assert cache.get("http://a") is not None and cache.get("http://c") is not None
    assert (len(cache), cache.evictions) == (2, 1)
    cache.put("http://a", record(outcome="rules"))
    assert (len(cache), cache.evictions) == (2, 1)
    assert cache.get("http://a").outcome == "rules"


def test_lru_bound_must_be_positive() -> None:
    with pytest.raises(ValueError, match="max_origins"):
        MemoryCache(0)
