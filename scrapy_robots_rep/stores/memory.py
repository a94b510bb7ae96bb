"""``MemoryStore``: records and fetch locks shared by the crawlers of one process.

With ``REP_CACHE_BACKEND = "scrapy_robots_rep.stores.MemoryStore"``, several
crawlers run by one ``CrawlerProcess`` fetch each robots.txt once between
them. Records are kept as the JSON a remote store would hold, so the store is
also a faithful fake of one (the shared-store contract tests run on it).
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from scrapy_robots_rep.policy.settings import rep_settings
from scrapy_robots_rep.stores.base import Scope, SharedStore, StatsCollector, wait_event

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

    from scrapy_robots_rep.policy.record_cache import CacheRecord

_owners = itertools.count(1)


@dataclass(eq=False)
class _Entry:
    fetched_at: float
    expires_at: float
    data: str


@dataclass(eq=False)
class MemoryBackend:
    """What the :class:`MemoryStore` instances sharing it see: records, locks and waiters by key."""

    records: OrderedDict[str, _Entry] = field(default_factory=OrderedDict)
    locks: dict[str, int] = field(default_factory=dict)
    waiters: dict[str, set[asyncio.Event]] = field(default_factory=dict)

    def wake(self, key: str) -> None:
        for event in self.waiters.get(key, ()):
            event.set()

    def clear(self) -> None:
        """Forget every record and lock (waiters keep waiting)."""
        self.records.clear()
        self.locks.clear()


PROCESS_BACKEND = MemoryBackend()
"""The backend of every ``MemoryStore`` built by ``from_crawler`` in this process."""


class MemoryStore(SharedStore):
    """A :class:`SharedStore` in this process's memory, holding at most ``max_records`` records.

    The least recently stored records go first beyond ``max_records``
    (``REP_CACHE_MAX_ORIGINS``). A fetch lock is held until released or until
    its holder closes.
    """

    stats_prefix = "rep/memory_store/"

    def __init__(self, *, scope: Scope, stats: StatsCollector, backend: MemoryBackend, max_records: int) -> None:
        super().__init__(scope=scope, stats=stats)
        self._backend = backend
        self._max_records = max_records
        self._owner = next(_owners)
        self._held: set[str] = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> MemoryStore:
        settings = rep_settings(crawler.settings)
        return cls(
            scope=Scope.of(settings),
            stats=crawler.stats,
            backend=PROCESS_BACKEND,
            max_records=settings.cache_max_origins,
        )

    async def load(self, origin: str) -> CacheRecord | None:
        record = self._read(origin)
        self.count("hits" if record is not None else "misses")
        return record

    async def store(self, origin: str, record: CacheRecord) -> None:
        key = self.key(origin)
        records = self._backend.records
        current = records.get(key)
        if current is not None and current.fetched_at > record.fetched_at:
            return
        records[key] = _Entry(record.fetched_at, record.expires_at, self.encode(record))
        records.move_to_end(key)
        while len(records) > self._max_records:
            records.popitem(last=False)
        self.count("stores")
        self._backend.wake(key)

    async def acquire_fetch(self, origin: str) -> bool:
        """``False`` while another store (or this one) holds the lock, or once a fresh record landed."""
        key = self.key(origin)
        entry = self._backend.records.get(key)
        if key in self._backend.locks or (entry is not None and entry.expires_at > time.time()):
            self.count("lock/busy")
            return False
        self._backend.locks[key] = self._owner
        self._held.add(key)
        self.count("lock/acquired")
        return True

    async def release_fetch(self, origin: str) -> None:
        self._release(self.key(origin))

    async def wait_for_record(self, origin: str, timeout: float) -> CacheRecord | None:
        """A fresh record as soon as one is stored; ``None`` at the timeout or once nobody holds the lock."""
        key = self.key(origin)
        landed = asyncio.Event()
        waiting = self._backend.waiters.setdefault(key, set())
        waiting.add(landed)
        deadline = time.monotonic() + timeout
        try:
            while True:
                landed.clear()
                record = self._read(origin)
                if record is not None and record.is_fresh(time.time()):
                    self.count("wait/woken")
                    return record
                remaining = deadline - time.monotonic()
                if key not in self._backend.locks or remaining <= 0:
                    self.count("wait/given_up")
                    return None
                await wait_event(landed, remaining)
        finally:
            waiting.discard(landed)
            if not waiting:
                self._backend.waiters.pop(key, None)

    async def close(self) -> None:
        """Release the locks this store holds."""
        for key in list(self._held):
            self._release(key)

    def _read(self, origin: str) -> CacheRecord | None:
        entry = self._backend.records.get(self.key(origin))
        return self.decode(origin, entry.data if entry is not None else None)

    def _release(self, key: str) -> None:
        self._held.discard(key)
        if self._backend.locks.get(key) == self._owner:
            del self._backend.locks[key]
            self._backend.wake(key)
