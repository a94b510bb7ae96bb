"""SharedStore's defaults: a store that only loads and stores works, and its scope keys its records."""

from __future__ import annotations

import asyncio
import time
from typing import ClassVar

import pytest
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from scrapy_robots_rep.policy.record_cache import CacheRecord
from scrapy_robots_rep.policy.settings import RepSettings
from scrapy_robots_rep.stores import Scope, SharedStore
from scrapy_robots_rep.stores import base as store_base
from tests.stores.contract import ORIGIN, record
from tests.stores.on_asyncio import on_asyncio


class DictStore(SharedStore):
    """The least a store implements."""

    stats_prefix = "rep/dict/"
    shared: ClassVar[dict[str, str]] = {}

    async def load(self, origin: str) -> CacheRecord | None:
        return self.decode(origin, self.shared.get(self.key(origin)))

    async def store(self, origin: str, record: CacheRecord) -> None:
        self.shared[self.key(origin)] = self.encode(record)


@pytest.fixture
def store() -> DictStore:
    DictStore.shared = {}
    return build_from_crawler(DictStore, get_crawler(settings_dict={"USER_AGENT": "mybot/1.0"}))


@on_asyncio
async def test_locks_default_to_always_acquired(store: DictStore) -> None:
    assert await store.acquire_fetch(ORIGIN)
    assert await store.acquire_fetch(ORIGIN)
    await store.release_fetch(ORIGIN)
    await store.close()


@on_asyncio
async def test_waiting_polls_load_until_a_fresh_record_or_the_timeout(store: DictStore, monkeypatch) -> None:
    monkeypatch.setattr(store_base, "POLL_INTERVAL", 0.05)
    await store.store(ORIGIN, record(lifetime=-1))
    started = time.monotonic()
    assert await store.wait_for_record(ORIGIN, timeout=0.3) is None
    assert time.monotonic() - started >= 0.3
    later = asyncio.get_running_loop().call_later(0.2, lambda: asyncio.ensure_future(store.store(ORIGIN, record())))
    found = await store.wait_for_record(ORIGIN, timeout=10)
    later.cancel()
    assert found is not None and found.is_fresh(time.time())


@on_asyncio
async def test_unreadable_data_is_counted_and_read_as_missing() -> None:
    DictStore.shared = {}
    crawler = get_crawler(settings_dict={"USER_AGENT": "mybot/1.0"})
    store = build_from_crawler(DictStore, crawler)
    DictStore.shared[store.key(ORIGIN)] = "{"
    assert await store.load(ORIGIN) is None
    assert crawler.stats.get_value("rep/dict/invalid_records") == 1


def test_the_scope_is_the_reduced_agent_the_matching_mode_and_the_status_policy(store: DictStore) -> None:
    assert store.scope == Scope(agent="mybot", matching="rfc9309", status_policy="rfc9309")
    assert store.key(ORIGIN) == "mybot/rfc9309/rfc9309:http://a.test"


@pytest.mark.parametrize(
    ("settings", "key"),
    [
        ({"USER_AGENT": "mybot/1.0 (+https://x)"}, "mybot/rfc9309/rfc9309"),
        (
            {"USER_AGENT": "mybot/1.0 (+https://x)", "REP_MATCHING": "legacy"},
            "mybot%2F1.0%20%28%2Bhttps%3A%2F%2Fx%29/legacy/rfc9309",
        ),
        ({"REP_USER_AGENT": "a:b", "REP_STATUS_POLICY": "legacy"}, "a%3Ab/rfc9309/legacy"),
    ],
)
def test_scope_keys_are_unambiguous(settings: dict[str, str], key: str) -> None:
    assert Scope.of(RepSettings.from_mapping(settings)).key == key
