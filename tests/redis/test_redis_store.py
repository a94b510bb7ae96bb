"""RedisStore against a real redis-server: the shared-store contract (on each server kind a fleet runs
on), then what is Redis's own (key format and lifetime, lock renewal and takeover, lost notifications,
outages, settings)."""

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
from typing import Any

import pytest
from redis.asyncio import Redis
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from scrapy_robots_rep.policy.settings import SettingsError
from scrapy_robots_rep.stores import SharedStore, compact
from scrapy_robots_rep.stores import redis as redis_store
from scrapy_robots_rep.stores.base import Scope
from scrapy_robots_rep.stores.redis import RedisStore
from scrapy_robots_rep.stores.redis_scripts import RECORD_HEADER
from tests.redis.opening import opened_stores
from tests.redis.server import AnyServer, RedisServer, ServerKind, started_kind
from tests.settings.redis_store import shared_cache
from tests.stores.contract import ORIGIN, UNTIL_THE_TEST_TIMES_OUT, Planter, Process, StoreContract, record
from tests.stores.on_asyncio import on_asyncio, run
from tests.waiting import until as _until

SCOPE = "testbot/rfc9309/rfc9309"
RECORD_KEY = f"rep:{{{SCOPE}:{ORIGIN}}}"
LOCK_KEY = f"rep:{{{SCOPE}:{ORIGIN}}}:lock"


class TestRedisStore(StoreContract):
    """The contract on each server kind a fleet runs on."""

    @pytest.fixture
    def store_class(self) -> type[SharedStore]:
        return RedisStore

    @pytest.fixture
    def store_settings(self, server_of_each_kind: AnyServer) -> dict[str, Any]:
        return shared_cache(server_of_each_kind)

    @pytest.fixture
    def plant(self, server_of_each_kind: AnyServer) -> Planter:
        def plant(store: SharedStore, origin: str, text: str) -> None:
            with server_of_each_kind.client() as client:
                client.set(f"rep:{{{store.key(origin)}}}", RECORD_HEADER.pack(0, 0) + text.encode())

        return plant


@pytest.fixture
def open_store(redis_server: RedisServer) -> Iterator[Callable[..., Process]]:
    """Opens RedisStore instances ("processes") on the test server; closes them afterwards."""
    yield from opened_stores(redis_server)


@on_asyncio
async def test_a_record_is_its_times_on_redis_clock_then_packed_json_in_a_scoped_key_living_past_its_freshness(
    open_store, redis_server
) -> None:
    writer = open_store(REP_UNREACHABLE_MAX_AGE=1000)
    stored = record(fetched_at=time.time() - 5, lifetime=65)
    await writer.store.store(ORIGIN, stored)
    with redis_server.client() as client:
        assert client.keys("rep:{*}") == [RECORD_KEY.encode()]
        raw = client.get(RECORD_KEY)
        seconds, microseconds = client.time()
        redis_now = seconds * 1000 + microseconds // 1000
        assert 1055 <= client.ttl(RECORD_KEY) <= 1060
    fetched, expires = RECORD_HEADER.unpack_from(raw)
    assert redis_now - 5000 - 1000 <= fetched <= redis_now - 5000, "fetched 5 s ago, on Redis's clock"
    assert expires - fetched == 65_000
    packed = raw[RECORD_HEADER.size :]
    assert json.loads(compact.unpack(packed)) == stored.to_dict()
    assert len(packed) < len(SharedStore.encode(stored)) / 2, "kept deflated"


@on_asyncio
async def test_key_outlives_freshness_by_the_unreachable_max_age_then_expires(open_store, redis_server) -> None:
    process = open_store(REP_UNREACHABLE_MAX_AGE=3)
    stored = record(lifetime=0.2)
    await process.store.store(ORIGIN, stored)
    while time.time() < stored.expires_at:
        await asyncio.sleep(0.05)
    kept = await process.store.load(ORIGIN)
    assert kept is not None and not kept.is_fresh(time.time()), "kept past its freshness"
    with redis_server.client() as client:
        assert 0 < client.pttl(RECORD_KEY) <= 3000
    await _until(lambda: _missing(redis_server), "the key expired")
    assert await process.store.load(ORIGIN) is None


@on_asyncio
async def test_prefix_separates_fleets(open_store) -> None:
    one, two = open_store(REP_REDIS_PREFIX="one:"), open_store(REP_REDIS_PREFIX="two:")
    await one.store.store(ORIGIN, record())
    assert await two.store.load(ORIGIN) is None
    assert await two.store.acquire_fetch("http://b.test")
    assert await one.store.acquire_fetch("http://b.test")


