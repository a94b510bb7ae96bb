"""A fleet on each server kind users run besides Debian's Redis 7 (tested everywhere else): Redis 6.2,
Valkey, a TLS-only Redis with its own CA and an ACL user, and a Redis Cluster of three masters (the
store's; scrapy-redis's queue, and the parked requests beside it, stay on a standalone Redis), judged
by what the origins' servers saw."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("scrapy_redis", reason="scrapy-redis is not installed (extra 'test')")

from tests.redis.fleet import Worker, assert_crawled_once_and_obeyed, push, start_origins, stop_all, urls_of
from tests.redis.server import TLS_PASSWORD, AnyServer, RedisServer, ServerKind, started_kind
from tests.sites import Sites
from tests.waiting import wait_until

ORIGINS = 12


@pytest.fixture(
    params=[ServerKind.REDIS_6_2, ServerKind.VALKEY, ServerKind.TLS_ACL, ServerKind.CLUSTER],
    ids=lambda kind: kind.value,
)
def store_server(request: pytest.FixtureRequest, tmp_path) -> Iterator[AnyServer]:
    server = started_kind(request.param, tmp_path)
    yield server
    server.stop()


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
