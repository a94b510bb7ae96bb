"""Fixtures of the real-spider-settings tests: a redis-server for scrapy-redis and the shared cache."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.redis.server import MISSING, RedisServer, find_redis_server


@pytest.fixture(scope="session")
def redis_session() -> Iterator[RedisServer]:
    executable = find_redis_server()
    if executable is None:
        if os.environ.get("CI"):
            pytest.fail(MISSING, pytrace=False)
        pytest.skip(MISSING)
    server = RedisServer(executable)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def redis_server(redis_session: RedisServer) -> RedisServer:
    """A running redis-server, emptied for each test."""
    with redis_session.client() as client:
        client.flushall()
    return redis_session

