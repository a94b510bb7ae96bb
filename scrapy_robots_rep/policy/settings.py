"""The ``REP_*`` settings, read and validated from a plain mapping.

A bad value raises :class:`SettingsError` naming the setting and what it
accepts; the Scrapy layer turns that into a start-up error. Other components
read their own settings the same way with :class:`SettingsReader`.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from scrapy_robots_rep.core.modes import MATCHING_MODES
from scrapy_robots_rep.policy.origin import ascii_host
from scrapy_robots_rep.policy.status import STATUS_POLICIES

_DAY = 86400.0
_TRUE_STRINGS = frozenset({"1", "true", "yes", "on"})
_FALSE_STRINGS = frozenset({"0", "false", "no", "off", ""})
_DOMAIN = re.compile(r"[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*")
_DEFAULT_AGENT = "Scrapy"

_Number = TypeVar("_Number", int, float)


class SettingsError(ValueError):
    """A setting has a value this package cannot use."""


@dataclass(frozen=True, slots=True)
class RepSettings:
    """Every ``REP_*`` setting, validated, with the defaults of docs/behaviour.md.

    ``user_agent`` is the configured agent string (``REP_USER_AGENT``, else
    ``ROBOTSTXT_USER_AGENT``, else ``USER_AGENT``), not reduced: the matching
    mode reduces it (``matching_mode(matching).agent_token(user_agent)``).
    ``matching`` and ``status_policy`` are names, keys of ``MATCHING_MODES`` and
    ``STATUS_POLICIES``. ``defer_max_time`` 0 means requests of an unreachable
    origin are never deferred: they are dropped at once.
    """

    enabled: bool = True
    matching: str = "rfc9309"
    status_policy: str = "rfc9309"
    user_agent: str = _DEFAULT_AGENT
    from_header: str | None = None
    max_size: int = 512_000
    max_redirects: int = 5
    fetch_timeout: float = 30.0
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
    exempt_domains: tuple[str, ...] = ()
    report: str | None = None
    max_parked: int = 10_000

    @classmethod
    def from_mapping(cls, settings: Mapping[str, Any]) -> RepSettings:
        """Build from Scrapy settings or any mapping of setting names to values."""
        reader = SettingsReader(settings)
        defaults = cls()
        result = cls(
            enabled=reader.boolean("REP_ENABLED", defaults.enabled),
            matching=reader.choice("REP_MATCHING", defaults.matching, MATCHING_MODES),
            status_policy=reader.choice("REP_STATUS_POLICY", defaults.status_policy, STATUS_POLICIES),
            user_agent=_configured_agent(reader),
            from_header=reader.optional_text("REP_FROM"),
            max_size=reader.integer("REP_MAX_SIZE", defaults.max_size, minimum=1),
            max_redirects=reader.integer("REP_MAX_REDIRECTS", defaults.max_redirects, minimum=0),
            fetch_timeout=reader.number("REP_FETCH_TIMEOUT", defaults.fetch_timeout, minimum=0, above=True),
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
            exempt_domains=reader.domains("REP_EXEMPT_DOMAINS"),
            report=reader.optional_path("REP_REPORT"),
            max_parked=reader.integer("REP_MAX_PARKED", defaults.max_parked, minimum=1),
        )
        if result.cache_ttl_min > result.cache_ttl_max:
            raise SettingsError(
                f"REP_CACHE_TTL_MIN ({result.cache_ttl_min:g}) must not be greater than "
                f"REP_CACHE_TTL_MAX ({result.cache_ttl_max:g})"
            )
        return result


def _configured_agent(reader: SettingsReader) -> str:
    """``REP_USER_AGENT``, else ``ROBOTSTXT_USER_AGENT``, else ``USER_AGENT`` (docs/behaviour.md §7)."""
    agent = reader.text("REP_USER_AGENT", "")
    if agent:
        return agent
    for name in ("ROBOTSTXT_USER_AGENT", "USER_AGENT"):
        agent = (reader.optional_text(name) or "").strip()
        if agent:
            return agent
    return _DEFAULT_AGENT


class SettingsReader:
    """Reads one typed setting at a time from a mapping, raising :class:`SettingsError` on bad values.

    ``None`` (or a missing name) gives the default. Strings, as ``scrapy -s NAME=value``
    passes them, are converted.
    """

    def __init__(self, settings: Mapping[str, Any]) -> None:
        self._settings = settings

    def raw(self, name: str) -> Any:
        """The value as configured, ``None`` when not set."""
        return self._settings.get(name)

    def boolean(self, name: str, default: bool) -> bool:
        value = self.raw(name)
        if value is None:
            return default
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        if isinstance(value, str) and value.strip().lower() in _TRUE_STRINGS | _FALSE_STRINGS:
            return value.strip().lower() in _TRUE_STRINGS
        raise SettingsError(f"{name} must be True or False, got {value!r}")

    def choice(self, name: str, default: str, allowed: Iterable[str]) -> str:
        """One of ``allowed`` (for a registry such as ``STATUS_POLICIES``: one of its names)."""
        value = self.raw(name)
        if value is None:
            return default
        names = list(allowed)
        if value not in names:
            options = ", ".join(repr(option) for option in names)
            raise SettingsError(f"{name} must be one of {options}, got {value!r}")
        return str(value)

    def text(self, name: str, default: str) -> str:
        """A non-empty string, stripped."""
        value = self.raw(name)
        if value is None:
            return default
        if not isinstance(value, str) or not value.strip():
            raise SettingsError(f"{name} must be a non-empty string, got {value!r}")
        return value.strip()

    def optional_text(self, name: str) -> str | None:
        """A string; ``None`` when not set or empty."""
        value = self.raw(name)
        if value is None or value == "":
            return None
        if not isinstance(value, str):
            raise SettingsError(f"{name} must be a string, got {value!r}")
        return value

    def optional_path(self, name: str) -> str | None:
        """A file path (a string or ``pathlib.Path``); ``None`` when not set or empty."""
        value = self.raw(name)
        if isinstance(value, os.PathLike):
            value = os.fspath(value)
        if value is None or value == "":
            return None
        if not isinstance(value, str):
            raise SettingsError(f"{name} must be a file path, got {value!r}")
        return value

    def number(self, name: str, default: float, *, minimum: float, above: bool = False) -> float:
        """A finite number, at least ``minimum`` (greater than it with ``above``)."""
        value = self.raw(name)
        if value is None:
            return default
        number = self._parse(name, value, float, "a number of seconds")
        if not math.isfinite(number):
            raise SettingsError(f"{name} must be a finite number, got {value!r}")
        self._check_minimum(name, value, number, minimum, above)
        return number

    def integer(self, name: str, default: int, *, minimum: int) -> int:
        """A whole number, at least ``minimum``."""
        value = self.raw(name)
        if value is None:
            return default
        if isinstance(value, float) and not value.is_integer():
            raise SettingsError(f"{name} must be a whole number, got {value!r}")
        number = self._parse(name, value, int, "a whole number")
        self._check_minimum(name, value, number, minimum, above=False)
        return number

    def domains(self, name: str) -> tuple[str, ...]:
        """Domain names: a list or tuple, or one comma-separated string; lower-cased, IDN as punycode."""
        value = self.raw(name)
        if value is None:
            return ()
        if isinstance(value, str):
            entries = [entry for entry in value.split(",") if entry.strip()]
        elif isinstance(value, (list, tuple)):
            entries = list(value)
        else:
            raise SettingsError(f"{name} must be a list of domain names or a comma-separated string, got {value!r}")
        domains: list[str] = []
        for entry in entries:
            domain = _domain(name, entry)
            if domain not in domains:
                domains.append(domain)
        return tuple(domains)

    @staticmethod
    def _parse(name: str, value: Any, kind: type[_Number], description: str) -> _Number:
        if isinstance(value, bool):
            raise SettingsError(f"{name} must be {description}, got {value!r}")
        try:
            return kind(value)
        except (TypeError, ValueError, OverflowError):
            raise SettingsError(f"{name} must be {description}, got {value!r}") from None

    @staticmethod
    def _check_minimum(name: str, value: Any, number: float, minimum: float, above: bool) -> None:
        if above and number <= minimum:
            raise SettingsError(f"{name} must be greater than {minimum:g}, got {value!r}")
        if number < minimum:
            raise SettingsError(f"{name} must be at least {minimum:g}, got {value!r}")


def _domain(name: str, entry: Any) -> str:
    """One exempt domain, normalised; a URL or a pattern gets an error saying what to write instead."""
    if not isinstance(entry, str) or not entry.strip():
        raise SettingsError(f"{name} must list domain names such as 'api.example.com', got {entry!r}")
    text = entry.strip()
    if "://" in text or "/" in text:
        raise SettingsError(f"{name} lists domain names, not URLs: got {text!r}; write e.g. 'api.example.com'")
    domain = ascii_host(text.lstrip("."))
    if not _DOMAIN.fullmatch(domain):
        raise SettingsError(
            f"{name} lists domain names (subdomains are included; no '*', no port): got {text!r}; "
            "write e.g. 'example.com'"
        )
    return domain
