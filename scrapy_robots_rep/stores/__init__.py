"""Stores of robots.txt records shared by several crawlers (``REP_CACHE_BACKEND``).

``SharedStore`` is the base a store builds on; ``MemoryStore`` shares records
between the crawlers of one process; ``RedisStore`` (imported on first use: it
needs the ``redis`` client) between the processes of a fleet.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy_robots_rep.stores.base import Scope, SharedStore
from scrapy_robots_rep.stores.memory import MemoryStore

if TYPE_CHECKING:
    from scrapy_robots_rep.stores.redis import RedisStore

__all__ = ["MemoryStore", "RedisStore", "Scope", "SharedStore"]


def __getattr__(name: str) -> Any:
    if name == "RedisStore":
        from scrapy_robots_rep.stores.redis import RedisStore

        return RedisStore
    raise AttributeError(f"module 'scrapy_robots_rep.stores' has no attribute {name!r}")
