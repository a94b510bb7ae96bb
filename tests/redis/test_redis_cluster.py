"""RedisStore on a Redis Cluster of three masters made by the test, plain and TLS-only with an ACL user
(as managed services in cluster mode with in-transit encryption run), its URL naming one node: the store
finds out it is a cluster, keeps each origin's keys in one slot, follows ``MOVED`` to the node that owns
it (never an outage), and wakes waiters whatever node the announcement was made on."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator

import pytest
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from scrapy_robots_rep.policy.settings import SettingsError
from scrapy_robots_rep.stores import redis as redis_store
from scrapy_robots_rep.stores.redis import RedisStore
from tests.redis.opening import opened_stores
from tests.redis.server import ClusterServer, RedisServer, ServerKind, executable_of
from tests.stores.contract import Process, record
from tests.stores.on_asyncio import on_asyncio
from tests.waiting import until, wait_until

SCOPE = "testbot/rfc9309/rfc9309"


@pytest.fixture
def open_store(cluster_server: ClusterServer) -> Iterator[Callable[..., Process]]:
    """Opens RedisStore instances ("processes") whose URL names the cluster's first node; closes them afterwards."""
    yield from opened_stores(cluster_server)


def owner(cluster_server: ClusterServer, key: str) -> int:
    """The port of the node that owns ``key``'s slot."""
    with cluster_server.client() as client:
        return int(client.get_node_from_key(key).port)


def origin_away_from(cluster_server: ClusterServer, port: int) -> str:
    """An origin whose keys' slot a node other than the one on ``port`` owns."""
    return next(
        origin
        for origin in (f"http://o{number}.test" for number in range(100))
        if owner(cluster_server, f"rep:{{{SCOPE}:{origin}}}") != port
    )


def record_reads(node: RedisServer) -> int:
    """Record reads ``node`` has answered (``GET`` calls, from the script that reads a record)."""
    with node.client() as client:
        return int(client.info("commandstats").get("cmdstat_get", {}).get("calls", 0))


def subscribers(node: RedisServer) -> int:
    """Clients of ``node`` listening for the store's announcements (a node counts its own)."""
    with node.client() as client:
        return int(client.pubsub_numsub("rep:stored")[0][1])


