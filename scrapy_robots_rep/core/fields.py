"""The robots.txt fields: one table, one row per field (docs/architecture.md, "Where to add").

A row says everything the parser, the scanner, grouping, the lint and the plain-data form
need of a field: its name and how it is usually written, the misspellings lenient reading
accepts (Google's fields only), the words every spelling of its name holds (what the
scanner searches for), what a line of it means (``read``: None when the value is read as
nothing) and where that is kept (``kept``): opening a group, a group's rule, a group's delay,
a group's lines or values, or a file-wide value. ``problem`` is what the lint says of a value.

The other modules derive their sets from ``FIELDS``; an extension field a caller declares
(``ExtensionField``) becomes a row of the same kind (``extension_rows``), kept per group or
file-wide as values, read back with ``AgentRules.extension``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType
from typing import TYPE_CHECKING
from urllib.parse import SplitResult, urlsplit

from scrapy_robots_rep.core.agents import value_token
from scrapy_robots_rep.core.content_signals import read_signals
from scrapy_robots_rep.core.delays import crawl_delay_seconds, request_rate_seconds

if TYPE_CHECKING:
    from scrapy_robots_rep.core.extension_field import ExtensionField

USER_AGENT = "user-agent"
ALLOW = "allow"
DISALLOW = "disallow"
SITEMAP = "sitemap"
CRAWL_DELAY = "crawl-delay"
REQUEST_RATE = "request-rate"
CONTENT_SIGNAL = "content-signal"
CONTENT_USAGE = "content-usage"
LICENSE = "license"


class Kept(Enum):
    """Where what a field's line says is kept."""

    AGENT = "agent"
    """It opens a group (``User-agent``)."""
    RULE = "rule"
    """A rule of its group, kept as the group's text and read by ``rule_index``."""
    DELAY = "delay"
    """Seconds between requests, per group; merged groups keep the largest."""
    LINES = "lines"
    """Its lines, per group, read again by what uses them (``Content-Signal``, ``Content-Usage``)."""
    VALUES = "values"
    """Its non-empty values, per group, in file order (``AgentRules.extension``)."""
    FILE = "file"
    """Its non-empty values, file-wide, in file order, whatever group they sit in."""


def _as_is(value: str) -> str:
    return value


@dataclass(frozen=True, slots=True, eq=False)
class Field:
    """One robots.txt field: how it is spelt, found, read and kept (a row of :data:`FIELDS`, compared by
    identity)."""

    name: str
    """The canonical name, lower-case: what a directive's field is."""
    written: str
    """How it is usually written (messages, spelling hints)."""
    kept: Kept
    read: Callable[[str], object] = _as_is
    """What a value means; None when the line is read as nothing (an unreadable delay)."""
    words: tuple[str, ...] = ()
    """Lower-case words every spelling of the name holds (the scanner's search); default: the name."""
    misspellings: tuple[str, ...] = ()
    """Lower-case misspellings lenient reading accepts as this field."""
    google: bool = False
    """Lenient reading takes a key that starts with the name (or a misspelling) as this field,
    as Google's parser does for its own fields."""
    problem: Callable[[str], str | None] | None = None
    """What the lint says of a value (None: nothing); default: that ``read`` gives nothing."""
    bad_kind: str = "bad-value"
    """The lint kind (``LintKind`` value) of ``problem``'s warnings."""

    def __post_init__(self) -> None:
        if not self.words:
            object.__setattr__(self, "words", (self.name,))
        for spelling in (self.name, *self.misspellings):
            if not any(word in spelling for word in self.words):
                raise ValueError(f"field {self.name!r}: the spelling {spelling!r} holds none of {self.words}")

    @property
    def member(self) -> bool:
        """Whether its lines belong to a group (grouping keeps them with the group)."""
        return self.kept in _MEMBER_KINDS

    def value_problem(self, value: str) -> str | None:
        """What the lint says of ``value``, or None."""
        if self.problem is not None:
            return self.problem(value)
        if self.read(value) is None:
            return f"{self.written} value {value!r} cannot be read: ignored"
        return None


_MEMBER_KINDS = frozenset((Kept.RULE, Kept.DELAY, Kept.LINES, Kept.VALUES))


def _agent_problem(value: str) -> str | None:
    """Why a group's user-agent value is not a valid RFC 9309 product token, or None."""
    if value == "*" or (value.startswith("*") and value[1:2].isspace()):
        return None
    if not value:
        return "empty User-agent value: the group applies to no robot"
    token = value_token(value)
    if token == value.lower():
        return None
    if not token:
        return (
            f"{value!r} is not a product token (letters, '_' and '-' only): "
            "rfc9309 matching reads it as '' and the group applies to no robot"
        )
    return f"{value!r} is not a product token (letters, '_' and '-' only): rfc9309 matching reads it as {token!r}"


def _url_parts(value: str) -> SplitResult | None:
    try:
        return urlsplit(value)
    except ValueError:
        return None


def _sitemap_problem(value: str) -> str | None:
    parts = _url_parts(value)
    if parts is not None and parts.scheme.lower() in ("http", "https") and parts.hostname:
        return None
    return f"Sitemap must be an absolute http(s) URL, got {value!r}"


