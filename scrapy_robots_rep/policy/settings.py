"""The ``REP_*`` settings: declared once in :data:`SETTINGS`, read and validated from a plain mapping.

:data:`SETTINGS` is the one table of settings (name, default, what it accepts, one line of doc);
:class:`RepSettings` is what one crawler's settings come to, built by
:meth:`RepSettings.from_mapping`. A bad value raises :class:`SettingsError` naming the setting
and what it accepts; the Scrapy layer turns that into a start-up error. The settings table of
``docs/behaviour.md`` is this table (a test keeps them equal).
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from scrapy_robots_rep.core.modes import MATCHING_MODES
from scrapy_robots_rep.core.page import PURPOSE_NAMES
from scrapy_robots_rep.policy.origin import ascii_host
from scrapy_robots_rep.policy.status import STATUS_POLICIES

_DAY = 86400.0
_TRUE_STRINGS = frozenset({"1", "true", "yes", "on"})
_FALSE_STRINGS = frozenset({"0", "false", "no", "off", ""})
_DOMAIN = re.compile(r"[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*")
_DEFAULT_AGENT = "Scrapy"
NOINDEX_CHOICES = ("drop", "keep")
DEFAULT_HTTPCACHE_POLICY = "scrapy.extensions.httpcache.DummyPolicy"

_Number = TypeVar("_Number", int, float)


class SettingsError(ValueError):
    """A setting has a value this package cannot use."""


Read = Callable[["SettingsReader", str, Any], Any]
"""How one setting is read: ``read(reader, name, default)`` returns its validated value."""


@dataclass(frozen=True, slots=True)
class Setting:
    """One ``REP_*`` setting: where it goes in :class:`RepSettings`, how it is read, and its doc line."""

    name: str
    field: str
    default: Any
    read: Read
    shown_default: str
    doc: str
    section: str


def _boolean(reader: SettingsReader, name: str, default: bool) -> bool:
    return reader.boolean(name, default)


def _text(reader: SettingsReader, name: str, default: str) -> str:
    return reader.text(name, default)


def _optional_text(reader: SettingsReader, name: str, default: None) -> str | None:
    return reader.optional_text(name)


def _optional_path(reader: SettingsReader, name: str, default: None) -> str | None:
    return reader.optional_path(name)


def _domains(reader: SettingsReader, name: str, default: tuple[str, ...]) -> tuple[str, ...]:
    return reader.domains(name)


def _purposes(reader: SettingsReader, name: str, default: tuple[str, ...]) -> tuple[str, ...]:
    return reader.purposes(name)


def _agent(reader: SettingsReader, name: str, default: str) -> str:
    """``REP_USER_AGENT``, else ``ROBOTSTXT_USER_AGENT``, else ``USER_AGENT`` (docs/behaviour.md §7)."""
    agent = reader.text(name, "")
    if agent:
        return agent
    for fallback in ("ROBOTSTXT_USER_AGENT", "USER_AGENT"):
        agent = (reader.optional_text(fallback) or "").strip()
        if agent:
            return agent
    return default


def _redis_url(reader: SettingsReader, name: str, default: str) -> str:
    """``REP_REDIS_URL``, else scrapy-redis's ``REDIS_URL`` (a fleet usually sets that one already)."""
    for source in REDIS_URL_SETTINGS:
        if reader.raw(source):
            return reader.text(source, default)
    return default


REDIS_URL_SETTINGS = ("REP_REDIS_URL", "REDIS_URL")
"""Where the shared store's Redis URL is read from, in order."""


def _redis_params(reader: SettingsReader, name: str, default: dict[str, Any]) -> dict[str, Any]:
    """``REP_REDIS_PARAMS``, else scrapy-redis's ``REDIS_PARAMS``: options of the redis-py client.

    The value is never echoed in an error: it may hold a password.
    """
    for source in REDIS_PARAMS_SETTINGS:
        value = reader.raw(source)
        if value is None:
            continue
        if not isinstance(value, Mapping) or not all(isinstance(key, str) for key in value):
            raise SettingsError(f"{source} must be a dict of redis-py client options (keyword: value)")
        return dict(value)
    return dict(default)


