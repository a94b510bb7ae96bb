"""Where a request goes while its origin's robots.txt is being obtained, and how long after a failed fetch.

Pure decisions over plain state (``docs/behaviour.md`` §5 and §6): a request is decided by
any rules held for its origin, fresh or not (a stale copy is used while a refresh or a retry
is under way); without rules it is parked until they are obtained; after a failed deferral
cycle it is dropped for a while.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scrapy_robots_rep.policy.record_cache import CacheRecord

BACKOFF_BASE = 1.0
BACKOFF_MAX = 300.0
NO_SERVER_ATTEMPTS = 3
"""Fetches of a host that no server answers for (its name does not resolve, or it refuses the
connection) before its requests are dropped: the first and two retries, 1 s and 2 s after."""


class Route(Enum):
    """Where a request of an origin goes right now."""

    DECIDE = "decide"
    """Rules are held (fresh, or a copy kept while a refresh or retry runs): decide by them."""
    PARK = "park"
    """No rules yet: hold the request until the origin's robots.txt is obtained."""
    DROP = "drop"
    """The origin's last deferral cycle failed: drop the request as unreachable."""


class Recovery(Enum):
    """What follows a fetch that left the origin unreachable."""

    USE_COPY = "use_copy"
    """Decide by the last rules obtained, and fetch again later."""
    ALLOW_ALL = "allow_all"
    """Unreachable longer than ``REP_UNREACHABLE_MAX_AGE`` and no copy: allow everything."""
    RETRY = "retry"
    """Keep the requests parked and fetch again after a delay."""
    DROP = "drop"
    """The deferral cycle is over: drop the origin's requests for ``REP_DEFER_MAX_TIME``."""


@dataclass(slots=True, eq=False)
class OriginState:
    """What is tracked about an origin besides its cache record, while it is being fetched or failing."""

    fetching: bool = False
    cycle_started: float | None = None
    """When the current deferral cycle's first fetch started."""
    failures: int = 0
    """Failed fetches in a row."""
    drop_until: float | None = None
    """End of the drop window that follows a failed cycle."""
    next_fetch_at: float = 0.0
    """No fetch before this time (backoff, ``Retry-After``)."""

    def dropping(self, now: float) -> bool:
        return self.drop_until is not None and now < self.drop_until


def route(state: OriginState | None, record: CacheRecord | None, now: float, released: bool = False) -> Route:
    """Where a request of an origin with this state and record goes.

    A ``released`` request was parked and given back when its origin's fetch task ended: if
    that left no rules, its deferral cycle failed and it is dropped (however short the drop
    window, even ``REP_DEFER_MAX_TIME = 0``).
    """
    if state is not None and state.dropping(now):
        return Route.DROP
    if released and record is not None and not record.holds_rules:
        return Route.DROP
    if record is not None and record.holds_rules:
        return Route.DECIDE
    return Route.PARK


def refresh_due(state: OriginState | None, record: CacheRecord, now: float) -> bool:
    """Whether a request decided by ``record`` should start a background refresh now."""
    if record.is_fresh(now):
        return False
    return state is None or (not state.fetching and now >= state.next_fetch_at)


def backoff_delay(failures: int) -> float:
    """Seconds to wait after the ``failures``-th failed fetch in a row (1, 2, 4, … capped)."""
    return min(BACKOFF_BASE * 2.0 ** min(max(failures - 1, 0), 32), BACKOFF_MAX)
