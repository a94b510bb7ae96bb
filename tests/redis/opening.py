"""Opening ``RedisStore`` instances ("processes") for the store's own tests, and closing them."""

from __future__ import annotations

from collections.abc import Iterator

from scrapy_robots_rep.stores.redis import RedisStore
from tests.redis.server import AnyServer
from tests.settings.redis_store import shared_cache
from tests.stores.contract import Opener, opened_processes


def opened_stores(server: AnyServer) -> Iterator[Opener]:
    """A fixture's body: yields ``open_one(**settings)``, which opens a store on ``server`` (with its
    client options: a CA...) for agent ``testbot``; every store opened is closed when the fixture ends."""
    yield from opened_processes(RedisStore, shared_cache(server))
