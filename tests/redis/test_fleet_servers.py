"""A fleet on each server kind users run besides Debian's Redis 7 (tested everywhere else): Redis 6.2,
Valkey, a TLS-only Redis with its own CA and an ACL user, a Redis Cluster of three masters, and that
cluster TLS-only with the ACL user (the store's; scrapy-redis's queue, and the parked requests beside
it, stay on a standalone Redis), judged by what the origins' servers saw."""

from __future__ import annotations

import threading

import pytest

pytest.importorskip("scrapy_redis", reason="scrapy-redis is not installed (extra 'test')")

from tests.redis.fleet import (
    ROBOTS,
    Worker,
    assert_crawled_once_and_obeyed,
    parked,
    push,
    start_origins,
    stop_all,
    urls_of,
)
from tests.redis.server import TLS_PASSWORD, AnyServer, RedisServer, ServerKind, on_kinds
from tests.sites import Hit, Reply, Sites, text
from tests.waiting import wait_until

ORIGINS = 12
KILLED_PAGES = tuple(f"/p{number}" for number in range(10))


on_each_other_kind = on_kinds(
    ServerKind.REDIS_6_2, ServerKind.VALKEY, ServerKind.TLS_ACL, ServerKind.CLUSTER, ServerKind.TLS_CLUSTER
)
"""Runs a test on each server kind but Debian's Redis 7 (``store_server``)."""


@pytest.fixture
def store_server(server_of_each_kind: AnyServer) -> AnyServer:
    """The store's server, of the test's kind (``on_each_other_kind``), running and empty."""
    return server_of_each_kind


@on_each_other_kind
def test_a_fleet_fetches_each_robots_txt_once_on_each_server_kind(
    sites: Sites, tmp_path, queue_server: RedisServer, store_server: AnyServer
) -> None:
    origins = start_origins(sites, ORIGINS)
    workers = [
        Worker.start(f"w{n}", tmp_path, queue_server, store_server, idle=5, lock_timeout=10, concurrency=16)
        for n in range(2)
    ]
    try:
        wait_until(lambda: all("Spider opened" in worker.log() for worker in workers), 60, "both workers run")
        push(queue_server, urls_of(origins))
        stats = [worker.finish() for worker in workers]
    finally:
        for worker in workers:
            worker.kill()
        stop_all(origins)

    assert_crawled_once_and_obeyed(origins)
    assert sum(s.get("rep/redis/lock/acquired", 0) for s in stats) == ORIGINS, "one fetch lock per origin"
    assert all(s.get("rep/redis/outages", 0) == 0 for s in stats), "the store reached its server"
    logs = "".join(worker.log() for worker in workers)
    assert TLS_PASSWORD not in logs


@on_each_other_kind
def test_no_waiting_request_is_lost_when_a_worker_is_killed_on_each_server_kind(
    sites: Sites, tmp_path, queue_server: RedisServer, store_server: AnyServer
) -> None:
    """The victim parks every request and is SIGKILLed while it holds the robots.txt fetches (their
    locks in the store); the survivors take them over once the locks lapse and crawl each page once."""
    robots_answer = threading.Event()

    def gated(hit: Hit) -> Reply:
        robots_answer.wait(60)
        return text(ROBOTS)

    origins = [sites.start({"/robots.txt": gated}) for _ in range(5)]
    options = {"lock_timeout": 2.0, "concurrency": 16}
    workers: list[Worker] = []
    try:
        push(queue_server, [origin.url + path for origin in origins for path in KILLED_PAGES])
        workers.append(Worker.start("victim", tmp_path, queue_server, store_server, **options))
        wait_until(lambda: parked(queue_server) == len(origins) * len(KILLED_PAGES), 30, "the requests are parked")
        wait_until(lambda: all(origin.hits("/robots.txt") for origin in origins), 30, "its robots.txt fetches run")
        workers[0].kill()
        robots_answer.set()
        workers += [Worker.start(f"w{n}", tmp_path, queue_server, store_server, idle=10, **options) for n in range(2)]
        stats = [worker.finish() for worker in workers[1:]]
    finally:
        robots_answer.set()
        for worker in workers:
            worker.kill()
        stop_all(origins)

    for origin in origins:
        crawled = sorted(path for path in origin.paths() if path != "/robots.txt")
        assert crawled == sorted(KILLED_PAGES), f"{origin}: every page exactly once, got {crawled}"
    assert parked(queue_server) == 0
    assert sum(s.get("rep/parked/swept", 0) for s in stats) == len(origins) * len(KILLED_PAGES), (
        "found through the lease"
    )
