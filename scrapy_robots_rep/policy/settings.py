"""The ``REP_*`` settings, read and validated from a plain mapping.

A bad value raises :class:`SettingsError` naming the setting and what it
accepts; the Scrapy layer turns that into a start-up error.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scrapy_robots_rep.core import MATCHING_MODES

STATUS_POLICIES = ("rfc9309", "legacy")

_DAY = 86400.0
_TRUE_STRINGS = frozenset({"1", "true", "yes", "on"})
_FALSE_STRINGS = frozenset({"0", "false", "no", "off", ""})
_PRODUCT_TOKEN = re.compile(r"[^\s/]+")


class SettingsError(ValueError):
    """A ``REP_*`` setting has a value the middleware cannot use."""


@dataclass(frozen=True, slots=True)
class RepSettings:
    """Every ``REP_*`` setting, validated, with the defaults of SPEC.md."""

    enabled: bool = True
    matching: str = "rfc9309"
    status_policy: str = "rfc9309"
    user_agent: str = "Scrapy"
    from_header: str | None = None
    max_size: int = 512_000
    max_redirects: int = 5
    fetch_timeout: float = 180.0
    unreachable_max_age: float = 30 * _DAY
    defer_max_time: float = 600.0
    cache_ttl: float = _DAY
    cache_honor_headers: bool = True
    cache_ttl_min: float = 60.0
    cache_ttl_max: float = 7 * _DAY
    cache_max_origins: int = 100_000
    cache_backend: str | None = None
    crawl_delay: bool = True
    crawl_delay_max: float = 60.0

    @classmethod
    def from_mapping(cls, settings: Mapping[str, Any]) -> RepSettings:
        """Build from Scrapy settings or any mapping of setting names to values.

        ``USER_AGENT`` and ``DOWNLOAD_TIMEOUT`` give the defaults of
        ``REP_USER_AGENT`` and ``REP_FETCH_TIMEOUT``.
        """
        reader = _Reader(settings)
        defaults = cls()
        default_agent = product_token(str(settings.get("USER_AGENT") or "")) or defaults.user_agent
        default_timeout = reader.number("DOWNLOAD_TIMEOUT", defaults.fetch_timeout, minimum=0, above=True)
        result = cls(
            enabled=reader.boolean("REP_ENABLED", defaults.enabled),
            matching=reader.choice("REP_MATCHING", defaults.matching, MATCHING_MODES),
            status_policy=reader.choice("REP_STATUS_POLICY", defaults.status_policy, STATUS_POLICIES),
            user_agent=reader.text("REP_USER_AGENT", default_agent),
            from_header=reader.optional_text("REP_FROM"),
            max_size=reader.integer("REP_MAX_SIZE", defaults.max_size, minimum=1),
            max_redirects=reader.integer("REP_MAX_REDIRECTS", defaults.max_redirects, minimum=0),
            fetch_timeout=reader.number("REP_FETCH_TIMEOUT", default_timeout, minimum=0, above=True),
            unreachable_max_age=reader.number("REP_UNREACHABLE_MAX_AGE", defaults.unreachable_max_age, minimum=0),
            defer_max_time=reader.number("REP_DEFER_MAX_TIME", defaults.defer_max_time, minimum=0),
            cache_ttl=reader.number("REP_CACHE_TTL", defaults.cache_ttl, minimum=0),
            cache_honor_headers=reader.boolean("REP_CACHE_HONOR_HEADERS", defaults.cache_honor_headers),
            cache_ttl_min=reader.number("REP_CACHE_TTL_MIN", defaults.cache_ttl_min, minimum=0),
            cache_ttl_max=reader.number("REP_CACHE_TTL_MAX", defaults.cache_ttl_max, minimum=0),
            cache_max_origins=reader.integer("REP_CACHE_MAX_ORIGINS", defaults.cache_max_origins, minimum=1),
            cache_backend=reader.optional_text("REP_CACHE_BACKEND"),
            crawl_delay=reader.boolean("REP_CRAWL_DELAY", defaults.crawl_delay),
            crawl_delay_max=reader.number("REP_CRAWL_DELAY_MAX", defaults.crawl_delay_max, minimum=0),
        )
        if result.cache_ttl_min > result.cache_ttl_max:
            raise SettingsError(
                f"REP_CACHE_TTL_MIN ({result.cache_ttl_min:g}) must not be greater than "
                f"REP_CACHE_TTL_MAX ({result.cache_ttl_max:g})"
            )
        return result


def product_token(user_agent: str) -> str:
    """The leading product token of a User-Agent: ``mybot/1.0 (+https://…)`` gives ``mybot``."""
    match = _PRODUCT_TOKEN.match(user_agent.strip())
    return match.group(0) if match else ""


class _Reader:
    """Reads one typed setting at a time, raising :class:`SettingsError` on bad values."""

    def __init__(self, settings: Mapping[str, Any]) -> None:
        self._settings = settings

    def _raw(self, name: str) -> Any:
        return self._settings.get(name)

    def boolean(self, name: str, default: bool) -> bool:
        value = self._raw(name)
        if value is None:
            return default
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        if isinstance(value, str) and value.strip().lower() in _TRUE_STRINGS | _FALSE_STRINGS:
            return value.strip().lower() in _TRUE_STRINGS
        raise SettingsError(f"{name} must be True or False, got {value!r}")

    def choice(self, name: str, default: str, allowed: tuple[str, ...]) -> str:
        value = self._raw(name)
        if value is None:
            return default
        if value not in allowed:
            options = ", ".join(repr(option) for option in allowed)
            raise SettingsError(f"{name} must be one of {options}, got {value!r}")
        return str(value)

    def text(self, name: str, default: str) -> str:
        value = self._raw(name)
        if value is None:
            return default
        if not isinstance(value, str) or not value.strip():
            raise SettingsError(f"{name} must be a non-empty string, got {value!r}")
        return value.strip()

    def optional_text(self, name: str) -> str | None:
        value = self._raw(name)
        if value is None or value == "":
            return None
        if not isinstance(value, str):
            raise SettingsError(f"{name} must be a string, got {value!r}")
        return value

    def number(self, name: str, default: float, *, minimum: float, above: bool = False) -> float:
        value = self._raw(name)
        if value is None:
            return default
        number = self._parse(name, value, float, "a number of seconds")
        if not math.isfinite(number):
            raise SettingsError(f"{name} must be a finite number, got {value!r}")
        self._check_minimum(name, value, number, minimum, above)
        return number

    def integer(self, name: str, default: int, *, minimum: int) -> int:
        value = self._raw(name)
        if value is None:
            return default
        if isinstance(value, float) and not value.is_integer():
            raise SettingsError(f"{name} must be a whole number, got {value!r}")
        number = self._parse(name, value, int, "a whole number")
        self._check_minimum(name, value, number, minimum, above=False)
        return number

    @staticmethod
    def _parse(name: str, value: Any, kind: type, description: str) -> Any:
        if isinstance(value, bool):
            raise SettingsError(f"{name} must be {description}, got {value!r}")
        try:
            return kind(value)
        except (TypeError, ValueError):
            raise SettingsError(f"{name} must be {description}, got {value!r}") from None

    @staticmethod
    def _check_minimum(name: str, value: Any, number: float, minimum: float, above: bool) -> None:
        if above and number <= minimum:
            raise SettingsError(f"{name} must be greater than {minimum:g}, got {value!r}")
        if number < minimum:
            raise SettingsError(f"{name} must be at least {minimum:g}, got {value!r}")
