"""HTTP freshness and validators of a robots.txt response (docs/behaviour.md §6).

Pure functions of response headers, given as a mapping of lower-case names to
values (``Cache-Control`` values joined with ``", "``; one value for the
others). Malformed headers are ignored, never an error: a server cannot break
the crawl with a bad date.

Lifetime, with ``honor_headers``, clamped to [``ttl_min``, ``ttl_max``]:
``no-cache`` or ``no-store`` give ``ttl_min``; else ``max-age`` minus ``Age``;
else ``Expires`` minus ``Date`` (minus now without a usable ``Date``); without
any of them, ``ttl`` (not clamped: it is the operator's own choice).
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Mapping
from email.utils import parsedate_to_datetime
from enum import Enum
from typing import NamedTuple

from scrapy_robots_rep.core.lazy_patterns import compiled_on_use

_DIRECTIVE = compiled_on_use(r"""([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*(?:=\s*("(?:[^"\\]|\\.)*"|[^,\s]*))?""")
_DELTA_SECONDS = compiled_on_use(r"[0-9]+")
_DELTA_SECONDS_MAX = 2**31
"""RFC 9111 §1.2.2: a larger delta-seconds value (however many digits) counts as this."""
_MAX_VALIDATOR_LENGTH = 1024
"""Longer ``ETag`` / ``Last-Modified`` values are ignored: they would be copied into every shared record."""


class LifetimeSource(Enum):
    """Where a freshness lifetime came from."""

    MAX_AGE = "max-age"  # Cache-Control: max-age (minus Age)
    EXPIRES = "expires"  # Expires minus Date
    NO_CACHE = "no-cache"  # Cache-Control: no-cache or no-store: the minimum
    DEFAULT = "default"  # no freshness headers, or headers not honoured: REP_CACHE_TTL


class Freshness(NamedTuple):
    """How long a response stays fresh, in seconds, and why."""

    lifetime: float
    source: LifetimeSource


def freshness(
    headers: Mapping[str, str],
    now: float,
    *,
    ttl: float,
    honor_headers: bool,
    ttl_min: float,
    ttl_max: float,
) -> Freshness:
    """The freshness of a response received at ``now`` (seconds since the epoch)."""
    if not honor_headers:
        return Freshness(ttl, LifetimeSource.DEFAULT)
    directives = _cache_control(headers.get("cache-control", ""))
    if _applies_to_body(directives, "no-store") or _applies_to_body(directives, "no-cache"):
        return Freshness(ttl_min, LifetimeSource.NO_CACHE)
    max_age = _delta_seconds(directives.get("max-age"))
    if max_age is not None:
        age = _delta_seconds(headers.get("age", "").partition(",")[0]) or 0
        return Freshness(_clamp(max_age - age, ttl_min, ttl_max), LifetimeSource.MAX_AGE)
    expires = http_date(headers.get("expires"))
    if expires is not None:
        date = http_date(headers.get("date"))
        lifetime = expires - (now if date is None else date)
        return Freshness(_clamp(lifetime, ttl_min, ttl_max), LifetimeSource.EXPIRES)
    return Freshness(ttl, LifetimeSource.DEFAULT)


class Validators(NamedTuple):
    """The ``ETag`` and ``Last-Modified`` of a response, to revalidate it with a conditional request."""

    etag: str | None = None
    last_modified: str | None = None

    def request_headers(self) -> dict[str, str]:
        """``If-None-Match`` / ``If-Modified-Since`` for the conditional refresh."""
        headers = {}
        if self.etag is not None:
            headers["If-None-Match"] = self.etag
        if self.last_modified is not None:
            headers["If-Modified-Since"] = self.last_modified
        return headers


def validators_from(headers: Mapping[str, str]) -> Validators | None:
    """The validators of a response; ``None`` when it has no usable ``ETag`` nor ``Last-Modified``."""
    etag = _validator(headers.get("etag"))
    last_modified = _validator(headers.get("last-modified"))
    if last_modified is not None and http_date(last_modified) is None:
        last_modified = None
    if etag is None and last_modified is None:
        return None
    return Validators(etag=etag, last_modified=last_modified)


def retry_after(headers: Mapping[str, str], now: float) -> float | None:
    """Seconds ``Retry-After`` asks to wait (delay-seconds or an HTTP date); ``None`` if absent or malformed."""
    value = headers.get("retry-after", "").strip()
    if not value:
        return None
    seconds = _delta_seconds(value)
    if seconds is not None:
        return float(seconds)
    when = http_date(value)
    return None if when is None else max(when - now, 0.0)


def http_date(value: str | None) -> float | None:
    """An HTTP date (any of the three formats of RFC 9110 §5.6.7) as seconds since the epoch; ``None`` if malformed."""
    if not value:
        return None
    try:
        parsed = parsedate_to_datetime(value.strip())
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if parsed.tzinfo is None:  # asctime and "-0000" dates carry no zone; HTTP dates are GMT
        return float(calendar.timegm(parsed.timetuple()))
    return parsed.timestamp()


def _cache_control(value: str) -> dict[str, str | None]:
    """Directive name (lower case) -> argument (unquoted) or None; the first occurrence wins."""
    directives: dict[str, str | None] = {}
    for name, argument in _DIRECTIVE().findall(value):
        if argument.startswith('"'):
            argument = re.sub(r"\\(.)", r"\1", argument[1:-1])
        directives.setdefault(name.lower(), argument or None)
    return directives


def _applies_to_body(directives: Mapping[str, str | None], name: str) -> bool:
    """``no-cache="Set-Cookie"`` restricts named header fields only, not the body."""
    return name in directives and directives[name] is None


def _delta_seconds(value: str | None) -> int | None:
    if value is None or not _DELTA_SECONDS().fullmatch(value.strip()):
        return None
    digits = value.strip().lstrip("0")
    return _DELTA_SECONDS_MAX if len(digits) > 10 else min(int(digits or "0"), _DELTA_SECONDS_MAX)


def _validator(value: str | None) -> str | None:
    if value is None:
        return None
    value = value.strip()
    if not value or len(value) > _MAX_VALIDATOR_LENGTH or any(ord(char) < 0x20 or ord(char) == 0x7F for char in value):
        return None
    return value


def _clamp(lifetime: float, ttl_min: float, ttl_max: float) -> float:
    return float(min(max(lifetime, ttl_min), ttl_max))
