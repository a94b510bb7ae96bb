"""MemoryStore: the shared-store contract, and sharing between the crawlers of one process."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from scrapy_robots_rep.stores import MemoryStore, SharedStore
from scrapy_robots_rep.stores.memory import PROCESS_BACKEND
from tests.stores.contract import ORIGIN, Planter, StoreContract, record
from tests.stores.on_asyncio import on_asyncio


@pytest.fixture(autouse=True)
def empty_process_backend() -> Iterator[None]:
    PROCESS_BACKEND.clear()
    yield
    PROCESS_BACKEND.clear()


class TestMemoryStore(StoreContract):
    @pytest.fixture
    def store_class(self) -> type[SharedStore]:
        return MemoryStore

    @pytest.fixture
    def plant(self) -> Planter:
        def plant(store: SharedStore, origin: str, text: str) -> None:
            from scrapy_robots_rep.stores.memory import _Entry

            PROCESS_BACKEND.records[store.key(origin)] = _Entry(0.0, 0.0, text)

        return plant


@on_asyncio
async def test_crawlers_of_one_process_share_through_from_crawler() -> None:
    one = build_from_crawler(MemoryStore, get_crawler(settings_dict={"USER_AGENT": "mybot"}))
    two = build_from_crawler(MemoryStore, get_crawler(settings_dict={"USER_AGENT": "mybot"}))
    await one.store(ORIGIN, record())
    assert await two.load(ORIGIN) is not None
    assert await one.acquire_fetch("http://b.test")
    assert not await two.acquire_fetch("http://b.test")
    await one.close()


@on_asyncio
async def test_at_most_cache_max_origins_records_are_kept() -> None:
    crawler = get_crawler(settings_dict={"REP_CACHE_MAX_ORIGINS": 2})
    store = build_from_crawler(MemoryStore, crawler)
    for name in "abc":
        await store.store(f"http://{name}.test", record())
    assert await store.load("http://a.test") is None, "the least recently stored went first"
    assert await store.load("http://b.test") is not None
    assert await store.load("http://c.test") is not None