REDIS_PARAMS_SETTINGS = ("REP_REDIS_PARAMS", "REDIS_PARAMS")
"""Where the shared store's client options are read from, in order."""


def _choice(allowed: Iterable[str]) -> Read:
    names = tuple(allowed)
    return lambda reader, name, default: reader.choice(name, default, names)


def _number(minimum: float, *, above: bool = False) -> Read:
    return lambda reader, name, default: reader.number(name, default, minimum=minimum, above=above)


def _integer(minimum: int) -> Read:
    return lambda reader, name, default: reader.integer(name, default, minimum=minimum)


SETTINGS: tuple[Setting, ...] = (
    Setting("REP_ENABLED", "enabled", True, _boolean, "`True`", "`False` turns the robots.txt middleware off", "7"),
    Setting(
        "REP_MATCHING",
        "matching",
        "rfc9309",
        _choice(MATCHING_MODES),
        '`"rfc9309"`',
        'how rules are read and matched: `"rfc9309"` or `"legacy"`',
        "1-4",
    ),
    Setting(
        "REP_STATUS_POLICY",
        "status_policy",
        "rfc9309",
        _choice(STATUS_POLICIES),
        '`"rfc9309"`',
        'what robots.txt\'s HTTP status means: `"rfc9309"` or `"legacy"`',
        "5",
    ),
    Setting(
        "REP_USER_AGENT",
        "user_agent",
        _DEFAULT_AGENT,
        _agent,
        "`ROBOTSTXT_USER_AGENT`, else `USER_AGENT`",
        "the agent compared with `User-agent` lines",
        "7",
    ),
    Setting(
        "REP_FROM", "from_header", None, _optional_text, "none", "sent as the `From` header of robots.txt requests", "5"
    ),
    Setting(
        "REP_MAX_SIZE",
        "max_size",
        512_000,
        _integer(1),
        "`512000` (500 KiB)",
        "bytes of robots.txt read; the rest is ignored",
        "2",
    ),
    Setting("REP_MAX_REDIRECTS", "max_redirects", 5, _integer(0), "`5`", "redirect hops followed for robots.txt", "5"),
    Setting(
        "REP_FETCH_TIMEOUT",
        "fetch_timeout",
        30.0,
        _number(0, above=True),
        "`30` s",
        "time a robots.txt fetch may take",
        "5",
    ),
    Setting(
        "REP_UNREACHABLE_MAX_AGE",
        "unreachable_max_age",
        30 * _DAY,
        _number(0),
        "`2592000` (30 days)",
        "how long an origin may stay unreachable before the 30-day rule applies",
        "5",
    ),
    Setting(
        "REP_DEFER_MAX_TIME",
        "defer_max_time",
        600.0,
        _number(0),
        "`600` s",
        "how long requests wait for an unreachable robots.txt before they are dropped",
        "5",
    ),
    Setting(
        "REP_CACHE_TTL",
        "cache_ttl",
        _DAY,
        _number(0),
        "`86400` (1 day)",
        "lifetime of an origin's rules without freshness headers",
        "6",
    ),
    Setting(
        "REP_CACHE_HONOR_HEADERS",
        "cache_honor_headers",
        True,
        _boolean,
        "`True`",
        "let the response's HTTP freshness set the lifetime",
        "6",
    ),
    Setting(
        "REP_CACHE_TTL_MIN",
        "cache_ttl_min",
        60.0,
        _number(0),
        "`60` s",
        "shortest lifetime freshness headers may set",
        "6",
    ),
    Setting(
        "REP_CACHE_TTL_MAX",
        "cache_ttl_max",
        7 * _DAY,
        _number(0),
        "`604800` (7 days)",
        "longest lifetime freshness headers may set",
        "6",
    ),
    Setting(
        "REP_CACHE_MAX_ORIGINS",
        "cache_max_origins",
        100_000,
        _integer(1),
        "`100000`",
        "origins kept in memory, least recently used evicted",
        "6",
    ),
    Setting(
        "REP_CACHE_BACKEND",
        "cache_backend",
        None,
        _optional_text,
        "none (memory only)",
        'a shared store for a fleet of processes: `"scrapy_robots_rep.RedisStore"`',
        "6",
    ),
    Setting(
        "REP_REDIS_URL",
        "redis_url",
        "redis://localhost:6379/0",
        _redis_url,
        "scrapy-redis's `REDIS_URL`, else `redis://localhost:6379/0`",
        "the Redis server of `RedisStore`",
        "6",
    ),
    Setting(
        "REP_REDIS_PARAMS",
        "redis_params",
        {},
        _redis_params,
        "scrapy-redis's `REDIS_PARAMS`, else none",
        "options of `RedisStore`'s redis-py client (TLS certificates, username, password...)",
        "6",
    ),
    Setting(
        "REP_REDIS_PREFIX", "redis_prefix", "rep:", _text, '`"rep:"`', "prefix of every key `RedisStore` writes", "6"
    ),
    Setting(
        "REP_REDIS_LOCK_TIMEOUT",
        "redis_lock_timeout",
        10.0,
        _number(0, above=True),
        "`10` s",
        "how long a fleet's fetch lock, and the lease of requests parked in Redis, last without renewal",
        "6",
    ),
    Setting(
        "REP_REDIS_TIMEOUT",
        "redis_timeout",
        1.0,
        _number(0, above=True),
        "`1` s",
        "how long a Redis command may take before Redis counts as away",
        "6",
    ),
    Setting("REP_CRAWL_DELAY", "crawl_delay", True, _boolean, "`True`", "obey `Crawl-delay` and `Request-rate`", "7"),
    Setting(
        "REP_CRAWL_DELAY_MAX",
        "crawl_delay_max",
        60.0,
        _number(0),
        "`60` s",
        "longest delay a robots.txt may impose",
        "7",
    ),
    Setting(
        "REP_EXEMPT_DOMAINS",
        "exempt_domains",
        (),
        _domains,
        "empty",
        "domains (and their subdomains) never checked",
        "7",
    ),
    Setting(
        "REP_PAGE_DIRECTIVES",
        "page_directives",
        True,
        _boolean,
        "`True`",
        "obey page-level directives (with the add-on, or the spider middleware enabled)",
        "10",
    ),
    Setting(
        "REP_PAGE_NOINDEX",
        "page_noindex",
        "drop",
        _choice(NOINDEX_CHOICES),
        '`"drop"`',
        'items of a `noindex` page: `"drop"` or `"keep"`',
        "10",
    ),
    Setting(
        "REP_PAGE_REL_NOFOLLOW",
        "page_rel_nofollow",
        False,
        _boolean,
        "`False`",
        'also drop requests for links marked `rel="nofollow"`',
        "10",
    ),
    Setting(
        "REP_PURPOSES",
        "purposes",
        (),
        _purposes,
        "empty",
        "what the crawl's data is used for: `search`, `ai-input` (= `ai-use`), `ai-train` (= `train-ai`)",
        "10",
    ),
    Setting(
        "REP_HTTPCACHE_POLICY",
        "httpcache_policy",
        DEFAULT_HTTPCACHE_POLICY,
        _text,
        "Scrapy's `DummyPolicy`",
        "the HTTP-cache policy `RobotsCachePolicy` wraps",
        "10",
    ),
    Setting(
        "REP_REPORT",
        "report",
        None,
        _optional_path,
        "none",
        "write the end-of-crawl report to this JSON file (`{worker}` becomes host-pid)",
        "11",
    ),
    Setting(
        "REP_MAX_PARKED",
        "max_parked",
        10_000,
        _integer(1),
        "`10000`",
        "requests one process holds while they wait for robots.txt; more stay in the scheduler",
        "5",
    ),
    Setting(
        "REP_AUDIT_DIR",
        "audit_dir",
        None,
        _optional_path,
        "none (nothing written)",
        "keep the audit trail in this directory: robots.txt bodies, fetches, decisions, pages "
        "([evidence.md](evidence.md))",
        "11",
    ),
    Setting(
        "REP_AUDIT_COMPRESS",
        "audit_compress",
        False,
        _boolean,
        "`False`",
        "gzip the audit trail's JSON-lines files",
        "11",
    ),
    Setting(
        "REP_AUDIT_WARC",
        "audit_warc",
        False,
        _boolean,
        "`False`",
        "also write every robots.txt request and answer as WARC/1.1 records (needs the `[warc]` extra)",
        "11",
    ),
    Setting(
        "REP_PROVENANCE_FIELD",
        "provenance_field",
        None,
        _optional_text,
        "none",
        "add each page's provenance to every item its callback yields, in this field",
        "11",
    ),
)
"""Every ``REP_*`` setting, in the order ``docs/behaviour.md`` lists them."""

