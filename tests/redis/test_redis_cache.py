"""RedisCache against a real redis-server: records, the fetch lock, waiting, and outages."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator

import pytest

from scrapy_robots_rep import redis_cache
from scrapy_robots_rep.core import RobotsTxt
from scrapy_robots_rep.policy.cache import CacheRecord
from scrapy_robots_rep.policy.settings import SettingsError
from scrapy_robots_rep.redis_cache import RedisCache
from tests.redis.on_asyncio import on_asyncio, run
from tests.redis.server import RedisServer

ROBOTS = "User-agent: *\nDisallow: /private\nCrawl-delay: 2\n"


def record(*, fetched_at: float | None = None, lifetime: float = 60.0) -> CacheRecord:
    fetched_at = time.time() if fetched_at is None else fetched_at
    rules = RobotsTxt.parse(ROBOTS).for_agent("testbot")
    return CacheRecord(
        rules=rules,
        outcome="rules",
        status=200,
        fetched_at=fetched_at,
        expires_at=fetched_at + lifetime,
        unreachable_since=None,
        last_good=rules,
    )


@pytest.fixture
def open_cache(redis_server: RedisServer) -> Iterator[Callable[..., RedisCache]]:
    """Opens RedisCache instances ("processes") on the test server; closes them afterwards."""
    opened: list[RedisCache] = []

    def open_one(**settings: object) -> RedisCache:
        cache = RedisCache.from_settings({"REP_REDIS_URL": redis_server.url, **settings})
        opened.append(cache)
        return cache

    yield open_one
    for cache in opened:
        run(cache.close())


@on_asyncio
async def test_record_round_trips_as_json_with_a_key_lifetime(open_cache, redis_server) -> None:
    writer, reader = open_cache(REP_UNREACHABLE_MAX_AGE=1000), open_cache()
    stored = record(lifetime=60)
    await writer.store("http://a.test", stored)

    loaded = await reader.load("http://a.test")
    assert loaded is not None and loaded.to_dict() == stored.to_dict()
    assert not loaded.rules.allowed("http://a.test/private/x")
    assert loaded.rules.crawl_delay == 2
    assert await reader.load("http://b.test") is None
    with redis_server.client() as client:
        raw = client.hget("rep:origin:http://a.test", "record")
        assert json.loads(raw)["v"] == 1
        assert 1055 <= client.ttl("rep:origin:http://a.test") <= 1060
    assert (reader.counters["rep/redis/hits"], reader.counters["rep/redis/misses"]) == (1, 1)


@on_asyncio
async def test_unreachable_bookkeeping_is_shared(open_cache) -> None:
    writer, reader = open_cache(), open_cache()
    good = record(fetched_at=time.time() - 100)
    now = time.time()
    down = CacheRecord(
        rules=good.rules,
        outcome="unreachable",
        status=503,
        fetched_at=now,
        expires_at=now + 30,
        unreachable_since=now - 50,
        last_good=good.rules,
    )
    await writer.store("http://a.test", down)
    loaded = await reader.load("http://a.test")
    assert (loaded.outcome, loaded.status, loaded.unreachable_since) == ("unreachable", 503, now - 50)
    assert loaded.last_good is not None and not loaded.last_good.allowed("http://a.test/private/x")


@on_asyncio
async def test_key_outlives_freshness_by_the_unreachable_max_age_then_expires(open_cache) -> None:
    cache = open_cache(REP_UNREACHABLE_MAX_AGE=0.5)
    await cache.store("http://a.test", record(lifetime=0.2))
    await asyncio.sleep(0.4)
    kept = await cache.load("http://a.test")
    assert kept is not None and not kept.is_fresh(time.time())
    await asyncio.sleep(0.5)
    assert await cache.load("http://a.test") is None


@on_asyncio
async def test_an_older_record_never_replaces_a_newer_one(open_cache) -> None:
    late, early = open_cache(), open_cache()
    now = time.time()
    await late.store("http://a.test", record(fetched_at=now))
    await early.store("http://a.test", record(fetched_at=now - 5))
    assert (await early.load("http://a.test")).fetched_at == now


@on_asyncio
async def test_prefix_separates_fleets(open_cache) -> None:
    one, two = open_cache(REP_REDIS_PREFIX="one:"), open_cache(REP_REDIS_PREFIX="two:")
    await one.store("http://a.test", record())
    assert await two.load("http://a.test") is None
    assert await two.acquire_fetch("http://b.test")
    assert await one.acquire_fetch("http://b.test")


@on_asyncio
async def test_fetch_lock_is_exclusive_and_released_only_by_its_owner(open_cache) -> None:
    first, second = open_cache(), open_cache()
    assert await first.acquire_fetch("http://a.test")
    assert not await second.acquire_fetch("http://a.test")
    await second.release_fetch("http://a.test")
    assert not await second.acquire_fetch("http://a.test")
    assert await second.acquire_fetch("http://b.test")
    await first.release_fetch("http://a.test")
    assert await second.acquire_fetch("http://a.test")
    assert second.counters["rep/redis/lock/busy"] == 2


@on_asyncio
async def test_no_lock_is_handed_out_once_a_fresh_record_landed(open_cache) -> None:
    late, fetcher = open_cache(), open_cache()
    assert await late.load("http://a.test") is None
    assert await fetcher.acquire_fetch("http://a.test")
    await fetcher.store("http://a.test", record())
    await fetcher.release_fetch("http://a.test")
    assert not await late.acquire_fetch("http://a.test"), "the record it missed is there: nothing to fetch"
    started = time.monotonic()
    assert await late.wait_for_record("http://a.test", timeout=30) is not None
    assert time.monotonic() - started < 5
    await fetcher.store("http://a.test", record(lifetime=-1))
    assert await late.acquire_fetch("http://a.test"), "an expired record is fetched again"


@on_asyncio
async def test_a_live_holder_keeps_its_lock_beyond_the_timeout(open_cache) -> None:
    holder, other = open_cache(REP_REDIS_LOCK_TIMEOUT=0.3), open_cache(REP_REDIS_LOCK_TIMEOUT=0.3)
    assert await holder.acquire_fetch("http://a.test")
    await asyncio.sleep(1.0)
    assert not await other.acquire_fetch("http://a.test")


@on_asyncio
async def test_a_killed_holders_lock_expires_and_is_taken_over(open_cache, redis_server) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD_LOCK, redis_server.url],
        stdout=subprocess.PIPE,
        cwd=os.getcwd(),
    )
    try:
        assert holder.stdout.readline().strip() == b"held"
        other = open_cache(REP_REDIS_LOCK_TIMEOUT=0.5)
        assert not await other.acquire_fetch("http://a.test")
        with redis_server.client() as client:
            assert client.get("rep:lock:http://a.test").split(b":")[1] == str(holder.pid).encode()
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=5)
        killed_at = time.monotonic()
        while not await other.acquire_fetch("http://a.test"):
            assert time.monotonic() - killed_at < 5, "the dead holder's lock never expired"
            await asyncio.sleep(0.05)
    finally:
        holder.kill()
        holder.communicate()


_HOLD_LOCK = """
import asyncio, sys
from scrapy_robots_rep.redis_cache import RedisCache

