"""Fixtures of the Redis tests: real redis-servers, started once and emptied for each test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("redis", reason="the redis client is not installed (extra 'redis')")

from tests.redis.server import RedisServer, started_server


@pytest.fixture(scope="session")
def redis_server_session() -> Iterator[RedisServer]:
    server = started_server()
    yield server
    server.stop()


@pytest.fixture
def redis_server(redis_server_session: RedisServer) -> RedisServer:
    """The cache's redis-server, running and empty at the start of each test."""
    if not redis_server_session.running:
        redis_server_session.start()
    with redis_server_session.client() as client:
        client.flushall()
    return redis_server_session


@pytest.fixture(scope="session")
def queue_server_session() -> Iterator[RedisServer]:
    server = started_server()
    yield server
    server.stop()


@pytest.fixture
def queue_server(queue_server_session: RedisServer) -> RedisServer:
    """A second redis-server for the scrapy-redis queue, so the cache's can be stopped alone."""
    with queue_server_session.client() as client:
        client.flushall()
    return queue_server_session
