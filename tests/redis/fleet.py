"""A test fleet: loopback origins to crawl and Scrapy worker subprocesses sharing Redis."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.redis import fleet_worker
from tests.redis.server import AnyServer, RedisServer
from tests.sites import Reply, Route, Site, Sites

ROOT = Path(__file__).resolve().parents[2]
ROBOTS = "User-agent: *\nDisallow: /private\n"
ALLOWED_PATHS = ("/", "/p1", "/p2", "/p3", "/p4")
DISALLOWED_PATHS = ("/private/1",)
WORKER_TIMEOUT = 60.0
ROBOTS_DELAY = 0.3
"""Seconds each robots.txt takes, so that several workers meet an origin while it is fetched."""


def start_origins(sites: Sites, count: int, robots: Route | None = None) -> list[Site]:
    """``count`` origins serving ``ROBOTS`` slowly (or ``robots``) and plain pages."""
    default = Reply(body=ROBOTS.encode(), headers={"Content-Type": "text/plain"}, delay=ROBOTS_DELAY)
    return [sites.start({"/robots.txt": robots or default}) for _ in range(count)]


def urls_of(origins: list[Site]) -> list[str]:
    """Every page of the origins, allowed and disallowed, in random order."""
    urls = [origin.url + path for origin in origins for path in ALLOWED_PATHS + DISALLOWED_PATHS]
    random.shuffle(urls)
    return urls


def push(
    queue: RedisServer, urls: list[str], priority: int = 0, kind: str = "scrapy_redis.queue.PriorityQueue"
) -> None:
    """Put requests for ``urls`` on the fleet's shared scrapy-redis queue (of class ``kind``; higher priority first)."""
    with queue.client() as client:
        fleet_worker.push(client, urls, priority, kind)


def queued(queue: RedisServer) -> int:
    """Requests still waiting in the fleet's shared queue."""
    with queue.client() as client:
        return client.zcard(fleet_worker.QUEUE_KEY)


def parked(queue: RedisServer) -> int:
    """Requests parked in the queue's Redis until their robots.txt is obtained, by any worker."""
    with queue.client() as client:
        return sum(client.zcard(key) for key in client.keys(f"{{{fleet_worker.QUEUE_KEY}}}:rep_parked:*"))


def stop_all(origins: list[Site]) -> None:
    """Stop many sites at once (each stop waits for its server's poll interval)."""
    with ThreadPoolExecutor(max_workers=len(origins) or 1) as pool:
        list(pool.map(Site.stop, origins))


def assert_crawled_once_and_obeyed(origins: list[Site]) -> None:
    """Each origin: one robots.txt fetch, every allowed page once, nothing disallowed."""
    for origin in origins:
        paths = origin.paths()
        assert paths.count("/robots.txt") == 1, (origin, paths)
        assert sorted(path for path in paths if path != "/robots.txt") == sorted(ALLOWED_PATHS), (origin, paths)


def wait_until(condition: Callable[[], object], timeout: float, what: str) -> None:
    """Poll ``condition`` until it is true; fail naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.05)


@dataclass
class Worker:
    """One ``tests.redis.fleet_worker`` subprocess."""

    name: str
    process: subprocess.Popen[bytes]
    stats_file: Path
    log_file: Path

    @classmethod
    def start(
        cls,
        name: str,
        workdir: Path,
        queue: RedisServer,
        cache: AnyServer | None,
        *,
        lock_timeout: float = 2.0,
        idle: int = 3,
        concurrency: int = 32,
        settings: dict[str, Any] | None = None,
    ) -> Worker:
        stats_file, log_file = workdir / f"{name}.stats.json", workdir / f"{name}.log"
        command = [
            sys.executable,
            "-m",
            "tests.redis.fleet_worker",
            "--name",
            name,
            "--queue-url",
            queue.url,
            "--lock-timeout",
            str(lock_timeout),
            "--download-timeout",
            "5",
            "--idle",
            str(idle),
            "--concurrency",
            str(concurrency),
            "--stats-file",
            str(stats_file),
            "--log-file",
            str(log_file),
        ]
        if cache is not None:
            command += ["--cache-url", cache.url]
            if cache.client_params:
                command += ["--setting", f"REP_REDIS_PARAMS={json.dumps(cache.client_params)}"]
        for setting, value in (settings or {}).items():
            command += ["--setting", f"{setting}={json.dumps(value)}"]
        process = subprocess.Popen(command, cwd=ROOT, stderr=subprocess.PIPE)
        return cls(name, process, stats_file, log_file)

    def finish(self, timeout: float = WORKER_TIMEOUT) -> dict[str, Any]:
        """Wait for the worker to close by itself; its crawl stats."""
        try:
            _, stderr = self.process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"worker {self.name} did not finish in {timeout:g}s; see {self.log_file}") from None
        assert self.process.returncode == 0, f"worker {self.name} failed: {stderr.decode()[-2000:]}"
        return json.loads(self.stats_file.read_text())

    def terminate(self) -> dict[str, Any]:
        """SIGTERM: the worker closes as Scrapy does on a first Ctrl-C; its crawl stats."""
        self.process.send_signal(signal.SIGTERM)
        return self.finish()

    def kill(self) -> None:
        """SIGKILL: the worker dies at once, as in a crash (nothing if it already ended)."""
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.communicate()

    def log(self) -> str:
        return self.log_file.read_text() if self.log_file.exists() else ""
