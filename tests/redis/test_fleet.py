"""Fleets of real Scrapy processes sharing a scrapy-redis queue and the Redis robots.txt cache."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import pytest

pytest.importorskip("scrapy_redis", reason="scrapy-redis is not installed (extra 'test')")

from tests.redis.fleet import (
    ALLOWED_PATHS,
    DISALLOWED_PATHS,
    ROBOTS,
    Worker,
    assert_crawled_once_and_obeyed,
    parked,
    push,
    start_origins,
    stop_all,
    urls_of,
)
from tests.sites import Hit, Reply, Route, Site, Sites, text
from tests.waiting import wait_until

ORIGINS = 50


@pytest.fixture
def start_fleet_origins(sites: Sites) -> Iterator[Callable[..., list[Site]]]:
    """``start_fleet_origins(count, robots=None)``; all are stopped together afterwards."""
    started: list[Site] = []

    def start(count: int, robots: Route | None = None) -> list[Site]:
        new = start_origins(sites, count, robots)
        started.extend(new)
        return new

    yield start
    stop_all(started)


def test_fleet_fetches_each_robots_txt_once_and_obeys_it(start_fleet_origins, start_worker, queue_server) -> None:
    origins = start_fleet_origins(ORIGINS)
    # Not idle for long before the push; a lock outlives a busy machine's late renewal.
    workers = [start_worker(f"w{n}", idle=10, lock_timeout=10) for n in range(2)]
    wait_until(lambda: all("Spider opened" in worker.log() for worker in workers), 60, "both workers run")
    push(queue_server, urls_of(origins))
    stats = [worker.finish() for worker in workers]

    assert_crawled_once_and_obeyed(origins)
    assert sum(s.get("rep/robots/outcome/rules", 0) for s in stats) == ORIGINS
    assert sum(s.get("rep/requests/disallowed", 0) for s in stats) == ORIGINS
    # How scrapy-redis spreads pages over the workers is its own (on a loaded machine one may take
    # them all); when both crawled, rules reached one of them through Redis.
    if all(s.get("downloader/response_count", 0) > 0 for s in stats):
        assert sum(s.get("rep/cache/shared_hits", 0) for s in stats) > 0, "rules came through Redis"
    assert sum(s.get("rep/redis/lock/acquired", 0) for s in stats) == ORIGINS, "one fetch lock per origin"


def test_a_killed_fetcher_is_taken_over_after_the_lock_timeout(
    start_fleet_origins, start_worker, redis_server, queue_server
) -> None:
    lock_timeout = 2.0
    others = start_fleet_origins(ORIGINS - 1)
    takeover = Reply(body=ROBOTS.encode(), delay=1.5)  # longer than a waiter's poll: others see a free lock
    [stuck] = start_fleet_origins(1, robots=[Reply(hang=True), takeover])
    holder = start_worker("holder", lock_timeout=lock_timeout, concurrency=1)
    push(queue_server, [stuck.url + "/"])
    wait_until(lambda: stuck.hits("/robots.txt"), 30, "the holder fetches the hanging robots.txt")
    with redis_server.client() as client:
        [lock] = client.keys("rep:{*}:lock")
        assert client.get(lock).split(b":")[1] == str(holder.process.pid).encode()

    other_urls = urls_of(others)
    stuck_urls = [stuck.url + path for path in ALLOWED_PATHS[1:] + DISALLOWED_PATHS]
    push(queue_server, stuck_urls)
    workers = [start_worker(f"w{n}", lock_timeout=lock_timeout, concurrency=2) for n in range(2)]
    waiting = len(stuck_urls) + 1
    wait_until(lambda: parked(queue_server) == waiting, 30, "the stuck origin's requests wait, parked in Redis")
    holder.kill()
    killed_at = time.monotonic()
    push(queue_server, other_urls)  # after the kill: pages inside a killed worker's downloader are scrapy-redis's
    for worker in workers:
        worker.finish()

    assert_crawled_once_and_obeyed(others)
    robots_hits = stuck.hits("/robots.txt")
    assert len(robots_hits) == 2, "exactly one takeover fetch after the holder died"
    assert robots_hits[1].time - killed_at > lock_timeout / 2, "the lock outlived its holder until it expired"
    assert sorted(stuck.paths()) == sorted(["/robots.txt"] * 2 + list(ALLOWED_PATHS)), (
        "the waiting workers crawled the origin, also the request the killed worker had parked"
    )


def test_crawl_survives_a_redis_outage_and_shares_again_after_it(
    start_fleet_origins, start_worker, redis_server, queue_server
) -> None:
    redis_down, redis_back = threading.Event(), threading.Event()
    early = start_fleet_origins(15)
    during = start_fleet_origins(15, robots=_gated(redis_down))
    after = start_fleet_origins(10, robots=_gated(redis_back))
    linked = start_fleet_origins(10)
    links = "".join(f'<a href="{url}">x</a>' for url in urls_of(linked))
    for origin in after:
        page = Reply(body=links.encode(), headers={"Content-Type": "text/html"})
        origin.routes.update(dict.fromkeys(ALLOWED_PATHS, page))
    try:
        push(queue_server, urls_of(early + during + after))
        # The outage is a stopped server (refused at once); a starved worker's event loop (scrapy-redis
        # calls Redis synchronously) must not read as one, as it would with the default 1 s timeout.
        workers = [
            start_worker(f"w{n}", concurrency=200, lock_timeout=10, settings={"REP_REDIS_TIMEOUT": 10})
            for n in range(2)
        ]
        wait_until(lambda: _all_crawled(early), 30, "the first origins are crawled")
        down_at = time.monotonic()
        redis_server.stop()
        redis_down.set()
        wait_until(lambda: _all_crawled(during), 30, "origins are crawled during the outage")
        redis_server.start()
        # Each worker writes back what it fetched alone, so each notices the return (a sleep here
        # let a worker still counting Redis away meet the last origins and fetch them alone).
        wait_until(lambda: all(_sees_redis_back(worker) for worker in workers), 30, "every worker sees Redis back")
        redis_back.set()
        stats = [worker.finish() for worker in workers]
    finally:
        redis_down.set()
        redis_back.set()

    assert_crawled_once_and_obeyed(linked)
    for origin in early:
        # A worker that meets an early origin only once Redis is away (its disallowed request, say)
        # fetches its own: while Redis was up, the fleet fetched each robots.txt once.
        fetched = [hit.time for hit in origin.hits("/robots.txt")]
        assert sum(at < down_at for at in fetched) == 1, (origin, fetched, down_at)
    for origin in early + during + after:
        paths = origin.paths()
        assert 1 <= paths.count("/robots.txt") <= len(workers), (origin, paths)
        assert sorted(path for path in paths if path != "/robots.txt") == sorted(ALLOWED_PATHS), (origin, paths)
    logs = [worker.log() for worker in workers]
    assert all(log.count("Redis (REP_CACHE_BACKEND) is unavailable") <= 1 for log in logs), "one warning per outage"
    assert any("Redis (REP_CACHE_BACKEND) is available again" in log for log in logs)
    assert sum(s.get("rep/requests/disallowed", 0) for s in stats) == ORIGINS
    assert all(s.get("rep/redis/outages", 0) <= 1 for s in stats)
    assert sum(s.get("rep/redis/outages", 0) for s in stats) >= 1, "the outage is counted in the stats"
    assert sum(s.get("rep/redis/resynced", 0) for s in stats) >= 1
    with redis_server.client() as client:
        # rep:{<scope>:<origin>}; the scope has no colon (its parts are percent-encoded)
        shared = {key.decode()[len("rep:{") : -1].split(":", 1)[1] for key in client.keys("rep:{*}")}
    assert {o.url for o in during + after + linked} <= shared, "records of the outage were written back"


def _gated(gate: threading.Event) -> Callable[[Hit], Reply]:
    """A robots.txt route that answers only once ``gate`` is set."""

    def answer(hit: Hit) -> Reply:
        gate.wait(60)
        return text(ROBOTS)

    return answer


def _all_crawled(origins: list[Site]) -> bool:
    return all(sum(1 for path in o.paths() if path != "/robots.txt") >= len(ALLOWED_PATHS) for o in origins)


def _sees_redis_back(worker: Worker) -> bool:
    """``worker`` ended, never met the outage, or has met Redis again."""
    log = worker.log()
    away = "Redis (REP_CACHE_BACKEND) is unavailable" in log
    return worker.process.poll() is not None or not away or "Redis (REP_CACHE_BACKEND) is available again" in log
