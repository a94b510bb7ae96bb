"""What a fleet promises as a whole (docs/stores.md), judged by what the origins' servers saw.

Each test runs several real Scrapy processes (``tests.redis.fleet_worker``) on one scrapy-redis
queue and one Redis store, against loopback origins served by this process.
"""

from __future__ import annotations

import itertools
import signal
import socket
import threading
from collections.abc import Callable, Iterator

import pytest

pytest.importorskip("scrapy_redis", reason="scrapy-redis is not installed (extra 'test')")

from scrapy_robots_rep.stores import SharedStore
from scrapy_robots_rep.stores.redis import RedisStore
from scrapy_robots_rep.stores.redis_scripts import RECORD_HEADER
from tests.redis.fleet import ROBOTS, Worker, parked, push, start_origins, stop_all
from tests.redis.server import RedisServer
from tests.sites import Hit, Reply, Site, Sites, text
from tests.waiting import wait_until

CRAWL_DELAY = 1.0
BURST = 300
"""New origins two workers meet at once."""


@pytest.fixture
def many_origins(sites: Sites) -> Iterator[Callable[[int], list[Site]]]:
    """``many_origins(count)``: origins serving a slow robots.txt; all are stopped together afterwards."""
    started: list[Site] = []

    def start(count: int) -> list[Site]:
        started.extend(start_origins(sites, count))
        return started[-count:]

    yield start
    stop_all(started)


def worker_of(hit: Hit) -> str:
    """The worker that sent ``hit`` (its User-Agent is ``fleetbot/1.0 (<name>)``)."""
    return hit.headers.get("User-Agent", "").rpartition("(")[2].rstrip(")")


def pages(site: Site) -> list[Hit]:
    return sorted((hit for hit in site.hits() if hit.path != "/robots.txt"), key=lambda hit: hit.time)


def test_crawl_delay_holds_across_the_fleet(sites: Sites, start_worker, queue_server) -> None:
    """Also when a later middleware returns a copy of each request in place of it (the copy, holding
    the origin's slot, goes to the shared queue and may be crawled by another worker)."""
    site = sites.start({"/robots.txt": text(f"User-agent: *\nCrawl-delay: {CRAWL_DELAY:g}\n")})
    paths = [f"/p{number}" for number in range(9)]
    swapping = {
        "DOWNLOADER_MIDDLEWARES": {
            "scrapy_robots_rep.RobotsMiddleware": 100,
            "tests.redis.fleet_worker.SwappingMiddleware": 200,
        }
    }
    workers = [start_worker(f"w{number}", concurrency=2, idle=10, settings=swapping) for number in range(3)]
    # All run before the pages arrive, so that they share them (a loaded machine may start one late).
    wait_until(lambda: all("Spider opened" in worker.log() for worker in workers), 60, "the workers run")
    push(queue_server, [site.url + path for path in paths])
    stats = [worker.finish() for worker in workers]

    hits = pages(site)
    assert sorted(hit.path for hit in hits) == sorted(paths), "every page once"
    assert len({worker_of(hit) for hit in hits}) >= 2, "the workers shared the origin"
    gaps = [later.time - earlier.time for earlier, later in itertools.pairwise(hits)]
    assert min(gaps) >= CRAWL_DELAY, f"two requests {min(gaps):.3f}s apart; robots.txt asked for {CRAWL_DELAY:g}s"
    # Each request and its copy took the slot once; the request freed it at once, as nothing was sent.
    assert sum(s.get("rep/crawl_delay/fleet_slots", 0) for s in stats) == 2 * len(paths)
    assert sum(s.get("rep/crawl_delay/fleet_slots_given_up", 0) for s in stats) == 0