async def hold():
    cache = RedisCache.from_settings({"REP_REDIS_URL": sys.argv[1], "REP_REDIS_LOCK_TIMEOUT": 0.5})
    assert await cache.acquire_fetch("http://a.test")
    print("held", flush=True)
    await asyncio.sleep(60)

asyncio.run(hold())
"""


@on_asyncio
async def test_waiter_is_woken_by_the_store_notification(open_cache, monkeypatch) -> None:
    monkeypatch.setattr(redis_cache, "POLL_INTERVAL", 30.0)
    fetcher, waiter = open_cache(), open_cache()
    stored = record()
    assert await fetcher.acquire_fetch("http://a.test")
    started = time.monotonic()
    waiting = asyncio.ensure_future(waiter.wait_for_record("http://a.test", timeout=10))
    await asyncio.sleep(0.3)
    await fetcher.store("http://a.test", stored)
    await fetcher.release_fetch("http://a.test")
    found = await waiting
    assert found is not None and found.to_dict() == stored.to_dict()
    assert time.monotonic() - started < 5, "without polling, only the notification ends the wait early"
    assert waiter.counters["rep/redis/wait/woken"] == 1


@on_asyncio
async def test_waiter_finds_a_record_whose_notification_was_lost(open_cache, redis_server, monkeypatch) -> None:
    monkeypatch.setattr(redis_cache, "POLL_INTERVAL", 0.1)
    waiter = open_cache()
    stored = record()
    with redis_server.client() as client:
        client.set("rep:lock:http://a.test", "elsewhere:1:x", px=5000)
        started = time.monotonic()
        waiting = asyncio.ensure_future(waiter.wait_for_record("http://a.test", timeout=5))
        await asyncio.sleep(0.3)
        client.hset("rep:origin:http://a.test", mapping={"record": json.dumps(stored.to_dict()), "fetched_at": 1})
    found = await waiting
    assert found is not None and found.fetched_at == stored.fetched_at
    assert time.monotonic() - started < 2, "the waiter's own polling finds the record"


@on_asyncio
async def test_waiting_ends_when_nobody_holds_the_lock_or_at_the_timeout(open_cache) -> None:
    holder, waiter = open_cache(), open_cache()
    await holder.store("http://a.test", record(lifetime=-1))
    assert await holder.acquire_fetch("http://a.test")
    started = time.monotonic()
    assert await waiter.wait_for_record("http://a.test", timeout=0.5) is None
    assert time.monotonic() - started >= 0.5, "a stale record does not end the wait"
    await holder.release_fetch("http://a.test")
    started = time.monotonic()
    assert await waiter.wait_for_record("http://a.test", timeout=30) is None
    assert time.monotonic() - started < 5, "with the lock free, the caller should fetch at once"
    assert waiter.counters["rep/redis/wait/given_up"] == 2


@on_asyncio
async def test_outage_degrades_with_one_warning_then_resynchronises(
    open_cache, redis_server, monkeypatch, caplog
) -> None:
    monkeypatch.setattr(redis_cache, "RETRY_INTERVAL", 0.2)
    cache = open_cache(REP_REDIS_TIMEOUT=0.5)
    await cache.load("http://a.test")
    redis_server.stop()
    stored = record()
    with caplog.at_level(logging.INFO, logger="scrapy_robots_rep.redis_cache"):
        for _ in range(3):
            assert await cache.load("http://a.test") is None
            await cache.store("http://a.test", stored)
            assert await cache.acquire_fetch("http://b.test")
            assert await cache.wait_for_record("http://c.test", timeout=5) is None
            await asyncio.sleep(0.25)
        warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
        assert len(warnings) == 1 and "unavailable" in warnings[0].getMessage()
        assert cache.counters["rep/redis/outages"] == 1
        assert cache.counters["rep/redis/errors"] >= 3

        redis_server.start()
        await asyncio.sleep(0.25)
        loaded = await cache.load("http://a.test")
    assert loaded is None, "Redis came back empty; the resync follows the first answer"
    assert any("available again" in r.getMessage() for r in caplog.records)
    await asyncio.sleep(0.2)
    assert (await open_cache().load("http://a.test")).to_dict() == stored.to_dict()
    assert cache.counters["rep/redis/resynced"] == 1
    assert cache.counters["rep/redis/outages"] == 1


@on_asyncio
async def test_an_unresponsive_redis_costs_at_most_the_timeout(open_cache, redis_server, monkeypatch) -> None:
    monkeypatch.setattr(redis_cache, "RETRY_INTERVAL", 60.0)
    cache = open_cache(REP_REDIS_TIMEOUT=0.2)
    await cache.store("http://a.test", record())
    with redis_server.frozen():
        started = time.monotonic()
        assert await cache.load("http://a.test") is None
        assert time.monotonic() - started < 2
        started = time.monotonic()
        assert await cache.acquire_fetch("http://a.test")
        assert time.monotonic() - started < 0.1
    assert cache.counters["rep/redis/outages"] == 1


@pytest.mark.parametrize(
    ("name", "value"),
    [("REP_REDIS_LOCK_TIMEOUT", 0), ("REP_REDIS_TIMEOUT", "soon"), ("REP_REDIS_PREFIX", ""), ("REP_REDIS_URL", "ftp://x")],
)
def test_bad_settings_name_the_setting(name: str, value: object) -> None:
    with pytest.raises(SettingsError, match=name):
        RedisCache.from_settings({name: value})
