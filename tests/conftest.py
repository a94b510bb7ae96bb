"""Fixtures shared by every test folder."""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.corpus import corpus_dir
from tests.redis.fleet import Worker
from tests.redis.server import (
    CLUSTER_KINDS,
    AnyServer,
    ClusterServer,
    RedisServer,
    ServerKind,
    started_kind,
    started_server,
)
from tests.sites import Sites


def in_ci() -> bool:
    """Whether the suite runs in CI (``CI`` set to a true value, as ``.ci/run`` and CI services set it)."""
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


_importorskip = pytest.importorskip


def _import_or_fail(modname: str, *args: Any, **kwargs: Any) -> ModuleType:
    """``pytest.importorskip`` in CI: a dependency (a module of another distribution, such as the test
    extra's ``scrapy_redis``) is imported plainly, so that its absence fails the run instead of
    skipping its tests. The package's own optional parts (the compiled tag search, which setup.py
    builds only where a C compiler is) still skip."""
    if modname.split(".")[0] == "scrapy_robots_rep":
        return _importorskip(modname, *args, **kwargs)
    return importlib.import_module(modname)


def pytest_configure(config: pytest.Config) -> None:
    if in_ci():
        pytest.importorskip = _import_or_fail  # type: ignore[assignment]


@pytest.fixture
def sites() -> Iterator[Sites]:
    """Start loopback sites with ``sites.start(routes)``; all are stopped after the test."""
    with Sites() as started:
        yield started


@pytest.fixture(scope="session")
def corpus() -> Path:
    """Real robots.txt files and URLs: the full corpus when present, else the shipped sample (tests/corpus.py)."""
    return corpus_dir()


@pytest.fixture(scope="session")
def _redis_cache_server() -> Iterator[RedisServer]:
    server = started_server()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def _redis_queue_server() -> Iterator[RedisServer]:
    server = started_server()
    yield server
    server.stop()


@pytest.fixture
def redis_server(_redis_cache_server: RedisServer) -> RedisServer:
    """A real redis-server (the shared robots.txt store's), running and empty at the start of each test.

    A missing or failing ``redis-server`` is an error, never a skip: ``make test`` installs it.
    """
    if not _redis_cache_server.running:
        _redis_cache_server.start()
    _redis_cache_server.flush()
    return _redis_cache_server


@pytest.fixture(scope="session", params=list(ServerKind), ids=[kind.value for kind in ServerKind])
def _server_of_each_kind(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[AnyServer]:
    server = started_kind(request.param, tmp_path_factory.mktemp(request.param.value))
    yield server
    server.stop()


@pytest.fixture
def server_of_each_kind(_server_of_each_kind: AnyServer) -> AnyServer:
    """Each server kind a fleet runs on (``tests/redis/server.py``: Redis, Redis 6.2, Valkey, TLS with an
    ACL user, a Redis Cluster, a TLS Redis Cluster with the ACL user), running and empty at the start of
    each test; a test using it runs once per kind.

    Give a client ``server.url`` and ``server.client_params``. A missing server binary is an error, never a skip.
    A test runs on some kinds only by parametrising ``_server_of_each_kind`` with them (``indirect=True``).
    """
    _server_of_each_kind.flush()
    return _server_of_each_kind


@pytest.fixture(scope="session", params=CLUSTER_KINDS, ids=[kind.value for kind in CLUSTER_KINDS])
def _cluster_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ClusterServer]:
    server = started_kind(request.param, tmp_path_factory.mktemp(f"{request.param.value}-own"))
    assert isinstance(server, ClusterServer)
    yield server
    server.stop()


@pytest.fixture
def cluster_server(_cluster_server: ClusterServer) -> ClusterServer:
    """Each Redis Cluster of three masters (plain, and TLS with the ACL user), running and empty at the
    start of each test; a test using it runs once per kind. Apart from ``server_of_each_kind``'s: its
    tests stop and restart nodes, and a restarted node has lost the scripts the others keep."""
    _cluster_server.flush()
    return _cluster_server


@pytest.fixture
def queue_server(_redis_queue_server: RedisServer) -> RedisServer:
    """A second redis-server, for a scrapy-redis queue, so that the store's can be stopped alone."""
    _redis_queue_server.flush()
    return _redis_queue_server


@pytest.fixture
def start_worker(tmp_path, queue_server, redis_server) -> Iterator[Callable[..., Worker]]:
    """``start_worker(name, **options)``: a worker on the test's queue and store; killed if left running."""
    started: list[Worker] = []

    def start(name: str, **options: object) -> Worker:
        worker = Worker.start(name, tmp_path, queue_server, redis_server, **options)
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.kill()
