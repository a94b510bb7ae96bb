"""Fixtures of the real-spider-settings tests: a redis-server for scrapy-redis and the shared cache."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.redis.server import RedisServer, started_server


@pytest.fixture(scope="session")
def redis_session() -> Iterator[RedisServer]:
    server = started_server()
    yield server
    server.stop()


@pytest.fixture
def redis_server(redis_session: RedisServer) -> RedisServer:
    """A running redis-server, emptied for each test."""
    with redis_session.client() as client:
        client.flushall()
    return redis_session
