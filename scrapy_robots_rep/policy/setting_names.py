"""The settings safety net: ``REP_*`` names that are not settings, and the setting meant.

A misspelt setting (``REP_MATCHNIG``) would otherwise be silently ignored; the start-up
warning names the closest real one (docs/behaviour.md §7).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass

PREFIX = "REP_"


def known_setting_names() -> frozenset[str]:
    """Every ``REP_*`` setting of the package."""
    return frozenset(
        {
            "REP_ENABLED",
            "REP_MATCHING",
            "REP_STATUS_POLICY",
            "REP_USER_AGENT",
            "REP_FROM",
            "REP_MAX_SIZE",
            "REP_MAX_REDIRECTS",
            "REP_FETCH_TIMEOUT",
            "REP_UNREACHABLE_MAX_AGE",
            "REP_DEFER_MAX_TIME",
            "REP_CACHE_TTL",
            "REP_CACHE_HONOR_HEADERS",
            "REP_CACHE_TTL_MIN",
            "REP_CACHE_TTL_MAX",
            "REP_CACHE_MAX_ORIGINS",
            "REP_CACHE_BACKEND",
            "REP_REDIS_URL",
            "REP_REDIS_PREFIX",
            "REP_REDIS_LOCK_TIMEOUT",
            "REP_REDIS_TIMEOUT",
            "REP_CRAWL_DELAY",
            "REP_CRAWL_DELAY_MAX",
            "REP_EXEMPT_DOMAINS",
            "REP_PAGE_DIRECTIVES",
            "REP_PAGE_NOINDEX",
            "REP_PAGE_REL_NOFOLLOW",
            "REP_PURPOSES",
            "REP_HTTPCACHE_POLICY",
            "REP_REPORT",
        }
    )


@dataclass(frozen=True, slots=True)
class UnknownSetting:
    """A ``REP_*`` name that is not a setting, and the setting it most likely means."""

    name: str
    closest: str | None

    def __str__(self) -> str:
        meant = f"did you mean {self.closest}?" if self.closest else "see docs/behaviour.md for the settings"
        return f"{self.name} is not a scrapy_robots_rep setting and is ignored; {meant}"


def unknown_settings(names: Iterable[str], known: frozenset[str]) -> list[UnknownSetting]:
    """The names starting with ``REP_`` that are not in ``known``, sorted, each with its closest known name."""
    candidates = sorted(known)
    return [
        UnknownSetting(name, next(iter(difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)), None))
        for name in sorted({name for name in names if isinstance(name, str) and name.startswith(PREFIX)})
        if name not in known
    ]
