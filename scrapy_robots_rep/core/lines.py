"""Turn a robots.txt body into lines, and lines into ``(line, field, value)`` directives.

Both matching modes share this step. ``lenient`` parsing (the ``rfc9309`` mode)
also accepts what Google's parser accepts: field names that merely start with a
known name or a frequent misspelling of it, and a missing colon when the field
and its value are separated by whitespace.

``parse_line`` is the definition for one line; ``read_directives`` gives the
same result for a whole file, faster, by reading the usual ``field: value``
lines with one regular expression and passing only the other lines to
``parse_line``.
"""

from __future__ import annotations

import re

USER_AGENT = "user-agent"
ALLOW = "allow"
DISALLOW = "disallow"
SITEMAP = "sitemap"
CRAWL_DELAY = "crawl-delay"
REQUEST_RATE = "request-rate"
OTHER = "other"
BLANK = "blank"

# Google's parser keeps at most 2083 * 8 - 1 bytes of a line and drops the rest.
MAX_LINE_BYTES = 2083 * 8 - 1

BLANK_LINE = (BLANK, "")

_FIELDS = {
    "user-agent": USER_AGENT,
    "allow": ALLOW,
    "disallow": DISALLOW,
    "sitemap": SITEMAP,
    "crawl-delay": CRAWL_DELAY,
    "request-rate": REQUEST_RATE,
}
# Field names as usually written, looked up before lower-casing.
_USUAL_SPELLINGS = {
    spelling: field
    for name, field in _FIELDS.items()
    for spelling in (name, name.upper(), name.title(), name.capitalize())
}

Directive = tuple[int, str, str]
"""``(1-based line number, field, value)``."""

# One match per line: the optional group is a ``field: value`` line (field and
# value still to be stripped); otherwise both groups are empty.
_FIELD_VALUE_LINE = re.compile(r"^[ \t\v\f]*(?:([^:#\n]*):[ \t\v\f]*([^#\n]*))?[^\n]*", re.MULTILINE)

# Checked in this order with str.startswith, as Google's parser does.
_LENIENT_PREFIXES = (
    ("user-agent", USER_AGENT),
    ("useragent", USER_AGENT),
    ("user agent", USER_AGENT),
    ("allow", ALLOW),
    ("disallow", DISALLOW),
    ("dissallow", DISALLOW),
    ("dissalow", DISALLOW),
    ("disalow", DISALLOW),
    ("diasllow", DISALLOW),
    ("disallaw", DISALLOW),
    ("sitemap", SITEMAP),
    ("site-map", SITEMAP),
    ("crawl-delay", CRAWL_DELAY),
    ("request-rate", REQUEST_RATE),
)
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
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if len(text) > MAX_LINE_BYTES // 4:
        lines = text.split("\n")
        if max(map(len, lines)) > MAX_LINE_BYTES // 4:
            text = "\n".join(map(_cap_line, lines))
    return text


def read_directives(text: str, lenient: bool) -> tuple[list[str], list[Directive]]:
    """The lines of ``text`` and its directives (blank lines included as ``BLANK``)."""
    lines = text.split("\n")
    directives: list[Directive] = []
    append = directives.append
    for number, (key, value) in enumerate(_FIELD_VALUE_LINE.findall(text), 1):
        if key:
            field = _USUAL_SPELLINGS.get(key)
            if field is None:
                key = key.strip().lower()
                if not key:
                    continue
                field = _FIELDS.get(key)
                if field is None:
                    field = _lenient_field(key) if lenient else OTHER
            append((number, field, value.strip()))
            continue
        line = lines[number - 1]
        parsed = parse_line(line, lenient) if line else BLANK_LINE
        if parsed is not None:
            append((number, parsed[0], parsed[1]))
    return lines, directives


def _cap_line(line: str) -> str:
    """Keep at most ``MAX_LINE_BYTES`` UTF-8 bytes of ``line``."""
    if len(line) <= MAX_LINE_BYTES // 4:
        return line
    encoded = line.encode("utf-8", "surrogatepass")
    if len(encoded) <= MAX_LINE_BYTES:
        return line
    return encoded[:MAX_LINE_BYTES].decode("utf-8", "ignore")


def parse_line(line: str, lenient: bool) -> tuple[str, str] | None:
    """Return ``(field, value)`` for a directive, ``BLANK_LINE`` for an empty
    line, or None for a comment or a line that is not a directive."""
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
    key = key.lower()
    field = _FIELDS.get(key)
    if field is None:
        field = _lenient_field(key) if lenient else OTHER
    return field, value


def _lenient_field(key: str) -> str:
    if key.startswith(_LENIENT_STARTS):
        for prefix, field in _LENIENT_PREFIXES:
            if key.startswith(prefix):
                return field
    return OTHER
