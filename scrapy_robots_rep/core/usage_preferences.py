"""IETF AIPREF statements of preference (draft-ietf-aipref-vocab), read from robots.txt and headers.

A statement is an RFC 9651 structured-field dictionary, ``train-ai=n, search=y``: each key a
usage category's label, each value the token ``y`` (allowed) or ``n`` (disallowed). Any other
value leaves the category unknown; keys outside the vocabulary are kept and exposed, never
enforced; a repeated key keeps its last value; a statement that does not parse (an upper-case
key, a trailing comma) leaves every category unknown.

The labels are one table, ``VOCABULARY`` in ``core/purposes.py`` (imported by every crawl, which
this module is not: a crawl imports it at the first statement it reads).

The ``Content-Usage`` header is parsed with ``http-sf``; the robots.txt ``Content-Usage`` line is
read by the small reader here (``read_statement``), which accepts exactly the dictionaries
``http-sf`` accepts and keeps the values as written.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from scrapy_robots_rep.core.lazy_patterns import compiled_on_use
from scrapy_robots_rep.core.purposes import VOCABULARY

_ANSWERS = {"y": True, "n": False}
_PATH_END = compiled_on_use(r"[ \t]")
_NO_PREFERENCES: Mapping[str, bool] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class UsageStatement:
    """One statement of preference: what it says per purpose, and every key it holds."""

    text: str
    """The statement as written."""
    values: Mapping[str, str]
    """Every key -> its value as written (``y``, ``n``, anything else); a key alone is ``?1``."""
    valid: bool
    """False when the statement does not parse: every category is then unknown."""
    preferences: Mapping[str, bool] = field(init=False)
    """Purpose -> allowed, for the vocabulary's labels whose value is ``y`` or ``n``."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "preferences", _preferences(self.values) if self.valid else _NO_PREFERENCES)

    @property
    def unknown_keys(self) -> tuple[str, ...]:
        """Keys outside the vocabulary (kept, never enforced)."""
        return tuple(key for key in self.values if key not in VOCABULARY)

    def describe(self) -> str:
        """What the statement says, for explanations: ``train-ai=n (ai-train refused), ...``."""
        if not self.valid:
            return "does not parse: every category unknown"
        parts = []
        for key, value in self.values.items():
            purpose = VOCABULARY.get(key)
            if purpose is None:
                meaning = "unknown label, kept"
            else:
                allowed = _ANSWERS.get(value)
                meaning = "unknown" if allowed is None else f"{purpose} {'allowed' if allowed else 'refused'}"
            parts.append(f"{key}={value} ({meaning})")
        return ", ".join(parts) or "states nothing: every category unknown"


def _preferences(values: Mapping[str, str]) -> Mapping[str, bool]:
    found = {}
    for key, value in values.items():
        purpose = VOCABULARY.get(key)
        allowed = _ANSWERS.get(value)
        if purpose is not None and allowed is not None:
            found[purpose] = allowed
    return MappingProxyType(found)


def combine(statements: Iterable[Mapping[str, bool]]) -> dict[str, bool]:
    """Several statements' preferences as one (draft-ietf-aipref-vocab §7.1): any ``n`` wins,
    else any ``y``; a purpose none speaks about stays unknown (absent)."""
    combined: dict[str, bool] = {}
    for preferences in statements:
        for purpose, allowed in preferences.items():
            combined[purpose] = combined.get(purpose, True) and allowed
    return combined


# RFC 9651 §3: the parts of a dictionary, as regular expressions over its ASCII text.
_KEY = r"[a-z*][a-z0-9_\-.*]*"
_BARE_ITEM = (
    r"-?[0-9]{1,12}\.[0-9]{1,3}"  # decimal
    r"|-?[0-9]{1,15}"  # integer
    r'|"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*"'  # string
    r"|[A-Za-z*][!#$%&'*+\-.^_`|~0-9A-Za-z:/]*"  # token
    r"|:[A-Za-z0-9+/=]*:"  # byte sequence
    r"|\?[01]"  # boolean
    r"|@-?[0-9]{1,15}"  # date
    r'|%"(?:[\x20\x21\x23\x24\x26-\x7e]|%[0-9a-f]{2})*"'  # display string
)
_PARAMETERS = rf"(?:;[ ]*{_KEY}(?:=(?:{_BARE_ITEM}))?)*"
_INNER_LIST = rf"\([ ]*(?:(?:{_BARE_ITEM}){_PARAMETERS}(?:[ ]+(?:{_BARE_ITEM}){_PARAMETERS})*[ ]*)?\)"


_MEMBER = compiled_on_use(rf"({_KEY})(?:=((?:{_BARE_ITEM})|{_INNER_LIST}))?{_PARAMETERS}")
"""A dictionary's member (the largest expression of the package: a crawl whose robots.txt files and
pages state no usage preference never needs it)."""


_SEPARATOR = compiled_on_use(r"[ \t]*,[ \t]*")


@lru_cache(maxsize=1024)
def read_statement(text: str) -> UsageStatement:
    """The statement of a robots.txt ``Content-Usage`` rule (without its path).

    Parsed as an RFC 9651 dictionary; the value kept for a key is its bare item as written
    (``n``, ``"n"``, ``?1`` for a key alone), the parameters dropped."""
    text = text.strip(" \t")
    values: dict[str, str] = {}
    position = 0
    while position < len(text):
        member = _MEMBER().match(text, position)
        if member is None:
            return UsageStatement(text, MappingProxyType({}), valid=False)
        key, value = member.group(1), member.group(2)
        values.pop(key, None)
        values[key] = "?1" if value is None else value
        position = member.end()
        if position == len(text):
            break
        separator = _SEPARATOR().match(text, position)
        if separator is None or separator.end() == len(text):
            return UsageStatement(text, MappingProxyType({}), valid=False)
        position = separator.end()
    return UsageStatement(text, MappingProxyType(values), valid=True)


@lru_cache(maxsize=1024)
def read_header(value: str) -> UsageStatement:
    """The statement of a ``Content-Usage`` header value (several header lines joined by commas),
    parsed with ``http-sf``; a value kept is the member's value serialised (``n``, ``"n"``, ``?1``)."""
    import http_sf

    text = value.strip(" \t")
    try:
        parsed: Any = http_sf.parse(text.encode("latin-1", "replace"), tltype="dictionary")
    except http_sf.StructuredFieldError:
        return UsageStatement(text, MappingProxyType({}), valid=False)
    assert isinstance(parsed, dict)
    values = {}
    for key, member in parsed.items():
        item = member[0]
        if isinstance(item, http_sf.Token):
            values[key] = str(item)
        else:
            # The member without its parameters, serialised: ``key=value``, or ``key`` for ``?1``.
            member_alone: Any = {key: (item, {})}
            written = http_sf.ser(member_alone)
            values[key] = written[len(key) + 1 :] or "?1"
    return UsageStatement(text, MappingProxyType(values), valid=True)


def read_usage_value(value: str) -> tuple[str | None, UsageStatement]:
    """A ``Content-Usage`` value as its path (None when absent) and its statement."""
    if not value.startswith("/"):
        return None, read_statement(value)
    path_end = _PATH_END().search(value)
    if path_end is None:
        return value, read_statement("")
    return value[: path_end.start()], read_statement(value[path_end.start() :])