def test_a_burst_of_new_origins_is_fetched_once_for_the_whole_fleet(many_origins, start_worker, queue_server) -> None:
    origins = many_origins(BURST)
    workers = [start_worker(f"w{number}", concurrency=BURST, lock_timeout=10, idle=10) for number in range(2)]
    # Both run before the burst arrives, so both meet it (a loaded machine may start one late).
    wait_until(lambda: all("Spider opened" in worker.log() for worker in workers), 60, "both workers run")
    push(queue_server, [origin.url + path for origin in origins for path in ("/a", "/b")])
    stats = [worker.finish() for worker in workers]

    fetches = {origin.url: len(origin.hits("/robots.txt")) for origin in origins}
    assert sorted(set(fetches.values())) == [1], {url: n for url, n in fetches.items() if n != 1}
    for origin in origins:
        assert sorted(path for path in origin.paths() if path != "/robots.txt") == ["/a", "/b"], origin
    logs = [worker.log() for worker in workers]
    assert not any("is unavailable" in log for log in logs), "a burst is no outage"
    assert sum(s.get("rep/redis/errors", 0) for s in stats) == 0
    # How scrapy-redis spreads the pages is its own (on a loaded machine one worker may take most):
    # each origin a worker crawled without fetching its robots.txt, it obtained from Redis.
    for worker, worker_stats in zip(workers, stats, strict=True):
        borrowed = [
            origin
            for origin in origins
            if worker.name in {worker_of(hit) for hit in pages(origin)}
            and worker.name not in {worker_of(hit) for hit in origin.hits("/robots.txt")}
        ]
        assert worker_stats.get("rep/cache/shared_hits", 0) >= len(borrowed), (worker.name, len(borrowed))


@pytest.mark.parametrize("redis_returns", ["while the worker runs", "while the worker closes"])
def test_records_obtained_while_redis_was_away_reach_it(
    sites: Sites, start_worker, queue_server, redis_server, redis_returns: str
) -> None:
    site = sites.start({"/robots.txt": text(ROBOTS)})
    redis_server.stop()
    worker = start_worker("w0", idle=60)
    push(queue_server, [site.url + "/"])
    wait_until(lambda: "/" in site.paths(), 30, "the page is crawled while Redis is away")
    if redis_returns == "while the worker runs":
        redis_server.start()
        wait_until(lambda: _shared_origins(redis_server), 30, "the record is written once Redis answers")
        stats = worker.terminate()
    else:
        worker.process.send_signal(signal.SIGTERM)
        wait_until(lambda: "Closing spider" in worker.log(), 30, "the worker closes")
        redis_server.start()
        stats = worker.finish()

    assert _shared_origins(redis_server) == {site.url}
    assert stats.get("rep/redis/resynced") == 1
    assert "is unavailable" in worker.log()


def _shared_origins(server: RedisServer) -> set[str]:
    """The origins whose record Redis holds (``rep:{<scope>:<origin>}``, the scope has no colon)."""
    with server.client() as client:
        return {key.decode()[len("rep:{") : -1].split(":", 1)[1] for key in client.keys("rep:{*}")}


def test_the_store_defaults_to_scrapy_redis_url_and_each_worker_writes_its_own_report(
    sites: Sites, tmp_path, queue_server
) -> None:
    origins = [sites.start({"/robots.txt": text(ROBOTS)}) for _ in range(4)]
    push(queue_server, [origin.url + path for origin in origins for path in ("/a", "/b", "/c")])
    store_on_redis_url = {
        "REP_CACHE_BACKEND": "scrapy_robots_rep.RedisStore",
        "REP_REPORT": str(tmp_path / "report-{worker}.json"),
    }
    workers = [
        Worker.start(f"w{number}", tmp_path, queue_server, None, concurrency=2, settings=store_on_redis_url)
        for number in range(2)
    ]
    try:
        stats = [worker.finish() for worker in workers]
    finally:
        for worker in workers:
            worker.kill()

    assert [len(origin.hits("/robots.txt")) for origin in origins] == [1] * len(origins), "shared through REDIS_URL"
    assert all(f"RedisStore at {queue_server.url} (from REDIS_URL)" in worker.log() for worker in workers)
    reports = sorted(path.name for path in tmp_path.glob("report-*.json"))
    assert reports == sorted(f"report-{socket.gethostname()}-{worker.process.pid}.json" for worker in workers)
    assert sum(s.get("rep/requests/allowed", 0) for s in stats) == 3 * len(origins)


PAGES = tuple(f"/p{number}" for number in range(10))
LOCK_TIMEOUT = 2.0
"""Of the fetch locks and the leases of parked requests, in the SIGKILL tests."""


