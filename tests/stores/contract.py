"""The contract every shared store keeps, run by each store's tests (``class TestX(StoreContract)``).

A subclass provides two fixtures: ``store_class`` (the store under test) and ``plant``
(``plant(store, origin, text)`` writes raw record text under ``store``'s key for ``origin``,
as another program could). Each "process" is a store built with Scrapy's
``build_from_crawler`` for its own crawler, all on one backend, and counts into its own stats.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from scrapy_robots_rep.core import RobotsTxt
from scrapy_robots_rep.policy.freshness import LifetimeSource, Validators
from scrapy_robots_rep.policy.record_cache import CacheRecord
from scrapy_robots_rep.policy.status import Outcome
from scrapy_robots_rep.stores import SharedStore
from tests.stores.on_asyncio import on_asyncio, run

ORIGIN = "http://a.test"
ROBOTS = "User-agent: *\nDisallow: /private\nCrawl-delay: 2\n"


UNTIL_THE_TEST_TIMES_OUT = 3600.0
"""A wait no test outlasts: a store that misses the event it waits for fails by pytest's timeout, and
no test judges how long a wait took by the clock."""


def record(*, fetched_at: float | None = None, lifetime: float = 60.0, agent: str = "testbot") -> CacheRecord:
    """A fresh record of rules that came with validators."""
    fetched_at = time.time() if fetched_at is None else fetched_at
    rules = RobotsTxt.parse(ROBOTS).for_agent(agent)
    return CacheRecord(
        rules=rules,
        outcome=Outcome.RULES,
        status=200,
        fetched_at=fetched_at,
        expires_at=fetched_at + lifetime,
        last_good=rules,
        validators=Validators(etag='"v1"', last_modified="Sun, 06 Nov 1994 08:49:37 GMT"),
        lifetime_source=LifetimeSource.MAX_AGE,
    )


@dataclass
class Process:
    """One crawler's store and its crawl stats."""

    store: SharedStore
    stats: Any

    def stat(self, name: str) -> int:
        return int(self.stats.get_value(self.store.stats_prefix + name, 0))


Opener = Callable[..., Process]
Planter = Callable[[SharedStore, str, str], None]


def opened_processes(store_class: type[SharedStore], store_settings: dict[str, Any]) -> Iterator[Opener]:
    """A fixture's body: yields ``open_one(**settings)``, which opens a new process's ``store_class``
    with ``store_settings`` (agent ``testbot``); every store opened is closed when the fixture ends."""
    opened: list[Process] = []

    def open_one(**settings: Any) -> Process:
        crawler = get_crawler(settings_dict={"USER_AGENT": "testbot/1.0", **store_settings, **settings})
        process = Process(build_from_crawler(store_class, crawler), crawler.stats)
        opened.append(process)
        return process

    yield open_one
    for process in opened:
        run(process.store.close())


