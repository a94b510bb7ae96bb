"""Requests parked in the scheduler's Redis (``docs/stores.md``): each is crawled exactly once, with
its own ``dont_filter``, on every scrapy-redis queue and when Redis refuses the park; parking keys
expire, are flushed with the queue, and are not left behind by a crawl that does not persist."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator

import pytest

pytest.importorskip("scrapy_redis", reason="scrapy-redis is not installed (extra 'test')")

from tests.redis.fleet import ROBOTS, parked, push, start_origins, stop_all, wait_until
from tests.redis.fleet_worker import QUEUE_KEY
from tests.redis.server import RedisServer
from tests.sites import Hit, Reply, Route, Site, Sites, redirect, text

PAGES = ("/p1", "/p2")
REDIRECTS = ("/r1", "/r2", "/r3")
"""Pages that all redirect to ``/login``."""


@pytest.fixture
def new_gate() -> Iterator[Callable[[], threading.Event]]:
    """``new_gate()``: an event to set to let gated robots.txt answer; all are set at the end of the test."""
    events: list[threading.Event] = []

    def new() -> threading.Event:
        events.append(threading.Event())
        return events[-1]

    yield new
    for event in events:
        event.set()


@pytest.fixture
def started(sites: Sites) -> Iterator[Callable[..., list[Site]]]:
    """``started(count, robots=None)``: origins serving a slow robots.txt; all stopped afterwards."""
    origins: list[Site] = []

    def start(count: int, robots: Route | None = None) -> list[Site]:
        new = start_origins(sites, count, robots)
        origins.extend(new)
        return new

    yield start
    stop_all(origins)


def gated(gate: threading.Event) -> Callable[[Hit], Reply]:
    """A robots.txt answer that waits for ``gate``."""

    def answer(hit: Hit) -> Reply:
        gate.wait(60)
        return text(ROBOTS)

    return answer


def refusing_scripts(server: RedisServer) -> Callable[[], None]:
    """Make ``server`` refuse every script (an ACL error, as a managed Redis may); returns the undo."""
    with server.client() as client:
        client.execute_command("ACL", "SETUSER", "default", "-@scripting")

    def undo() -> None:
        with server.client() as client:
            client.execute_command("ACL", "SETUSER", "default", "+@all")

    return undo


@pytest.mark.parametrize(
    ("queue_class", "refused"),
    [
        ("scrapy_redis.queue.PriorityQueue", True),
        ("scrapy_redis.queue.FifoQueue", False),
        ("scrapy_redis.queue.LifoQueue", False),
    ],
    ids=["Redis refuses the park", "FIFO queue", "LIFO queue"],
)
def test_parked_requests_are_crawled_once_with_their_own_dont_filter(
    started, start_worker, queue_server: RedisServer, queue_class: str, refused: bool
) -> None:
    origins = started(4)
    for origin in origins:
        origin.routes.update(dict.fromkeys(REDIRECTS, redirect("/login", 302)))
    # The pages are links of a hub's page: the scheduler's dupefilter sees them when they are parked.
    links = "".join(f'<a href="{origin.url}{path}">x</a>' for origin in origins for path in PAGES + REDIRECTS)
    [hub] = started(1)
    hub.routes["/"] = Reply(body=links.encode(), headers={"Content-Type": "text/html"})
    undo = refusing_scripts(queue_server) if refused else None
    try:
        push(queue_server, [hub.url + "/"], kind=queue_class)
        worker = start_worker("w0", settings={"SCHEDULER_QUEUE_CLASS": queue_class})
        stats = worker.finish()
    finally:
        if undo is not None:
            undo()

    for origin in origins:
        # Parked while robots.txt was fetched, then released: once each, and the redirects of all
        # of them to one page fetch it once (they got their own dont_filter back).
        assert sorted(origin.paths()) == sorted(["/robots.txt", "/login", *PAGES, *REDIRECTS]), origin
    assert stats.get("rep/requests/deferred", 0) > 0, "requests waited for robots.txt"
    assert ("Could not park" in worker.log()) is refused, "parked in Redis unless Redis refused it"
    assert parked(queue_server) == 0


def test_a_fresh_crawl_after_a_killed_one_starts_from_nothing_and_leaves_nothing(
    started, start_worker, queue_server: RedisServer, new_gate
) -> None:
    killed_gate = new_gate()
    """A killed crawl's parked requests expire and are flushed with the queue
    (``SCHEDULER_FLUSH_ON_START``); a crawl that does not persist its queue (``SCHEDULER_PERSIST``
    False) leaves none in Redis when it closes."""
    killed_run = started(5, robots=gated(killed_gate))
    push(queue_server, [origin.url + path for origin in killed_run for path in PAGES])
    victim = start_worker("victim", lock_timeout=2.0)
    wait_until(lambda: parked(queue_server) == len(killed_run) * len(PAGES), 30, "the victim parks its requests")
    with queue_server.client() as client:
        lifetimes = {key: client.pttl(key) for key in client.keys(b"{%s}:rep_parked*" % QUEUE_KEY.encode())}
    assert lifetimes and all(ttl > 0 for ttl in lifetimes.values()), f"every parking key expires: {lifetimes}"
    victim.kill()
    killed_gate.set()  # the killed run's origins answer now: their requests would be crawled if still there

    fresh_run = started(5)
    late = started(2, robots=gated(new_gate()))
    # Not idle for long before the push (a loaded machine may be slow to see it open).
    fresh = start_worker(
        "fresh", lock_timeout=2.0, idle=10, settings={"SCHEDULER_FLUSH_ON_START": True, "SCHEDULER_PERSIST": False}
    )
    # Scrapy logs "Spider opened" before the scheduler opens (and flushes); LogStats' first line comes after.
    wait_until(lambda: "Crawled 0 pages" in fresh.log(), 60, "the fresh crawl runs (its queue flushed)")
    push(queue_server, [origin.url + path for origin in fresh_run + late for path in PAGES])
    wait_until(
        lambda: parked(queue_server) == len(late) * len(PAGES), 30, "the fresh crawl parks the late origins' requests"
    )
    wait_until(lambda: all(len(origin.hits()) == 1 + len(PAGES) for origin in fresh_run), 60, "the others are crawled")
    fresh.terminate()

    for origin in fresh_run:
        assert sorted(origin.paths()) == sorted(["/robots.txt", *PAGES]), origin
    for origin in killed_run + late:
        assert [path for path in origin.paths() if path != "/robots.txt"] == [], origin
    with queue_server.client() as client:
        left = sorted(key.decode() for key in client.keys(b"{%s}:rep_parked*" % QUEUE_KEY.encode()))
        assert client.exists(QUEUE_KEY) == 0, "scrapy-redis flushed its queue at close"
    # Only the recent park ids remain (they expire), for the parks of another process still running.
    assert left in ([], [f"{{{QUEUE_KEY}}}:rep_parked_ids"]), left


def test_requests_parked_by_a_stalled_worker_are_crawled_once(
    started, start_worker, queue_server: RedisServer, new_gate
) -> None:
    """A worker that stops renewing its leases without dying (stopped, swapping, a long pause): the
    others sweep its requests into the queue and crawl them; when it goes on, it crawls none again."""
    first_fetch = new_gate()
    origins = started(5, robots=[gated(first_fetch), text(ROBOTS)])
    push(queue_server, [origin.url + path for origin in origins for path in PAGES])
    victim = start_worker("victim", lock_timeout=2.0)
    wait_until(lambda: parked(queue_server) == len(origins) * len(PAGES), 30, "the victim parks its requests")
    wait_until(lambda: all(origin.hits("/robots.txt") for origin in origins), 30, "it fetches their robots.txt")
    victim.process.send_signal(signal.SIGSTOP)
    try:
        survivor = start_worker("survivor", lock_timeout=2.0, idle=10)
        wait_until(lambda: all(len(origin.hits()) == 2 + len(PAGES) for origin in origins), 60, "the survivor crawls")
    finally:
        first_fetch.set()
        victim.process.send_signal(signal.SIGCONT)
    stats = [victim.finish(), survivor.finish()]

    for origin in origins:
        assert sorted(origin.paths()) == sorted(["/robots.txt"] * 2 + list(PAGES)), origin
    assert stats[1].get("rep/parked/swept") == len(origins) * len(PAGES)
    assert parked(queue_server) == 0
