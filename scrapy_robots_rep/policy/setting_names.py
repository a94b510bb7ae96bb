"""The settings safety net: ``REP_*`` names that are not settings, and the setting meant.

A misspelt setting (``REP_MATCHNIG``) would otherwise be silently ignored; the start-up
warning names the closest real one (docs/behaviour.md §7). The real names are those of the one
settings table, :data:`~scrapy_robots_rep.policy.settings.SETTINGS`.
"""

from __future__ import annotations

from collections.abc import Iterable

from scrapy_robots_rep.policy.settings import SETTING_NAMES

PREFIX = "REP_"


def unknown_setting_warnings(names: Iterable[str], known: frozenset[str] = SETTING_NAMES) -> list[str]:
    """A warning for each name starting with ``REP_`` that is not in ``known``, sorted by name, each
    naming the closest known name (what the start-up log and ``scrapy robots check`` print)."""
    unknown = sorted({name for name in names if isinstance(name, str) and name.startswith(PREFIX)} - known)
    if not unknown:
        return []
    import difflib  # only for a misspelt name: a crawl whose names are all right never loads it

    candidates = sorted(known)
    warnings = []
    for name in unknown:
        closest = difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
        meant = f"did you mean {closest[0]}?" if closest else "see docs/behaviour.md for the settings"
        warnings.append(f"{name} is not a scrapy_robots_rep setting and is ignored; {meant}")
    return warnings
