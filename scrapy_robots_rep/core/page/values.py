"""Reading a robots directive list (``noindex, max-snippet: 20, unavailable_after: <date>``).

Directives are separated by commas (a semicolon is read as one too, as authors write it); a part
made only of known words separated by spaces (``noindex nofollow``) is read as those words.
``name: value`` parts keep their value; an ``unavailable_after`` date keeps its commas (RFC 822
and RFC 850 dates have one after the weekday). ``X-Robots-Tag`` values may hold agent scopes
(``mybot: noindex``), each covering the value up to the next scope; a valued directive
(``max-snippet:``, ``unavailable_after:``) is never read as a scope.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from email.utils import parsedate_tz
from functools import lru_cache
from typing import NamedTuple

from scrapy_robots_rep.core.lazy_patterns import compiled_on_use

BOOLEAN_DIRECTIVES = frozenset(
    (
        *("noindex", "nofollow", "none", "noarchive", "nocache", "nosnippet", "noimageindex"),
        *("index", "follow", "all", "noai", "noimageai", "notranslate", "indexifembedded", "noodp", "noydir"),
    )
)
VALUED_DIRECTIVES = frozenset(("max-snippet", "max-image-preview", "max-video-preview", "unavailable_after"))
UNAVAILABLE_AFTER = "unavailable_after"

_SEPARATORS = re.compile(r"[,;]")
_SCOPE = re.compile(r"\s*([^\s:,;]+)\s*:(.*)", re.DOTALL)
_MAX_DATE_PARTS = 3


class Item(NamedTuple):
    """One directive as written: its lower-cased name, its value (for ``name: value``), its text."""

    name: str
    value: str | None
    text: str


@lru_cache(maxsize=4096)
def scoped_parts(header_value: str) -> tuple[tuple[str | None, str], ...]:
    """One ``X-Robots-Tag`` value cut where a scope starts: ``(scope, text)`` pairs in order,
    ``scope`` None for the unscoped start. A ``name:`` that is not a directive name starts a
    scope that runs to the next one (``otherbot: noindex, mybot: nofollow`` gives ``mybot``
    only ``nofollow``); a valued directive (``max-snippet:``) never does."""
    parts: list[tuple[str | None, str]] = []
    scope: str | None = None
    start = 0
    for at in (0, *(separator.end() for separator in _SEPARATORS.finditer(header_value))):
        match = _SCOPE.match(header_value, at)
        if match is None:
            continue
        name = match.group(1).lower()
        if name in VALUED_DIRECTIVES or name in BOOLEAN_DIRECTIVES:
            continue
        before = header_value[start : max(at - 1, 0)]
        if scope is not None or before.strip(" \t,;"):
            parts.append((scope, before))
        scope, start = name, match.start(2)
    parts.append((scope, header_value[start:]))
    return tuple(parts)


@lru_cache(maxsize=4096)
def directive_items(text: str) -> tuple[Item, ...]:
    """The directives of one ``content`` attribute or one (unscoped) header value, in order
    (remembered: a site serves the same few values on every page)."""
    parts = [part.strip() for part in _SEPARATORS.split(text)]
    items: list[Item] = []
    index = 0
    while index < len(parts):
        part = parts[index]
        index += 1
        if not part:
            continue
        name, colon, value = part.partition(":")
        name = name.strip().lower()
        if colon:
            value = value.strip()
            if name == UNAVAILABLE_AFTER:
                glued = 0
                while parse_date(value) is None and index < len(parts) and glued < _MAX_DATE_PARTS:
                    if _looks_like_directive(parts[index]):
                        break
                    value = f"{value}, {parts[index]}"
                    index += 1
                    glued += 1
            items.append(Item(name, value, f"{name}: {value}"))
            continue
        words = name.split()
        if len(words) > 1 and all(word in BOOLEAN_DIRECTIVES for word in words):
            items.extend(Item(word, None, word) for word in words)
        else:
            items.append(Item(" ".join(words), None, part))
    return tuple(items)


def _looks_like_directive(part: str) -> bool:
    head = part.partition(":")[0].strip().lower()
    return head in BOOLEAN_DIRECTIVES or head in VALUED_DIRECTIVES


_ISO_DATE = compiled_on_use(r"\d{4}-\d{2}-\d{2}")
_DAY_MONTH_YEAR = compiled_on_use(r"(?:[A-Za-z]+,?\s+)?\d{1,2}[-\s][A-Za-z]{3,9}[-\s]\d{2,4}")


def parse_date(text: str) -> datetime | None:
    """An ``unavailable_after`` date in a form Google documents (RFC 822, RFC 850, ISO 8601),
    as an aware UTC datetime; None when it is not a date. A date without a zone is read as UTC."""
    text = text.strip()
    if _ISO_DATE().match(text):
        return _iso_date(text)
    candidates = [text]
    if _DAY_MONTH_YEAR().fullmatch(text):
        candidates.append(text + " 00:00:00")
    for candidate in candidates:
        fields = parsedate_tz(candidate)
        if fields is None:
            continue
        year, month, day, hour, minute, second = fields[:6]
        try:
            moment = datetime(year, month, day, hour, minute, second, tzinfo=timezone.utc)
        except ValueError:
            return None
        return moment - timedelta(seconds=fields[9] or 0)
    return None


def _iso_date(text: str) -> datetime | None:
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return moment.replace(tzinfo=timezone.utc) if moment.tzinfo is None else moment.astimezone(timezone.utc)
