"""Per-origin request accounting: every request is allowed, disallowed or dropped."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class OriginCounts:
    """Counters of one origin. ``deferred`` counts deferral events; ``parked`` is current."""

    seen: int = 0
    allowed: int = 0
    disallowed: int = 0
    dropped_unreachable: int = 0
    deferred: int = 0
    parked: int = 0

    def balanced(self) -> bool:
        """True when every request seen ended one way or is still parked."""
        return self.seen == self.allowed + self.disallowed + self.dropped_unreachable + self.parked


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
        """Origins whose counters do not add up."""
        return {origin: counts for origin, counts in self.origins.items() if not counts.balanced()}
