"""A real redis-server subprocess on a free loopback port, for the Redis tests and the fleet benchmark."""

from __future__ import annotations

import contextlib
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator

import pytest
import redis

_START_TIMEOUT = 10.0
MISSING = "redis-server is not installed (Debian package redis-server; `make test` installs it)"


def find_redis_server() -> str | None:
    """Path of the redis-server executable, or None."""
    return shutil.which("redis-server") or shutil.which("redis-server", path="/usr/sbin:/usr/bin")


class RedisServer:
    """A redis-server subprocess on a free loopback port, without persistence."""

    def __init__(self, executable: str) -> None:
        self._executable = executable
        self.port = _free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self._process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the server (on the same port as before) and wait until it answers."""
        self._process = subprocess.Popen(
            [
                self._executable,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--loglevel",
                "warning",
            ],
            stdout=subprocess.DEVNULL,
        )
        client = redis.Redis(port=self.port, socket_connect_timeout=0.2)
        deadline = time.monotonic() + _START_TIMEOUT
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if self._process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"redis-server did not start on port {self.port}") from None
                time.sleep(0.05)
            finally:
                client.close()

    def stop(self) -> None:
        """Stop the server, losing its data (it has no persistence)."""
        if self._process is None:
            return
        self._process.terminate()
        try:
            self._process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._process = None

    @contextlib.contextmanager
    def frozen(self) -> Iterator[None]:
        """Stop the server process (SIGSTOP): connections hang instead of failing."""
        assert self._process is not None
        self._process.send_signal(signal.SIGSTOP)
        try:
            yield
        finally:
            self._process.send_signal(signal.SIGCONT)

    @property
    def running(self) -> bool:
        return self._process is not None

    def flush(self) -> None:
        """Empty every database of the server."""
        with self.client() as client:
            client.flushall()

    def client(self) -> redis.Redis:
        """A synchronous redis-py client of this server, for the caller's own checks."""
        return redis.Redis(port=self.port, socket_timeout=5)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def started_server() -> RedisServer:
    """A running redis-server; without one the test fails (an error, never a skip)."""
    executable = find_redis_server()
    if executable is None:
        pytest.fail(MISSING, pytrace=False)
    server = RedisServer(executable)
    server.start()
    return server
