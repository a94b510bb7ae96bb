"""Turn a robots.txt body into lines, and lines into ``(line, field, value)`` directives.

Both matching modes share this step. ``lenient`` parsing (the ``rfc9309`` mode)
also accepts what Google's parser accepts: field names that merely start with a
known name or a frequent misspelling of it, and a missing colon when the field
and its value are separated by whitespace.

The fields, their spellings and misspellings are rows of ``fields.FIELDS``.
A directive's field is the canonical name of a known field (``KNOWN_FIELDS``)
or, for any other field, its own lower-cased name: unknown fields reach the
directive stream with their name and are ignored by grouping and matching.

``parse_line`` is the definition for one line; ``read_directives`` gives the
same result for a whole file, faster, by reading the usual ``field: value``
lines with one regular expression and passing only the other lines to
``parse_line``.
"""

from __future__ import annotations

import re

from scrapy_robots_rep.core.fields import (
    ALLOW,
    CONTENT_SIGNAL,
    CONTENT_USAGE,
    CRAWL_DELAY,
    DISALLOW,
    KNOWN_FIELDS,
    LENIENT_PREFIXES,
    LICENSE,
    MISSPELLINGS,
    REQUEST_RATE,
    SITEMAP,
    USER_AGENT,
)

__all__ = [
    "ALLOW",
    "BLANK",
    "BLANK_LINE",
    "CONTENT_SIGNAL",
    "CONTENT_USAGE",
    "CRAWL_DELAY",
    "DISALLOW",
    "KNOWN_FIELDS",
    "LICENSE",
    "MAX_LINE_BYTES",
    "MISSPELLINGS",
    "REQUEST_RATE",
    "SITEMAP",
    "USER_AGENT",
    "Directive",
    "canonical_field",
    "decode",
    "parse_line",
    "read_directives",
]

BLANK = ""
"""The field of a blank line: no field name is empty, so it never clashes."""

# Google's parser keeps at most 2083 * 8 - 1 bytes of a line and drops the rest.
MAX_LINE_BYTES = 2083 * 8 - 1

BLANK_LINE = (BLANK, "")

# A line of more characters than this may hold more than MAX_LINE_BYTES bytes.
_LONG_LINE_CHARS = MAX_LINE_BYTES // 4

# Field names as usually written, looked up before lower-casing.
_USUAL_SPELLINGS = {
    spelling: name for name in KNOWN_FIELDS for spelling in (name, name.upper(), name.title(), name.capitalize())
}

Directive = tuple[int, str, str]
"""``(1-based line number, field, value)``."""

# One match per line: the optional group is a ``field: value`` line (field and
# value still to be stripped); otherwise both groups are empty.
_FIELD_VALUE_LINE = re.compile(r"^[ \t\v\f]*(?:([^:#\n]*):[ \t\v\f]*([^#\n]*))?[^\n]*", re.MULTILINE)

# Lenient reading takes a key that starts with one of these as its field (``fields.LENIENT_PREFIXES``).
_LENIENT_PREFIXES = LENIENT_PREFIXES
_LENIENT_STARTS = tuple(prefix for prefix, _ in _LENIENT_PREFIXES)


def decode(body: bytes | str, max_size: int) -> str:
    """The text of the first ``max_size`` bytes of ``body``, lines ended by LF.

    A line cut by the size limit is dropped; invalid UTF-8 is dropped; a leading
    byte order mark is ignored; LF, CR and CRLF all end a line; a line longer
    than ``MAX_LINE_BYTES`` is cut there.
    """
    data = body.encode("utf-8", "surrogatepass") if isinstance(body, str) else body
    if len(data) > max_size:
        kept = data[:max_size]
        if data[max_size] not in b"\r\n":
            kept = kept[: max(kept.rfind(b"\n"), kept.rfind(b"\r")) + 1]
        data = kept
    text = data.decode("utf-8", "ignore")
    text = text.removeprefix("\ufeff")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    # No line can be too long in a short body; in a longer one, only a line of many characters.
    if len(data) > MAX_LINE_BYTES and _has_long_line(text):
        text = "\n".join(map(_cap_line, text.split("\n")))
    return text


def _has_long_line(text: str) -> bool:
    """Whether a line of ``text`` has more than ``_LONG_LINE_CHARS`` characters.

    Each step looks back from the end of the window of the next line's first
    characters for its last line end, so it reads a few characters per window."""
    window = _LONG_LINE_CHARS + 1
    start = 0
    while len(text) - start >= window:
        line_end = text.rfind("\n", start, start + window)
        if line_end < 0:
            return True
        start = line_end + 1
    return False


def read_directives(text: str, lenient: bool) -> tuple[list[str], list[Directive]]:
    """The lines of ``text`` and its directives (blank lines included as ``BLANK``)."""
    lines = text.split("\n")
    directives: list[Directive] = []
    append = directives.append
    for number, (key, value) in enumerate(_FIELD_VALUE_LINE.findall(text), 1):
        if key:
            field = _USUAL_SPELLINGS.get(key)
            if field is None:
                field = key.strip().lower()
                if not field:
                    continue
                if field not in KNOWN_FIELDS and lenient:
                    field = _lenient_field(field)
            append((number, field, value.strip()))
            continue
        line = lines[number - 1]
        parsed = parse_line(line, lenient) if line else BLANK_LINE
        if parsed is not None:
            append((number, parsed[0], parsed[1]))
    return lines, directives


def _cap_line(line: str) -> str:
    """Keep at most ``MAX_LINE_BYTES`` UTF-8 bytes of ``line``."""
    if len(line) <= _LONG_LINE_CHARS:
        return line
    encoded = line.encode("utf-8", "surrogatepass")
    if len(encoded) <= MAX_LINE_BYTES:
        return line
    return encoded[:MAX_LINE_BYTES].decode("utf-8", "ignore")


def parse_line(line: str, lenient: bool) -> tuple[str, str] | None:
    """Return ``(field, value)`` for a directive, ``BLANK_LINE`` for an empty
    line, or None for a comment or a line that is not a directive.

    ``field`` is a name of ``KNOWN_FIELDS`` or, for another field, its own
    lower-cased name (see ``canonical_field``)."""
    comment_at = line.find("#")
    if comment_at >= 0:
        line = line[:comment_at]
    colon_at = line.find(":")
    if colon_at >= 0:
        key = line[:colon_at].strip()
        value = line[colon_at + 1 :].strip()
    else:
        stripped = line.strip()
        if not stripped:
            return BLANK_LINE if comment_at < 0 else None
        if not lenient:
            return None
        words = [word for word in stripped.replace("\t", " ").split(" ") if word]
        if len(words) != 2:
            return None
        key, value = words
    if not key:
        return None
    return _USUAL_SPELLINGS.get(key) or canonical_field(key, lenient), value


def canonical_field(key: str, lenient: bool) -> str:
    """The field a line's ``key`` names: a name of ``KNOWN_FIELDS``, or ``key``
    stripped and lower-cased when it names none.

    Lenient reading also takes a key that starts with a known name or with one
    of ``MISSPELLINGS`` as that field, as Google's parser does; so a key read
    as a known field only when ``lenient`` is true is one Google tolerates."""
    usual = _USUAL_SPELLINGS.get(key)
    if usual is not None:
        return usual
    field = key.strip().lower()
    if field in KNOWN_FIELDS or not lenient:
        return field
    return _lenient_field(field)


def _lenient_field(key: str) -> str:
    if key.startswith(_LENIENT_STARTS):
        for prefix, field in _LENIENT_PREFIXES:
            if key.startswith(prefix):
                return field
    return key