def _license_problem(value: str) -> str | None:
    """An absolute URL is expected (RSL licences may be served over any scheme with a host)."""
    parts = _url_parts(value)
    if parts is not None and parts.scheme and parts.netloc and " " not in value:
        return None
    return f"License must be an absolute URL, got {value!r}"


def _signals(value: str) -> object:
    return read_signals(value) or None


def _signal_problem(value: str) -> str | None:
    if read_signals(value):
        return None
    return f"Content-Signal value {value!r} has no 'purpose=yes|no' pair: ignored"


def _usage_problem(value: str) -> str | None:
    from scrapy_robots_rep.core.usage_preferences import read_usage_value

    path, statement = read_usage_value(value)
    if statement.valid:
        return None
    return (
        f"Content-Usage preference {statement.text!r} is not a structured-field dictionary of "
        "lower-case keys (e.g. 'train-ai=n, search=y'): every category is unknown for "
        + ("every path" if path is None else repr(path))
    )


_ROWS = (
    Field(
        USER_AGENT,
        "User-agent",
        Kept.AGENT,
        words=("agent",),
        misspellings=("useragent", "user agent"),
        google=True,
        problem=_agent_problem,
        bad_kind="bad-agent",
    ),
    Field(ALLOW, "Allow", Kept.RULE, google=True),
    Field(
        DISALLOW,
        "Disallow",
        Kept.RULE,
        words=("allow", "alow", "sllow", "allaw"),
        misspellings=("dissallow", "dissalow", "disalow", "diasllow", "disallaw"),
        google=True,
    ),
    Field(
        SITEMAP,
        "Sitemap",
        Kept.FILE,
        words=("sitemap", "site-map"),
        misspellings=("site-map",),
        google=True,
        problem=_sitemap_problem,
        bad_kind="bad-sitemap",
    ),
    Field(CRAWL_DELAY, "Crawl-delay", Kept.DELAY, read=crawl_delay_seconds, google=True),
    Field(REQUEST_RATE, "Request-rate", Kept.DELAY, read=request_rate_seconds, google=True),
    Field(CONTENT_SIGNAL, "Content-Signal", Kept.LINES, read=_signals, problem=_signal_problem),
    Field(CONTENT_USAGE, "Content-Usage", Kept.LINES, problem=_usage_problem),
    Field(LICENSE, "License", Kept.FILE, problem=_license_problem, bad_kind="bad-license"),
)

FIELDS: Mapping[str, Field] = MappingProxyType({row.name: row for row in _ROWS})
"""Every field this parser defines, by name, in the order above."""

KNOWN_FIELDS = frozenset(FIELDS)

MISSPELLINGS: Mapping[str, str] = MappingProxyType(
    {misspelling: row.name for row in _ROWS for misspelling in row.misspellings}
)
"""Misspelt field names (lower-case) that lenient parsing reads as the field they name."""

MEMBER_FIELDS = frozenset(row.name for row in _ROWS if row.member)
"""The fields grouping keeps as group members."""

RULE_FIELDS = frozenset(row.name for row in _ROWS if row.kept is Kept.RULE)
"""The members that are rules: in ``rfc9309`` grouping only they end a run of user-agent lines."""

RULE_WORDS = tuple(dict.fromkeys(word for row in _ROWS if row.kept is Kept.RULE for word in row.words))
"""A word every spelling of a rule field holds, lower-case."""

GROUP_EXTRAS = tuple(row for row in _ROWS if row.kept is Kept.DELAY or row.kept is Kept.LINES)
"""The group members read by the scanner besides rules and values: delays and lines, in table order."""

VALUE_FIELDS = tuple(row for row in _ROWS if row.kept is Kept.VALUES)
"""The table's fields kept as values per group: read like declared extension fields
(``AgentRules.extension``), so such a field needs its row and nothing else."""


LENIENT_PREFIXES = tuple(
    (spelling, row.name) for row in _ROWS if row.google for spelling in (row.name, *row.misspellings)
)
"""``(start, field)``: lenient reading takes a key that starts with ``start`` as ``field``, as
Google's parser does for its own fields. No start begins another of a different field: order is free."""

_LENIENT_STARTS = tuple(start for start, _ in LENIENT_PREFIXES)


def extension_rows(extensions: Iterable[ExtensionField | str]) -> tuple[Field, ...]:
    """The rows of ``extensions`` (a name alone is a per-group field); ValueError for a name
    that is not a field name, or that names (or lenient reading takes as) a field of ``FIELDS``."""
    rows: dict[str, Field] = {}
    for extension in extensions:
        from scrapy_robots_rep.core.extension_field import ExtensionField

        if isinstance(extension, str):
            extension = ExtensionField(extension)
        if not isinstance(extension, ExtensionField):
            raise TypeError(f"an extension must be an ExtensionField or a str, got {type(extension).__name__}")
        written = extension.name.strip()
        name = written.lower()
        if not name or name != extension.name.lower() or any(char in ":#" or char.isspace() for char in name):
            raise ValueError(f"extension field name {extension.name!r} must be one word without ':' or '#'")
        if name in FIELDS or name.startswith(_LENIENT_STARTS):
            raise ValueError(f"extension field {extension.name!r} is read as a field this parser defines")
        rows[name] = Field(name, written, Kept.VALUES if extension.per_group else Kept.FILE)
    return tuple(rows.values())