@pytest.mark.parametrize("moment", ["before", "during", "after"])
def test_no_waiting_request_is_lost_when_a_worker_is_killed(
    moment: str, sites: Sites, start_worker, queue_server, redis_server
) -> None:
    """The victim takes every request and parks them; it is killed before its robots.txt fetches
    start (another process seems to fetch), while they are in flight, or after some were obtained."""
    robots_answer = threading.Event()

    def gated(hit: Hit) -> Reply:
        robots_answer.wait(60)
        return text(ROBOTS)

    fast = [sites.start({"/robots.txt": text(ROBOTS)}) for _ in range(5 if moment == "after" else 0)]
    slow = [sites.start({"/robots.txt": gated}) for _ in range(10 - len(fast))]
    if moment == "before":
        with redis_server.client() as client:
            for origin in slow:
                client.set(f"rep:{{fleetbot/rfc9309/rfc9309:{origin.url}}}:lock", "elsewhere:1:x", px=60_000)
    try:
        push(queue_server, [origin.url + path for origin in fast + slow for path in PAGES])
        victim = start_worker("victim", lock_timeout=LOCK_TIMEOUT)
        wait_until(lambda: parked(queue_server) == len(slow) * len(PAGES), 30, "the waiting requests are kept in Redis")
        if moment == "during":
            wait_until(lambda: all(origin.hits("/robots.txt") for origin in slow), 30, "its robots.txt fetches run")
        if moment == "after":
            wait_until(lambda: all(len(o.hits()) == len(PAGES) + 1 for o in fast), 30, "the fast origins are crawled")
        if moment == "before":
            assert not any(origin.hits("/robots.txt") for origin in slow), "nothing fetched yet"
        victim.kill()
        if moment == "before":
            with redis_server.client() as client:
                client.delete(*client.keys("rep:{*}:lock"))
        robots_answer.set()
        survivors = [start_worker(f"w{number}", lock_timeout=LOCK_TIMEOUT, idle=10) for number in range(2)]
        stats = [survivor.finish() for survivor in survivors]
    finally:
        robots_answer.set()

    for origin in fast + slow:
        crawled = sorted(path for path in origin.paths() if path != "/robots.txt")
        assert crawled == sorted(PAGES), f"{origin}: every page exactly once, got {crawled}"
    assert parked(queue_server) == 0
    assert sum(s.get("rep/parked/swept", 0) for s in stats) == len(slow) * len(PAGES), "found through the lease"


def test_records_are_compact_and_every_key_expires(
    sites: Sites, start_worker, queue_server, redis_server, corpus
) -> None:
    files = sorted((corpus / "robots").glob("*.txt"))[:40]
    origins = [sites.start({"/robots.txt": text(path.read_bytes())}) for path in files]
    push(queue_server, [origin.url + "/" for origin in origins])
    workers = [start_worker(f"w{number}", concurrency=8, lock_timeout=10) for number in range(2)]
    for worker in workers:
        worker.finish()

    assert [len(origin.hits("/robots.txt")) for origin in origins] == [1] * len(origins)
    with redis_server.client() as client:
        keys = client.keys("rep:*")
        records = [key for key in keys if key.endswith(b"}")]
        assert len(records) == len(origins)
        lifetime = 86400 + 30 * 86400  # REP_CACHE_TTL and the stale window, REP_UNREACHABLE_MAX_AGE
        ttls = {key: client.ttl(key) for key in keys}
        expired = -2  # gone since KEYS listed it: it had a lifetime
        # 0: less than a second left (a slot key lives a second past its slot)
        assert all(0 <= ttl <= lifetime or ttl == expired for ttl in ttls.values()), f"every key expires: {ttls}"
        used = sum(client.memory_usage(key) for key in records)
        plain = sum(len(SharedStore.encode(record)) for record in _stored(client, records))
    assert used < plain / 2, (
        f"{used / len(records):.0f} bytes of Redis per origin for {plain / len(records):.0f} of JSON"
    )


def _stored(client, keys):
    from scrapy.utils.test import get_crawler

    reader = RedisStore.from_crawler(get_crawler(settings_dict={"REP_REDIS_URL": "redis://127.0.0.1:1/0"}))
    for key in keys:
        record = reader.decode(key.decode(), client.get(key)[RECORD_HEADER.size :])
        assert record is not None
        yield record
