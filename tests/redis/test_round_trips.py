"""What the shared store costs per request, as Redis saw it (``MONITOR``, on a cluster on every node):
no round trip for a request to an origin without a Crawl-delay, two (take the origin's slot, free
it) with a delay, on each server kind a fleet runs on (Redis 7, Redis 6.2, Valkey, TLS with an ACL
user, a Redis Cluster)."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import pytest_twisted
import redis

from tests.crawling import crawl
from tests.redis.server import AnyServer, ClusterServer, RedisServer, ServerKind
from tests.settings.redis_store import shared_cache
from tests.sites import Sites, text

FEW, MANY = 2, 8
END = "end-of-crawl"


@contextmanager
def monitored(server: AnyServer) -> Iterator[list[str]]:
    """The commands clients send to ``server`` (on a cluster, to any node) while inside (not those a Lua script runs)."""
    commands: list[str] = []
    with contextlib.ExitStack() as stack:
        for node in server.nodes if isinstance(server, ClusterServer) else [server]:
            stack.enter_context(_monitored(node, commands))
        yield commands


@contextmanager
def _monitored(node: RedisServer, commands: list[str]) -> Iterator[None]:
    seen: list[str] = []
    client = node.client()
    monitor = client.monitor()
    monitor.__enter__()
    ready = threading.Event()

    def listen() -> None:
        ready.set()
        try:
            for entry in monitor.listen():
                if entry["client_type"] != "lua":
                    seen.append(entry["command"])
        except (redis.ConnectionError, ValueError, AttributeError):
            return

    thread = threading.Thread(target=listen, daemon=True)
    thread.start()
    ready.wait(5)
    try:
        yield
    finally:
        client.echo(END)  # MONITOR lists it after every command sent before it
        deadline = time.monotonic() + 30
        while not seen or END not in seen[-1]:
            assert time.monotonic() < deadline, "MONITOR never listed the end marker"
            time.sleep(0.01)
        seen.pop()
        commands.extend(seen)
        monitor.connection.disconnect()
        thread.join(5)
        client.close()


async def round_trips(server: AnyServer, sites: Sites, robots: str, pages: int) -> int:
    """Commands a crawl of ``pages`` pages of a new origin serving ``robots`` sends to Redis."""
    site = sites.start({"/robots.txt": text(robots)})
    urls = [f"{site.url}/p{number}" for number in range(pages)]
    with monitored(server) as commands:
        result = await crawl(urls, settings=shared_cache(server))
    assert result.stat("rep/requests/allowed") == pages
    return len([command for command in commands if not command.startswith(("HELLO", "CLIENT SETINFO", "SCRIPT LOAD"))])


@pytest.mark.parametrize(
    "_server_of_each_kind", list(ServerKind), ids=[kind.value for kind in ServerKind], indirect=True
)
@pytest.mark.parametrize(
    ("robots", "per_request"),
    [("User-agent: *\nDisallow: /private\n", 0), ("User-agent: *\nCrawl-delay: 0.2\n", 2)],
    ids=["without a delay", "with a delay"],
)
@pytest_twisted.ensureDeferred
async def test_redis_round_trips_per_request(
    sites: Sites, server_of_each_kind: AnyServer, robots: str, per_request: int
) -> None:
    server = server_of_each_kind
    await round_trips(server, sites, robots, FEW)  # the first crawl also loads the store's scripts
    few = await round_trips(server, sites, robots, FEW)
    many = await round_trips(server, sites, robots, MANY)
    assert (many - few) / (MANY - FEW) == per_request, (few, many)
