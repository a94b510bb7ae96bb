"""Opening ``RedisStore`` instances ("processes") for the store's own tests, and closing them."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from scrapy_robots_rep.stores.redis import RedisStore
from tests.stores.contract import Process
from tests.stores.on_asyncio import run


def opened_stores(url: str) -> Iterator[Callable[..., Process]]:
    """A fixture's body: yields ``open_one(**settings)``, which opens a store on ``url`` for agent
    ``testbot``; every store opened is closed when the fixture ends."""
    opened: list[Process] = []

    def open_one(**settings: object) -> Process:
        crawler = get_crawler(settings_dict={"USER_AGENT": "testbot/1.0", "REP_REDIS_URL": url, **settings})
        process = Process(build_from_crawler(RedisStore, crawler), crawler.stats)
        opened.append(process)
        return process

    yield open_one
    for process in opened:
        run(process.store.close())