@on_asyncio
async def test_a_live_holder_keeps_its_lock_beyond_the_timeout(open_store, redis_server) -> None:
    lifetime = 2
    holder, other = open_store(REP_REDIS_LOCK_TIMEOUT=lifetime), open_store(REP_REDIS_LOCK_TIMEOUT=lifetime)
    assert await holder.store.acquire_fetch(ORIGIN)
    taken = time.monotonic()
    # A renewal is seen as the lock's TTL going up; a lock that expired is never renewed again
    # (only its owner's token renews), so renewals seen past the lifetime mean it never lapsed.
    renewals = []
    with redis_server.client() as client:
        last = client.pttl(LOCK_KEY)

        def renewed_past_its_lifetime() -> bool:
            nonlocal last
            ttl = client.pttl(LOCK_KEY)
            if ttl > last > 0:
                renewals.append(time.monotonic() - taken)
            last = ttl
            return any(at > lifetime for at in renewals)

        await _until(renewed_past_its_lifetime, "the holder renewed its lock past its lifetime")
    assert not await other.store.acquire_fetch(ORIGIN), "held beyond its timeout, renewed"


@on_asyncio
async def test_a_killed_holders_lock_expires_and_is_taken_over(open_store, redis_server) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD_LOCK, redis_server.url],
        stdout=subprocess.PIPE,
        cwd=os.getcwd(),
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == b"held"
        other = open_store(REP_REDIS_LOCK_TIMEOUT=0.5)
        assert not await other.store.acquire_fetch(ORIGIN)
        with redis_server.client() as client:
            assert client.get(LOCK_KEY).split(b":")[1] == str(holder.pid).encode()
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=5)
        killed_at = time.monotonic()
        while not await other.store.acquire_fetch(ORIGIN):
            assert time.monotonic() - killed_at < 5, "the dead holder's lock never expired"
            await asyncio.sleep(0.05)
    finally:
        holder.kill()
        holder.communicate()


_HOLD_LOCK = """
import asyncio, sys
from scrapy.utils.reactor import install_reactor
install_reactor("twisted.internet.asyncioreactor.AsyncioSelectorReactor")  # get_crawler needs one on Scrapy 2.13
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler
from scrapy_robots_rep.stores import compact
from scrapy_robots_rep.stores.redis import RedisStore

async def hold():
    settings = {"REP_REDIS_URL": sys.argv[1], "REP_REDIS_LOCK_TIMEOUT": 0.5, "USER_AGENT": "testbot/1.0"}
    store = build_from_crawler(RedisStore, get_crawler(settings_dict=settings))
    assert await store.acquire_fetch("http://a.test")
    print("held", flush=True)
    await asyncio.sleep(60)

asyncio.run(hold())
"""


@on_asyncio
async def test_waiter_is_woken_by_the_store_notification(open_store, redis_server, monkeypatch) -> None:
    monkeypatch.setattr(redis_store, "POLL_INTERVAL", 30.0)
    fetcher, waiter = open_store(), open_store()
    stored = record()
    assert await fetcher.store.acquire_fetch(ORIGIN)
    timeout = 10
    started = time.monotonic()
    waiting = asyncio.ensure_future(waiter.store.wait_for_record(ORIGIN, timeout=timeout))
    await _until(lambda: _subscribers(redis_server) > 0, "the waiter listens for notifications")
    await fetcher.store.store(ORIGIN, stored)
    await fetcher.store.release_fetch(ORIGIN)
    found = await waiting
    assert found is not None and found.to_dict() == stored.to_dict()
    # it polls every 30 s: only the notification ends the wait before its timeout
    assert time.monotonic() - started < timeout, "woken by the notification"
    assert waiter.stat("wait/woken") == 1


@on_asyncio
async def test_waiter_finds_a_record_whose_notification_was_lost(open_store, redis_server, monkeypatch) -> None:
    monkeypatch.setattr(redis_store, "POLL_INTERVAL", 0.1)
    waiter = open_store()
    stored = record()
    with redis_server.client() as client:
        client.set(LOCK_KEY, "elsewhere:1:x", px=60_000)
        waiting = asyncio.ensure_future(waiter.store.wait_for_record(ORIGIN, timeout=60))
        await _until(lambda: _peeks(redis_server) > 0, "the waiter looked once")
        times = RECORD_HEADER.pack(stored.fetched_at * 1000, stored.expires_at * 1000)  # Redis's clock is ours
        client.set(RECORD_KEY, times + compact.pack(json.dumps(stored.to_dict())))
    found = await waiting
    assert found is not None and found.fetched_at == stored.fetched_at, "its own polling found it, unannounced"


