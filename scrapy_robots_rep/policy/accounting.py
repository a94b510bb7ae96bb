"""Per-origin request accounting: how each request that reached the middleware ended."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class OriginCounts:
    """Counters of one origin. ``deferred`` counts deferrals; ``parked`` is how many wait right now."""

    allowed: int = 0
    disallowed: int = 0
    dropped_unreachable: int = 0
    deferred: int = 0
    parked: int = 0
    refused_purposes: dict[str, int] = field(default_factory=dict)
    """Of ``disallowed``: requests refused for ``REP_PURPOSES``, by the robots.txt line that refused them."""

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
