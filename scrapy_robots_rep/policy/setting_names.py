"""The settings safety net: ``REP_*`` names that are not settings, and the setting meant.

A misspelt setting (``REP_MATCHNIG``) would otherwise be silently ignored; the start-up
warning names the closest real one (docs/behaviour.md §7). The real names are those of the one
settings table, :data:`~scrapy_robots_rep.policy.settings.SETTINGS`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from scrapy_robots_rep.policy.settings import SETTING_NAMES

PREFIX = "REP_"


@dataclass(frozen=True, slots=True)
class UnknownSetting:
    """A ``REP_*`` name that is not a setting, and the setting it most likely means."""

    name: str
    closest: str | None

    def __str__(self) -> str:
        meant = f"did you mean {self.closest}?" if self.closest else "see docs/behaviour.md for the settings"
        return f"{self.name} is not a scrapy_robots_rep setting and is ignored; {meant}"


def unknown_settings(names: Iterable[str], known: frozenset[str] = SETTING_NAMES) -> list[UnknownSetting]:
    """The names starting with ``REP_`` that are not in ``known``, sorted, each with its closest known name."""
    unknown = sorted({name for name in names if isinstance(name, str) and name.startswith(PREFIX)} - known)
    if not unknown:
        return []
    import difflib  # only for a misspelt name: a crawl whose names are all right never loads it

    candidates = sorted(known)
    return [
        UnknownSetting(name, next(iter(difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)), None))
        for name in unknown
    ]
