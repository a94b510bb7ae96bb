"""``SharedStore``: what a store of robots.txt records shared by several crawlers provides.

A shared store is the second tier behind each crawler's in-memory cache
(``REP_CACHE_BACKEND``, docs/behaviour.md §6): consulted on a memory miss,
inside the one per-origin fetch task. It is built with Scrapy's
``build_from_crawler`` and counts into the crawl stats under its
``stats_prefix``. A store needs only :meth:`~SharedStore.load` and
:meth:`~SharedStore.store`; the fetch lock (single-flight across processes),
waiting and closing have defaults for a store without locks.

Records are kept per origin *and* :class:`Scope` (agent, matching mode,
status policy): crawlers configured differently never read each other's rules.
Stores wait with asyncio, so they need Scrapy's asyncio reactor (its default).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Protocol, TypeVar
from urllib.parse import quote

from scrapy_robots_rep.core.modes import matching_mode
from scrapy_robots_rep.policy.record_cache import CacheRecord
from scrapy_robots_rep.policy.settings import RepSettings, rep_settings
from scrapy_robots_rep.policy.stat_names import Stat

if TYPE_CHECKING:
    from scrapy.crawler import Crawler


logger = logging.getLogger(__name__)

_Store = TypeVar("_Store", bound="SharedStore")


class StatsCollector(Protocol):
    """Where a store's counters go: the crawl's stats collector (Scrapy's ``crawler.stats``)."""

    def inc_value(self, key: str, count: int = 1, start: int = 0) -> None: ...


POLL_INTERVAL = 1.0
"""Seconds between two looks of the default :meth:`SharedStore.wait_for_record`."""


@dataclass(frozen=True, slots=True)
class Scope:
    """Everything besides the origin that shaped a record: the agent (as the matching mode reduces it),
    the matching mode and the status policy."""

    agent: str
    matching: str
    status_policy: str

    @classmethod
    def of(cls, settings: RepSettings) -> Scope:
        """The scope of the records a crawl with ``settings`` makes."""
        agent = matching_mode(settings.matching).agent_token(settings.user_agent)
        return cls(agent=agent, matching=settings.matching, status_policy=settings.status_policy)

    @property
    def key(self) -> str:
        """``agent/matching/status_policy``, each part percent-encoded: one string per scope."""
        return "/".join(quote(part, safe="") for part in (self.agent, self.matching, self.status_policy))


class SharedStore(ABC):
    """Per-origin robots.txt records shared by crawlers of one :class:`Scope`.

    Implementations degrade on their own errors (a store that is down answers
    as if this crawler were alone) instead of breaking the crawl.
    """

    stats_prefix: ClassVar[str] = "rep/store/"
    """Prefix of this store's keys in the crawl stats."""

    shares_slots: ClassVar[bool] = False
    """Whether the store paces downloads across crawlers (:meth:`reserve_slot`, :meth:`free_slot`)."""

    def __init__(self, *, scope: Scope, stats: StatsCollector) -> None:
        self.scope = scope
        self._stats = stats
        self._warned_unreadable = False

    @classmethod
    def from_crawler(cls: type[_Store], crawler: Crawler) -> _Store:
        """Build for ``crawler``: its settings give the scope, its stats collector the counts."""
        assert crawler.stats is not None
        return cls(scope=Scope.of(rep_settings(crawler.settings)), stats=crawler.stats)

    @abstractmethod
    async def load(self, origin: str) -> CacheRecord | None:
        """The record stored for ``origin`` in this scope, fresh or not; ``None`` if none (or unreadable)."""

    @abstractmethod
    async def store(self, origin: str, record: CacheRecord) -> None:
        """Share ``record`` (an older record never replaces a newer one)."""

    async def acquire_fetch(self, origin: str) -> bool:
        """Take ``origin``'s fetch lock; ``False`` when another crawler fetches it (then :meth:`wait_for_record`).

        Default: always acquired (a store without locks lets every crawler fetch).
        """
        return True

    async def release_fetch(self, origin: str) -> None:
        """Release ``origin``'s fetch lock if this store holds it. Default: nothing to release."""
        return None

    async def wait_for_record(self, origin: str, timeout: float) -> CacheRecord | None:
        """Wait up to ``timeout`` seconds for a fresh record of ``origin``; ``None`` if none came.

        Default: looks with :meth:`load` every ``POLL_INTERVAL`` seconds. A store with
        locks also returns ``None`` as soon as nobody holds the fetch lock any more.
        """
        deadline = time.monotonic() + timeout
        while True:
            record = await self.load(origin)
            if record is not None and record.is_fresh(time.time()):
                return record
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            await asyncio.sleep(min(POLL_INTERVAL, remaining))

    async def reserve_slot(self, origin: str, token: str, lease: float) -> float | None:
        """Seconds until ``origin``'s next download slot across the crawlers sharing the store; 0 when
        it is ``token``'s now (held until :meth:`free_slot`, at most ``lease`` seconds); ``None`` when
        the store cannot tell (the crawler keeps the delay alone). Default: ``None``."""
        return None

    async def free_slot(self, origin: str, token: str, delay: float) -> None:
        """``token``'s download of ``origin`` ended: its next slot is ``delay`` seconds from now. Default: nothing."""
        return None

    async def close(self) -> None:
        """Release what this store holds (locks, connections). Default: nothing."""
        return None

    @property
    def description(self) -> str:
        """The store for the start-up line."""
        return type(self).__name__

    def key(self, origin: str) -> str:
        """The name of ``origin``'s record in this scope: ``<scope key>:<origin>``."""
        return f"{self.scope.key}:{origin}"

    def count(self, name: str, value: int = 1) -> None:
        """Add ``value`` to the crawl stat ``<stats_prefix><name>``."""
        self._stats.inc_value(Stat.STORE.key(self.stats_prefix + name), value)

    @staticmethod
    def encode(record: CacheRecord) -> str:
        """A record as the JSON text stores keep (never pickle)."""
        return json.dumps(record.to_dict(), separators=(",", ":"))

    def unpack(self, data: str | bytes) -> str | bytes:
        """The JSON text in what the store holds (a store keeping records packed unpacks them here)."""
        return data

    def decode(self, origin: str, data: str | bytes | None) -> CacheRecord | None:
        """The record in ``data`` (JSON text); ``None`` if there is none or it is unreadable.

        Unreadable records (malformed, or of another format version) count as
        ``invalid_records`` and read as missing, so the origin is fetched again.
        """
        if data is None:
            return None
        try:
            return CacheRecord.from_dict(json.loads(self.unpack(data)))
        except ValueError as error:
            self.count("invalid_records")
            level = logging.DEBUG if self._warned_unreadable else logging.WARNING
            self._warned_unreadable = True
            logger.log(
                level,
                "Ignoring the unreadable shared record of %s (%s); its robots.txt is fetched again. "
                "Further unreadable records are counted in %sinvalid_records.",
                origin,
                error,
                self.stats_prefix,
            )
            return None


async def wait_event(event: asyncio.Event, timeout: float) -> bool:
    """Wait until ``event`` is set, at most ``timeout`` seconds; whether it was set."""
    try:
        await asyncio.wait_for(event.wait(), timeout)
    except asyncio.TimeoutError:  # before Python 3.11 not the built-in TimeoutError
        return False
    return True
