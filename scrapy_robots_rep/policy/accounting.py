"""Per-origin request accounting: how each request that reached the middleware ended."""

from __future__ import annotations

from dataclasses import dataclass, field

RefusalKey = tuple[int | None, str]
"""What refused requests: a rule's ``(line, text)``, or ``(None, reason)`` when no rule did."""


@dataclass(slots=True, eq=False)
class OriginCounts:
    """Counters of one origin. ``deferred`` counts deferrals; ``parked`` is how many wait right now."""

    allowed: int = 0
    disallowed: int = 0
    dropped_unreachable: int = 0
    deferred: int = 0
    parked: int = 0
    refusals: dict[RefusalKey, int] = field(default_factory=dict)
    """Disallowed requests per deciding rule."""
    page_drops: dict[str, int] = field(default_factory=dict)
    """Requests and items of this origin's pages dropped, per page-level directive."""
    robots_changed: int = 0
    """Refreshes of robots.txt that gave the agent different rules."""

    def refused(self, key: RefusalKey) -> None:
        self.disallowed += 1
        self.refusals[key] = self.refusals.get(key, 0) + 1

    def page_dropped(self, kind: str) -> None:
        self.page_drops[kind] = self.page_drops.get(kind, 0) + 1

    @property
    def seen(self) -> int:
        """Requests decided: allowed, disallowed or dropped."""
        return self.allowed + self.disallowed + self.dropped_unreachable


class Accounting:
    """The counters of every origin a crawl touched."""

    def __init__(self) -> None:
        self.origins: dict[str, OriginCounts] = {}

    def of(self, origin: str) -> OriginCounts:
        counts = self.origins.get(origin)
        if counts is None:
            counts = self.origins[origin] = OriginCounts()
        return counts

    def unbalanced(self) -> dict[str, OriginCounts]:
        """Origins with parked requests that were neither released nor kept at close: lost ones."""
        return {origin: counts for origin, counts in self.origins.items() if counts.parked}
