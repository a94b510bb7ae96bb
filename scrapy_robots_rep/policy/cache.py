"""Per-origin robots.txt records and where they are kept.

:class:`MemoryCache` is the bounded in-process LRU every crawl has;
:class:`SharedStore` is the optional second tier a fleet of crawlers shares
(``REP_CACHE_BACKEND``).
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from scrapy_robots_rep.core import AgentRules
from scrapy_robots_rep.policy.status import OUTCOMES

RECORD_VERSION = 1
_MAX_AGE = re.compile(r"(?:^|[,\s])max-age\s*=\s*\"?(\d+)\"?", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class CacheRecord:
    """What is known about one origin's robots.txt; what a fleet shares."""

    rules: AgentRules
    outcome: str
    status: int | None
    fetched_at: float
    expires_at: float
    unreachable_since: float | None
    last_good: AgentRules | None

    def is_fresh(self, now: float) -> bool:
        return now < self.expires_at

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe plain data, versioned."""
        return {
            "v": RECORD_VERSION,
            "rules": self.rules.to_dict(),
            "outcome": self.outcome,
            "status": self.status,
            "fetched_at": self.fetched_at,
            "expires_at": self.expires_at,
            "unreachable_since": self.unreachable_since,
            "last_good": None if self.last_good is None else self.last_good.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CacheRecord:
        """Rebuild from :meth:`to_dict` output; ``ValueError`` if malformed or of another version."""
        if not isinstance(data, Mapping) or data.get("v") != RECORD_VERSION:
            raise ValueError(f"not a version {RECORD_VERSION} cache record: {data!r:.200}")
        try:
            outcome = data["outcome"]
            status = data["status"]
            last_good = data["last_good"]
            record = cls(
                rules=AgentRules.from_dict(data["rules"]),
                outcome=outcome,
                status=None if status is None else int(status),
                fetched_at=float(data["fetched_at"]),
                expires_at=float(data["expires_at"]),
                unreachable_since=_optional_float(data["unreachable_since"]),
                last_good=None if last_good is None else AgentRules.from_dict(last_good),
            )
        except (KeyError, TypeError) as error:
            raise ValueError(f"malformed cache record: {error}") from error
        if outcome not in OUTCOMES:
            raise ValueError(f"malformed cache record: unknown outcome {outcome!r}")
        return record


def _optional_float(value: Any) -> float | None:
    return None if value is None else float(value)


def record_lifetime(
    cache_control: str | None,
    *,
    ttl: float,
    honor_headers: bool,
    ttl_min: float,
    ttl_max: float,
) -> float:
    """Seconds a fetched robots.txt stays fresh.

    ``REP_CACHE_TTL``, or with ``REP_CACHE_HONOR_HEADERS`` the response's
    ``Cache-Control: max-age`` clamped to [``REP_CACHE_TTL_MIN``, ``REP_CACHE_TTL_MAX``].
    """
    if honor_headers and cache_control:
        match = _MAX_AGE.search(cache_control)
        if match:
            return min(max(float(match.group(1)), ttl_min), ttl_max)
    return ttl


class MemoryCache:
    """In-process LRU of :class:`CacheRecord` per origin, bounded by ``max_origins``."""

    def __init__(self, max_origins: int) -> None:
        if max_origins < 1:
            raise ValueError(f"max_origins must be at least 1, got {max_origins}")
        self._max_origins = max_origins
        self._records: OrderedDict[str, CacheRecord] = OrderedDict()
        self.evictions = 0

    def get(self, origin: str) -> CacheRecord | None:
        """The record of ``origin``, marked as most recently used; ``None`` if absent."""
        record = self._records.get(origin)
        if record is not None:
            self._records.move_to_end(origin)
        return record

    def put(self, origin: str, record: CacheRecord) -> None:
        """Store a record, evicting the least recently used origins beyond the bound."""
        self._records[origin] = record
        self._records.move_to_end(origin)
        while len(self._records) > self._max_origins:
            self._records.popitem(last=False)
            self.evictions += 1

    def __len__(self) -> int:
        return len(self._records)


class SharedStore(Protocol):
    """A second cache tier shared by a fleet of crawlers, behind :class:`MemoryCache`.

    Consulted only on a memory miss, inside the one per-origin fetch task.
    Implementations degrade on their own errors instead of breaking the crawl.
    ``counters`` (stats key -> count) is copied into the crawl stats at close.
    """

    counters: Mapping[str, int]

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any]) -> SharedStore: ...

    async def load(self, origin: str) -> CacheRecord | None: ...

    async def store(self, origin: str, record: CacheRecord) -> None: ...

    async def acquire_fetch(self, origin: str) -> bool: ...

    async def release_fetch(self, origin: str) -> None: ...

    async def wait_for_record(self, origin: str, timeout: float) -> CacheRecord | None: ...

    async def close(self) -> None: ...