@on_asyncio
async def test_outage_degrades_with_one_warning_then_resynchronises(
    open_store, redis_server, monkeypatch, caplog
) -> None:
    monkeypatch.setattr(redis_store, "RETRY_INTERVAL", 0.2)
    process = open_store(REP_REDIS_TIMEOUT=0.5)
    store = process.store
    await store.load(ORIGIN)
    redis_server.stop()
    stored = record()
    with caplog.at_level(logging.INFO, logger="scrapy_robots_rep.stores.redis"):
        for _ in range(3):
            assert await store.load(ORIGIN) is None
            await store.store(ORIGIN, stored)
            assert await store.acquire_fetch("http://b.test")
            assert await store.wait_for_record("http://c.test", timeout=5) is None
            await asyncio.sleep(0.25)
        warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
        assert len(warnings) == 1 and "unavailable" in warnings[0].getMessage()
        assert process.stat("outages") == 1
        assert process.stat("errors") >= 3

        redis_server.start()
        reader = open_store()
        await _until(lambda: process.stat("resynced") == 1, "the record is written back")
    assert any("available again" in r.getMessage() for r in caplog.records)
    resynced = await reader.store.load(ORIGIN)
    assert resynced is not None and resynced.to_dict() == stored.to_dict(), "written once Redis answered"
    assert process.stat("resynced") == 1
    assert process.stat("outages") == 1