SETTING_NAMES = frozenset(setting.name for setting in SETTINGS)


@dataclass(frozen=True, slots=True)
class RepSettings:
    """Every ``REP_*`` setting of one crawler, validated; one field per row of :data:`SETTINGS`.

    ``user_agent`` is the configured agent string, not reduced: the matching mode reduces it
    (``matching_mode(matching).agent_token(user_agent)``). ``matching`` and ``status_policy``
    are keys of ``MATCHING_MODES`` and ``STATUS_POLICIES``. ``defer_max_time`` 0 means
    requests of an unreachable origin are dropped at once.
    """

    enabled: bool
    matching: str
    status_policy: str
    user_agent: str
    from_header: str | None
    max_size: int
    max_redirects: int
    fetch_timeout: float
    unreachable_max_age: float
    defer_max_time: float
    cache_ttl: float
    cache_honor_headers: bool
    cache_ttl_min: float
    cache_ttl_max: float
    cache_max_origins: int
    cache_backend: str | None
    redis_url: str
    redis_params: dict[str, Any]
    redis_prefix: str
    redis_lock_timeout: float
    redis_timeout: float
    crawl_delay: bool
    crawl_delay_max: float
    exempt_domains: tuple[str, ...]
    page_directives: bool
    page_noindex: str
    page_rel_nofollow: bool
    purposes: tuple[str, ...]
    httpcache_policy: str
    report: str | None
    max_parked: int
    audit_dir: str | None
    audit_compress: bool
    audit_warc: bool
    provenance_field: str | None

    @classmethod
    def from_mapping(cls, settings: Mapping[str, Any]) -> RepSettings:
        """Build from Scrapy settings or any mapping of setting names to values (absent: the default)."""
        reader = SettingsReader(settings)
        result = cls(**{setting.field: setting.read(reader, setting.name, setting.default) for setting in SETTINGS})
        if result.cache_ttl_min > result.cache_ttl_max:
            raise SettingsError(
                f"REP_CACHE_TTL_MIN ({result.cache_ttl_min:g}) must not be greater than "
                f"REP_CACHE_TTL_MAX ({result.cache_ttl_max:g})"
            )
        if result.audit_warc and result.audit_dir is None:
            raise SettingsError("REP_AUDIT_WARC = True needs REP_AUDIT_DIR: the directory the WARC file is written to")
        return result


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

    def purposes(self, name: str) -> tuple[str, ...]:
        """Content-usage purposes: a list, or one comma-separated string; each a name of ``PURPOSE_NAMES``
        (``Content-Signal``'s or AIPREF's: ``train-ai`` is ``ai-train``), kept by its ``Content-Signal`` name."""
        value = self.raw(name)
        if value is None:
            return ()
        if isinstance(value, str):
            entries: list[Any] = [entry for entry in value.split(",") if entry.strip()]
        elif isinstance(value, (list, tuple, set, frozenset)):
            entries = list(value)
        else:
            raise SettingsError(f"{name} must be a list of purposes or a comma-separated string, got {value!r}")
        purposes: list[str] = []
        for entry in entries:
            purpose = PURPOSE_NAMES.get(entry.strip().lower()) if isinstance(entry, str) else None
            if purpose is None:
                allowed = ", ".join(repr(option) for option in PURPOSE_NAMES)
                raise SettingsError(f"{name} entries must be among {allowed}, got {entry!r}")
            if purpose not in purposes:
                purposes.append(purpose)
        return tuple(purposes)

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