@on_asyncio
async def test_on_a_cluster_records_locks_waiters_and_pacing_work_from_a_node_that_owns_none_of_them(
    open_store, cluster_server: ClusterServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(redis_store, "POLL_INTERVAL", 30.0)
    origin = origin_away_from(cluster_server, cluster_server.nodes[0].port)
    fetcher, waiter = open_store(), open_store()
    assert "a Redis Cluster" in fetcher.store.description

    assert await fetcher.store.load(origin) is None
    assert await fetcher.store.acquire_fetch(origin)
    assert not await waiter.store.acquire_fetch(origin), "the lock is held"
    node = next(
        node for node in cluster_server.nodes if node.port == owner(cluster_server, f"rep:{{{SCOPE}:{origin}}}")
    )
    looked = record_reads(node)
    started = time.monotonic()
    waiting = asyncio.ensure_future(waiter.store.wait_for_record(origin, timeout=10))
    await until(lambda: any(subscribers(node) for node in cluster_server.nodes), "the waiter listens")
    await until(lambda: record_reads(node) > looked, "the waiter looked once")
    stored = record(lifetime=60)
    await fetcher.store.store(origin, stored)
    await fetcher.store.release_fetch(origin)
    found = await waiting
    assert found is not None and found.to_dict() == stored.to_dict()
    # it polls every 30 s: only the announcement, made on the record's node, ends the wait before its timeout
    assert time.monotonic() - started < 10, "woken by the announcement"
    assert waiter.stat("wait/woken") == 1
    assert not await waiter.store.acquire_fetch(origin), "a fresh record is there: nothing to fetch"

    assert await fetcher.store.reserve_slot(origin, "first", lease=30) == 0
    assert (await waiter.store.reserve_slot(origin, "second", lease=30) or 0) > 0, "the slot is held"
    await fetcher.store.free_slot(origin, "first", delay=5)
    wait = await waiter.store.reserve_slot(origin, "second", lease=30)
    assert wait is not None and 0 < wait <= 5, "free five seconds after the first download left"

    with cluster_server.client() as client:
        keys = sorted(client.keys("*", target_nodes=client.PRIMARIES))
        assert keys == [f"rep:{{{SCOPE}:{origin}}}".encode(), f"rep:{{{SCOPE}:{origin}}}:pace".encode()]
        assert len({client.keyslot(key) for key in [*keys, f"rep:{{{SCOPE}:{origin}}}:lock"]}) == 1
    assert owner(cluster_server, keys[0].decode()) != cluster_server.nodes[0].port
    for process in (fetcher, waiter):
        assert (process.stat("outages"), process.stat("errors")) == (0, 0), "MOVED followed, never an outage"


@on_asyncio
async def test_bursts_of_origins_wait_for_the_cluster_and_for_connections_to_each_node(open_store) -> None:
    process = open_store()
    for burst in ("first", "second"):  # the first also learns the nodes; in the second, 100 calls per node
        origins = [f"http://{burst}{number}.test" for number in range(300)]
        loaded = await asyncio.gather(*(process.store.load(origin) for origin in origins))
        assert loaded == [None] * len(origins)
    assert (process.stat("misses"), process.stat("errors")) == (600, 0)


@on_asyncio
async def test_the_listener_moves_to_another_node_when_its_node_fails(
    open_store, cluster_server: ClusterServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(redis_store, "POLL_INTERVAL", 30.0)
    monkeypatch.setattr(redis_store, "RETRY_INTERVAL", 0.2)
    writer, waiter = open_store(), open_store()
    for process in (writer, waiter):
        await process.store.load("http://warm.test")  # each client learns the nodes while the first answers
    assert await waiter.store.wait_for_record("http://nobody.test", timeout=1) is None  # its listener stays
    await until(lambda: any(subscribers(node) for node in cluster_server.nodes), "the waiter listens")
    failed = next(node for node in cluster_server.nodes if subscribers(node))
    failed.stop()
    try:
        live = [node for node in cluster_server.nodes if node is not failed]
        await until(lambda: any(subscribers(node) for node in live), "the waiter listens on another node")
        origin = origin_away_from(cluster_server, failed.port)
        node = next(node for node in live if node.port == owner(cluster_server, f"rep:{{{SCOPE}:{origin}}}"))
        assert await writer.store.acquire_fetch(origin)
        looked = record_reads(node)
        started = time.monotonic()
        waiting = asyncio.ensure_future(waiter.store.wait_for_record(origin, timeout=10))
        await until(lambda: record_reads(node) > looked, "the waiter looked once")
        await writer.store.store(origin, record(lifetime=60))
        assert await waiting is not None
        assert time.monotonic() - started < 10, "woken by the announcement"
    finally:
        failed.start()
        wait_until(lambda: cluster_server.ok, 30, "the restarted node rejoined the cluster")


@on_asyncio
async def test_a_node_that_did_not_answer_at_start_is_found_a_cluster_by_its_first_redirection(
    open_store, cluster_server: ClusterServer
) -> None:
    named = cluster_server.nodes[0]
    named.stop()
    try:
        process = open_store()
        assert "a Redis Cluster" not in process.store.description, "not known at start"
    finally:
        named.start()
        wait_until(lambda: cluster_server.ok, 30, "the restarted node rejoined the cluster")
    origin = origin_away_from(cluster_server, named.port)
    stored = record(lifetime=60)
    await process.store.store(origin, stored)
    loaded = await process.store.load(origin)
    assert loaded is not None and loaded.to_dict() == stored.to_dict()
    assert "a Redis Cluster" in process.store.description
    assert (process.stat("stores"), process.stat("outages"), process.stat("errors")) == (1, 0, 0)


def test_a_cluster_node_older_than_needed_is_a_start_up_error(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cluster being upgraded: the node the URL names runs Redis 7, another Redis 6.2."""
    monkeypatch.setitem(redis_store.SUPPORTED, "redis", (7, 0))
    executables = [
        executable_of(ServerKind.REDIS),
        executable_of(ServerKind.REDIS),
        executable_of(ServerKind.REDIS_6_2),
    ]
    upgrading = ClusterServer(executables, tmp_path)
    upgrading.start()
    try:
        settings = {"USER_AGENT": "testbot/1.0", "REP_REDIS_URL": upgrading.url}
        with pytest.raises(SettingsError) as raised:
            build_from_crawler(RedisStore, get_crawler(settings_dict=settings))
    finally:
        upgrading.stop()
    assert str(raised.value) == (
        f"The Redis of REP_CACHE_BACKEND (REP_REDIS_URL {upgrading.url}) cluster node "
        f"127.0.0.1:{upgrading.nodes[2].port} runs Redis 6.2.5; RedisStore needs Redis 7.0 or later"
    )