@on_asyncio
async def test_an_unresponsive_redis_costs_at_most_the_timeout(open_store, redis_server, monkeypatch) -> None:
    monkeypatch.setattr(redis_store, "RETRY_INTERVAL", 60.0)
    process = open_store(REP_REDIS_TIMEOUT=0.2)
    await process.store.store(ORIGIN, record())
    with redis_server.frozen():
        started = time.monotonic()
        assert await process.store.load(ORIGIN) is None
        assert time.monotonic() - started < 2
        errors = process.stat("errors")
        assert await process.store.acquire_fetch(ORIGIN)
        assert process.stat("errors") == errors, "answered without asking the Redis that just failed"
    assert process.stat("outages") == 1


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("REP_REDIS_LOCK_TIMEOUT", 0, "REP_REDIS_LOCK_TIMEOUT must be greater than 0, got 0"),
        ("REP_REDIS_TIMEOUT", "soon", "REP_REDIS_TIMEOUT must be a number of seconds, got 'soon'"),
        ("REP_REDIS_PREFIX", "", "REP_REDIS_PREFIX must be a non-empty string"),
        ("REP_REDIS_URL", "ftp://x", "REP_REDIS_URL is not a Redis URL"),
    ],
)
def test_bad_settings_name_the_setting(name: str, value: object, message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        build_from_crawler(RedisStore, get_crawler(settings_dict={name: value}))


def test_without_the_redis_client_the_error_says_what_to_install() -> None:
    probe = "import sys; sys.modules['redis'] = None\nimport scrapy_robots_rep.stores.redis\n"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "ImportError: scrapy_robots_rep.RedisStore needs the redis client: pip install redis" in result.stderr


def _missing(server: RedisServer) -> bool:
    with server.client() as client:
        return not client.exists(RECORD_KEY)


def _subscribers(server: RedisServer) -> int:
    with server.client() as client:
        return int(client.pubsub_numsub("rep:stored")[0][1])


def _peeks(server: RedisServer) -> int:
    """Record reads Redis has answered (``GET`` calls, from the script that reads a record)."""
    with server.client() as client:
        return int(client.info("commandstats").get("cmdstat_get", {}).get("calls", 0))


@on_asyncio
async def test_a_store_redis_refused_for_a_newer_record_is_not_counted_stored(open_store, redis_server) -> None:
    first, late = open_store(), open_store()
    newer = record()
    await first.store.store(ORIGIN, newer)
    await late.store.store(ORIGIN, record(fetched_at=newer.fetched_at - 100))
    assert (first.stat("stores"), late.stat("stores"), late.stat("refused")) == (1, 0, 1)
    loaded = await late.store.load(ORIGIN)
    assert loaded is not None and loaded.fetched_at == newer.fetched_at


TWO_HOURS = 7200.0


@pytest.fixture
def store_on_clock(redis_server: RedisServer) -> Iterator[Callable[[float], Process]]:
    """``store_on_clock(ahead)``: a RedisStore ("process") whose clock runs ``ahead`` seconds ahead of
    this machine's (and Redis's); closed after the test."""
    opened: list[Process] = []

    def open_one(ahead: float) -> Process:
        stats = get_crawler().stats
        assert stats is not None
        store = RedisStore(
            Redis.from_url(redis_server.url),
            scope=Scope(agent="testbot", matching="rfc9309", status_policy="rfc9309"),
            stats=stats,
            prefix="rep:",
            lock_timeout=10,
            keep_after_expiry=86400,
            clock=lambda: time.time() + ahead,
        )
        opened.append(Process(store, stats))
        return opened[-1]

    yield open_one
    for process in opened:
        run(process.store.close())


@on_asyncio
async def test_which_record_is_newer_is_decided_on_redis_clock(store_on_clock) -> None:
    fast, right = store_on_clock(TWO_HOURS), store_on_clock(0)
    await fast.store.store(ORIGIN, record(fetched_at=time.time() + TWO_HOURS))
    await right.store.store(ORIGIN, record(fetched_at=time.time() - 60))
    assert right.stat("refused") == 1, "fetched before the fast worker's record, on any one clock"
    refreshed = record(fetched_at=time.time())
    await right.store.store(ORIGIN, refreshed)
    assert right.stat("stores") == 1, "fetched after it: not kept out by the fast worker's clock"
    loaded = await store_on_clock(0).store.load(ORIGIN)
    assert loaded is not None and loaded.to_dict() == refreshed.to_dict()


@on_asyncio
async def test_whether_a_record_is_fresh_is_decided_on_redis_clock(store_on_clock) -> None:
    fast, right, slow = store_on_clock(TWO_HOURS), store_on_clock(0), store_on_clock(-TWO_HOURS)
    stored = record(fetched_at=time.time() + TWO_HOURS, lifetime=600)
    await fast.store.store(ORIGIN, stored)
    mine = await fast.store.load(ORIGIN)
    assert mine is not None and mine.to_dict() == stored.to_dict(), "read on its writer's clock: as stored"
    for reader, ahead in ((right, 0.0), (slow, -TWO_HOURS)):
        loaded = await reader.store.load(ORIGIN)
        assert loaded is not None
        now = time.time() + ahead
        assert now - 5 <= loaded.fetched_at <= now and 595 <= loaded.expires_at - now <= 600, "on the reader's clock"
        assert loaded.rules.to_dict() == stored.rules.to_dict()
        assert await reader.store.acquire_fetch(ORIGIN) is False, "fresh on Redis's clock: nothing to fetch"
        assert await reader.store.wait_for_record(ORIGIN, timeout=UNTIL_THE_TEST_TIMES_OUT) is not None

    expired = "http://expired.test"
    await fast.store.store(expired, record(fetched_at=time.time() + TWO_HOURS - 10, lifetime=9))
    assert await right.store.acquire_fetch(expired), "expired on Redis's clock: fetched again"
    loaded = await right.store.load(expired)
    assert loaded is not None and not loaded.is_fresh(time.time())


@pytest.mark.parametrize(
    ("info", "refused"),
    [
        ({"redis_version": "7.0.15"}, None),
        ({"redis_version": "6.2.5"}, None),
        ({"redis_version": "6.0.16"}, "runs Redis 6.0.16; RedisStore needs Redis 6.2 or later"),
        ({"redis_version": "5.0.7"}, "runs Redis 5.0.7; RedisStore needs Redis 6.2 or later"),
        ({"redis_version": "7.2.4", "server_name": "valkey", "valkey_version": "9.1.2"}, None),
        (
            {"redis_version": "7.2.4", "server_name": "valkey", "valkey_version": "7.0.1"},
            "runs Valkey 7.0.1; RedisStore needs Valkey 7.2 or later",
        ),
        ({}, "runs Redis (no version in INFO); RedisStore needs Redis 6.2 or later"),
    ],
)
def test_the_server_version_needed_is_read_from_info(info: dict[str, str], refused: str | None) -> None:
    assert redis_store.unsupported_server(info) == refused


@pytest.mark.parametrize("kind", [ServerKind.REDIS, ServerKind.REDIS_6_2, ServerKind.VALKEY], ids=lambda k: k.value)
def test_each_supported_server_passes_the_start_up_check(kind: ServerKind, tmp_path) -> None:
    server = started_kind(kind, tmp_path)
    try:
        with server.client() as client:
            assert redis_store.unsupported_server(client.info("server")) is None
        settings = {"USER_AGENT": "testbot/1.0", "REP_REDIS_URL": server.url}
        assert isinstance(build_from_crawler(RedisStore, get_crawler(settings_dict=settings)), RedisStore)
    finally:
        server.stop()