class StoreContract:
    """Tests of the ``SharedStore`` contract; subclasses run them on one store class."""

    @pytest.fixture
    def store_class(self) -> type[SharedStore]:
        raise NotImplementedError

    @pytest.fixture
    def store_settings(self) -> dict[str, Any]:
        """Settings every process gets (e.g. where the backend is)."""
        return {}

    @pytest.fixture
    def plant(self) -> Planter:
        raise NotImplementedError

    @pytest.fixture
    def open_process(self, store_class: type[SharedStore], store_settings: dict[str, Any]) -> Iterator[Opener]:
        """``open_process(**settings)``: a new process on the shared backend; closed after the test."""
        yield from opened_processes(store_class, store_settings)

    @on_asyncio
    async def test_a_missing_record_is_none_and_a_miss(self, open_process: Opener) -> None:
        process = open_process()
        assert await process.store.load(ORIGIN) is None
        assert (process.stat("misses"), process.stat("hits")) == (1, 0)

    @on_asyncio
    async def test_records_round_trip_with_their_validators(self, open_process: Opener) -> None:
        writer, reader = open_process(), open_process()
        stored = record()
        await writer.store.store(ORIGIN, stored)
        loaded = await reader.store.load(ORIGIN)
        assert loaded is not None and loaded.to_dict() == stored.to_dict()
        assert loaded.validators == Validators(etag='"v1"', last_modified="Sun, 06 Nov 1994 08:49:37 GMT")
        assert loaded.lifetime_source is LifetimeSource.MAX_AGE
        assert not loaded.rules.allowed(ORIGIN + "/private/x") and loaded.rules.crawl_delay == 2
        assert await reader.store.load("http://b.test") is None
        assert (reader.stat("hits"), reader.stat("misses"), writer.stat("stores")) == (1, 1, 1)

    @on_asyncio
    async def test_unreachable_bookkeeping_is_shared(self, open_process: Opener) -> None:
        writer, reader = open_process(), open_process()
        good = record(fetched_at=time.time() - 100)
        now = time.time()
        down = CacheRecord(
            rules=good.rules,
            outcome=Outcome.UNREACHABLE,
            status=503,
            fetched_at=now,
            expires_at=now + 30,
            unreachable_since=now - 50,
            last_good=good.rules,
            validators=good.validators,
        )
        await writer.store.store(ORIGIN, down)
        loaded = await reader.store.load(ORIGIN)
        assert loaded is not None
        assert (loaded.outcome, loaded.status, loaded.unreachable_since) == (Outcome.UNREACHABLE, 503, now - 50)
        assert loaded.holds_rules and loaded.last_good is not None
        assert not loaded.last_good.allowed(ORIGIN + "/private/x")

    @pytest.mark.parametrize(
        "other",
        [
            {"USER_AGENT": "otherbot/1.0"},
            {"REP_USER_AGENT": "otherbot"},
            {"ROBOTSTXT_USER_AGENT": "otherbot"},
            {"REP_MATCHING": "legacy"},
            {"REP_STATUS_POLICY": "legacy"},
        ],
    )
    @on_asyncio
    async def test_records_and_locks_are_kept_apart_by_scope(self, open_process: Opener, other: dict[str, Any]) -> None:
        mine, theirs = open_process(), open_process(**other)
        assert mine.store.scope != theirs.store.scope
        await mine.store.store(ORIGIN, record())
        assert await theirs.store.load(ORIGIN) is None, "never another configuration's rules"
        assert await mine.store.acquire_fetch("http://b.test")
        assert await theirs.store.acquire_fetch("http://b.test"), "each configuration fetches for itself"
        assert await theirs.store.acquire_fetch(ORIGIN), "the other scope's fresh record is not ours"

    @on_asyncio
    async def test_agents_reduced_to_the_same_token_share(self, open_process: Opener) -> None:
        one, two = open_process(USER_AGENT="mybot/1.0"), open_process(USER_AGENT="mybot/2.0 (+https://example.com/bot)")
        legacy = open_process(USER_AGENT="mybot/2.0 (+https://example.com/bot)", REP_MATCHING="legacy")
        assert one.store.scope == two.store.scope and one.store.scope.agent == "mybot"
        await one.store.store(ORIGIN, record(agent="mybot"))
        assert await two.store.load(ORIGIN) is not None
        assert await legacy.store.load(ORIGIN) is None, "legacy matching reads the whole name"

    @on_asyncio
    async def test_an_older_record_never_replaces_a_newer_one(self, open_process: Opener) -> None:
        late, early = open_process(), open_process()
        now = time.time()
        await late.store.store(ORIGIN, record(fetched_at=now))
        await early.store.store(ORIGIN, record(fetched_at=now - 5))
        loaded = await early.store.load(ORIGIN)
        assert loaded is not None and loaded.fetched_at == now
        await early.store.store(ORIGIN, record(fetched_at=now + 5))
        loaded = await late.store.load(ORIGIN)
        assert loaded is not None and loaded.fetched_at == now + 5

    @on_asyncio
    async def test_the_fetch_lock_is_exclusive_and_released_only_by_its_owner(self, open_process: Opener) -> None:
        first, second = open_process(), open_process()
        assert await first.store.acquire_fetch(ORIGIN)
        assert not await second.store.acquire_fetch(ORIGIN)
        assert not await first.store.acquire_fetch(ORIGIN), "held means held, also for its holder"
        await second.store.release_fetch(ORIGIN)
        assert not await second.store.acquire_fetch(ORIGIN)
        assert await second.store.acquire_fetch("http://b.test")
        await first.store.release_fetch(ORIGIN)
        assert await second.store.acquire_fetch(ORIGIN)
        assert (first.stat("lock/acquired"), second.stat("lock/acquired"), second.stat("lock/busy")) == (1, 2, 2)

    @on_asyncio
    async def test_no_lock_is_handed_out_once_a_fresh_record_landed(self, open_process: Opener) -> None:
        late, fetcher = open_process(), open_process()
        assert await late.store.load(ORIGIN) is None
        assert await fetcher.store.acquire_fetch(ORIGIN)
        await fetcher.store.store(ORIGIN, record())
        await fetcher.store.release_fetch(ORIGIN)
        assert not await late.store.acquire_fetch(ORIGIN), "the record it missed is there: nothing to fetch"
        assert await late.store.wait_for_record(ORIGIN, timeout=UNTIL_THE_TEST_TIMES_OUT) is not None
        await fetcher.store.store(ORIGIN, record(lifetime=-1, fetched_at=time.time() + 1))
        assert await late.store.acquire_fetch(ORIGIN), "an expired record is fetched again"

    @on_asyncio
    async def test_a_waiter_gets_the_record_the_lock_holder_stores(self, open_process: Opener) -> None:
        fetcher, waiter = open_process(), open_process()
        stored = record()
        assert await fetcher.store.acquire_fetch(ORIGIN)
        started = time.monotonic()
        assert await waiter.store.wait_for_record(ORIGIN, timeout=0.2) is None, "held, nothing stored: it waits"
        assert time.monotonic() - started >= 0.2 and waiter.stat("wait/given_up") == 1
        waiting = asyncio.ensure_future(waiter.store.wait_for_record(ORIGIN, timeout=UNTIL_THE_TEST_TIMES_OUT))
        await fetcher.store.store(ORIGIN, stored)
        found = await waiting
        assert found is not None and found.to_dict() == stored.to_dict()
        assert waiter.stat("wait/woken") == 1
        await fetcher.store.release_fetch(ORIGIN)

    @on_asyncio
    async def test_waiting_ends_when_nobody_holds_the_lock_or_at_the_timeout(self, open_process: Opener) -> None:
        holder, waiter = open_process(), open_process()
        await holder.store.store(ORIGIN, record(lifetime=-1))
        assert await holder.store.acquire_fetch(ORIGIN)
        started = time.monotonic()
        assert await waiter.store.wait_for_record(ORIGIN, timeout=0.5) is None
        assert time.monotonic() - started >= 0.5, "a stale record does not end the wait"
        waiting = asyncio.ensure_future(waiter.store.wait_for_record(ORIGIN, timeout=UNTIL_THE_TEST_TIMES_OUT))
        await holder.store.release_fetch(ORIGIN)
        assert await waiting is None, "once the lock is free, the caller should fetch at once"
        assert waiter.stat("wait/given_up") == 2

    @pytest.mark.parametrize(
        "text",
        [
            "not json at all",
            "[1, 2]",
            json.dumps({"v": 1, "rules": {}, "outcome": "rules"}),
            json.dumps({"v": 99}),
            json.dumps(record().to_dict())[:-20],
        ],
        ids=["not-json", "a-list", "version-1", "version-99", "truncated"],
    )
    @on_asyncio
    async def test_unreadable_records_read_as_a_miss(self, open_process: Opener, plant: Planter, text: str) -> None:
        process = open_process()
        plant(process.store, ORIGIN, text)
        assert await process.store.load(ORIGIN) is None
        assert (process.stat("invalid_records"), process.stat("misses")) == (1, 1)
        assert await process.store.acquire_fetch(ORIGIN), "an unreadable record is fetched again"
        await process.store.store(ORIGIN, record())
        assert await process.store.load(ORIGIN) is not None

    @on_asyncio
    async def test_closing_releases_the_locks_and_keeps_the_records(self, open_process: Opener) -> None:
        leaving, staying = open_process(), open_process()
        assert await leaving.store.acquire_fetch(ORIGIN)
        await leaving.store.store("http://b.test", record())
        await leaving.store.close()
        assert await staying.store.acquire_fetch(ORIGIN)
        assert await staying.store.load("http://b.test") is not None
