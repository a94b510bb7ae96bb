"""``PageDirectives``: what a page's robots meta tags and response headers say may be done with it.

Sources (docs/behaviour.md §10), all combined with the most restrictive winning:
``<meta name="robots">`` and ``<meta name="<agent>">`` (head and body, HTML responses only),
``X-Robots-Tag`` headers (unscoped, or scoped to this agent), TDMRep's ``tdm-reservation`` /
``tdm-policy`` (header or meta), the AIPREF ``Content-Usage`` header, and the origin's robots.txt
``Content-Signal`` and ``Content-Usage`` (for the page's path) when the caller folds them in with
:meth:`PageDirectives.with_site_signals` and :meth:`PageDirectives.with_site_usage`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from enum import Enum
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias

from scrapy_robots_rep.core.agents import robot_token
from scrapy_robots_rep.core.page.markup import looks_like_html, scan
from scrapy_robots_rep.core.page.values import (
    BOOLEAN_DIRECTIVES,
    UNAVAILABLE_AFTER,
    VALUED_DIRECTIVES,
    Item,
    directive_items,
    parse_date,
    scoped_parts,
)
from scrapy_robots_rep.core.purposes import purpose_name

if TYPE_CHECKING:
    from typing import Protocol

    from scrapy_robots_rep.core.usage_preferences import UsageStatement

    class ResponseLike(Protocol):
        """What :meth:`PageDirectives.from_response` reads: a Scrapy response, or any such object
        (a type for checkers only: making a ``Protocol`` class costs at import)."""

        @property
        def body(self) -> bytes: ...

        @property
        def headers(self) -> Any: ...


SCAN_LIMIT = 512_000
"""Bytes of a document searched for robots meta tags: the head, then this much of the rest."""

HTML_TYPES = frozenset(("text/html", "application/xhtml+xml"))
X_ROBOTS_TAG = "x-robots-tag"
TDM_RESERVATION = "tdm-reservation"
TDM_POLICY = "tdm-policy"
CONTENT_USAGE = "content-usage"
ROBOTS_META = "robots"
AI_PURPOSES = ("ai-train", "ai-input")

_READ_HEADERS = (X_ROBOTS_TAG, TDM_RESERVATION, TDM_POLICY, CONTENT_USAGE, "content-type")
_READ_HEADER_NAMES: Mapping[Any, str] = {
    **{name: name for name in _READ_HEADERS},
    **{name.encode(): name for name in _READ_HEADERS},
}
"""The lower-cased header names read, as str and as bytes (Scrapy's), to the name used here."""
_IMAGE_PREVIEW_ORDER = {"none": 0, "standard": 1, "large": 2}
_NO_SIGNALS: Mapping[str, bool] = MappingProxyType({})

HeaderSource: TypeAlias = Mapping[Any, Any] | Iterable[tuple[Any, Any]]
"""Response headers: a mapping (values may be lists, as Scrapy's ``Headers``) or (name, value) pairs;
names and values as str or bytes."""


class SourceKind(Enum):
    """Where a directive was read."""

    META = "meta"
    HEADER = "header"


class Source(NamedTuple):
    """One tag or header (as written) that carried directives."""

    kind: SourceKind
    text: str
    in_head: bool = True

    def __str__(self) -> str:
        if self.kind is SourceKind.META:
            return f"{self.text} in the {'head' if self.in_head else 'body'}"
        return f"header {self.text}"


class Directive(NamedTuple):
    """One directive: its lower-cased name, its value (``max-snippet: 20``), its text and source."""

    name: str
    value: str | None
    text: str
    source: Source

    def describe(self) -> str:
        return f"{self.text} ({self.source})"


class Effect(str, Enum):
    """What a page restricts."""

    NOINDEX = "noindex"
    NOFOLLOW = "nofollow"
    NOARCHIVE = "noarchive"
    NOSNIPPET = "nosnippet"
    NOIMAGEINDEX = "noimageindex"


_EFFECTS: Mapping[str, tuple[Effect, ...]] = {
    "noindex": (Effect.NOINDEX,),
    "nofollow": (Effect.NOFOLLOW,),
    "none": (Effect.NOINDEX, Effect.NOFOLLOW),
    "noarchive": (Effect.NOARCHIVE,),
    "nocache": (Effect.NOARCHIVE,),
    "nosnippet": (Effect.NOSNIPPET,),
    "noimageindex": (Effect.NOIMAGEINDEX,),
}
_EFFECT_VALUES: Mapping[str, tuple[str, ...]] = {
    name: tuple(effect.value for effect in effects) for name, effects in _EFFECTS.items()
}
"""The values of each name's effects (an enum member's ``value`` is a property)."""
_DATED_OR_COUNTED = frozenset(("unavailable_after", "max-snippet"))
"""Names whose effect depends on their value or on when the page is judged (``_effects_of``)."""
_REFUSING = frozenset(("noai", "noimageai"))
_MAY_REFUSE = _REFUSING | {"tdm-reservation"}
"""The names ``_refuses_ai`` may say yes to."""


@dataclass(frozen=True)
class PageDirectives:
    """The robots directives that apply to one response for one agent (docs/behaviour.md §10)."""

    agent: str
    directives: tuple[Directive, ...] = ()
    ignored: tuple[Directive, ...] = ()
    checked_at: datetime = field(default_factory=lambda: datetime.now(timezone.utc))
    html: bool = False
    base_href: str | None = None
    nofollow_hrefs: tuple[str, ...] = ()
    site_signals: Mapping[str, bool] = field(default_factory=lambda: _NO_SIGNALS)
    site_source: str = "robots.txt Content-Signal"
    site_usage: Mapping[str, bool] = field(default_factory=lambda: _NO_SIGNALS)
    """Purpose -> allowed, from the origin's robots.txt ``Content-Usage`` rules for this page's path."""
    site_usage_source: str = "robots.txt Content-Usage"
    _effects: dict[str, Directive] = field(init=False, repr=False, compare=False)
    """The first directive setting each effect, keyed by the effect's value (a str hashes cheaply)."""
    _refusals: dict[str, Directive] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        effects: dict[str, Directive] = {}
        refusals: dict[str, Directive] = {}
        for directive in self.directives:
            if directive.name in _DATED_OR_COUNTED:
                for effect in self._effects_of(directive):
                    effects.setdefault(effect.value, directive)
            else:
                for value in _EFFECT_VALUES.get(directive.name, ()):
                    effects.setdefault(value, directive)
            if directive.name in _MAY_REFUSE and _refuses_ai(directive):
                for purpose in AI_PURPOSES:
                    refusals.setdefault(purpose, directive)
            elif directive.name == CONTENT_USAGE and directive.value is not None:
                from scrapy_robots_rep.core.usage_preferences import read_header

                for purpose, allowed in read_header(directive.value).preferences.items():
                    if not allowed:
                        refusals.setdefault(purpose, directive)
        object.__setattr__(self, "_effects", effects)
        object.__setattr__(self, "_refusals", refusals)

    @classmethod
    def parse(
        cls,
        body: bytes | str | None,
        headers: HeaderSource = (),
        *,
        agent: str,
        now: datetime | None = None,
        links: bool = False,
        limit: int = SCAN_LIMIT,
    ) -> PageDirectives:
        """Read a response's headers and, for an HTML document, its robots meta tags.

        ``agent`` is the crawler's name (its product token is what meta names and header scopes
        are compared with); ``now`` is when ``unavailable_after`` is judged (default: now);
        ``links`` also collects the hrefs of links marked ``rel="nofollow"`` and the ``<base>``.
        """
        token = agent_token(agent)
        pairs = _header_pairs(headers)
        directives: list[Directive] = []
        ignored: list[Directive] = []
        content_type: str | None = None
        usage: list[str] = []
        for name, value in pairs:
            if name == X_ROBOTS_TAG:
                applying, other = _x_robots_tag_directives(value, token)
                directives.extend(applying)
                ignored.extend(other)
            elif name == CONTENT_USAGE:
                usage.append(value.strip())
            elif name in (TDM_RESERVATION, TDM_POLICY):
                text = f"{name}: {value.strip()}"
                directives.append(Directive(name, value.strip(), text, Source(SourceKind.HEADER, text)))
            elif content_type is None:
                content_type = value.partition(";")[0].strip().lower()
        if usage:
            # Several field lines are one dictionary, joined by commas (RFC 9651 §4.2).
            text = ", ".join(usage)
            line = f"Content-Usage: {text}"
            directives.append(Directive(CONTENT_USAGE, text, line, Source(SourceKind.HEADER, line)))
        data = body.encode("utf-8") if isinstance(body, str) else (body or b"")
        is_html = content_type in HTML_TYPES if content_type else looks_like_html(data)
        base_href: str | None = None
        nofollow_hrefs: tuple[str, ...] = ()
        if is_html and data:
            markup = scan(data, _meta_names(token), limit=limit, links=links)
            for meta in markup.metas:
                directives.extend(_meta_directives(meta.name, meta.content, meta.markup, meta.in_head))
            base_href, nofollow_hrefs = markup.base_href, tuple(markup.nofollow_hrefs)
        return cls(
            agent=token,
            directives=tuple(directives),
            ignored=tuple(ignored),
            checked_at=now or datetime.now(timezone.utc),
            html=is_html,
            base_href=base_href,
            nofollow_hrefs=nofollow_hrefs,
        )

    @classmethod
    def from_response(
        cls, response: ResponseLike, *, agent: str, now: datetime | None = None, links: bool = False
    ) -> PageDirectives:
        """:meth:`parse` for a Scrapy response (or any object with ``.body`` and ``.headers``)."""
        return cls.parse(response.body, response.headers, agent=agent, now=now, links=links)

    def with_site_signals(
        self, signals: Mapping[str, bool], source: str = "robots.txt Content-Signal"
    ) -> PageDirectives:
        """The same page with its origin's robots.txt ``Content-Signal`` folded in."""
        return replace(self, site_signals=MappingProxyType(dict(signals)), site_source=source)

    def with_site_usage(
        self, preferences: Mapping[str, bool], source: str = "robots.txt Content-Usage"
    ) -> PageDirectives:
        """The same page with what its origin's robots.txt ``Content-Usage`` rules say of its path
        (purpose -> allowed; ``source`` names the rules and their lines) folded in."""
        return replace(self, site_usage=MappingProxyType(dict(preferences)), site_usage_source=source)

    @property
    def usage(self) -> UsageStatement | None:
        """The ``Content-Usage`` header's statement (every key kept, unknown ones too), or None."""
        for directive in self.directives:
            if directive.name == CONTENT_USAGE and directive.value is not None:
                from scrapy_robots_rep.core.usage_preferences import read_header

                return read_header(directive.value)
        return None

    @property
    def noindex(self) -> bool:
        """``noindex``, ``none``, or an ``unavailable_after`` date that has passed."""
        return "noindex" in self._effects

    @property
    def nofollow(self) -> bool:
        return "nofollow" in self._effects

    @property
    def noarchive(self) -> bool:
        """``noarchive`` or Bing's ``nocache``: keep no cached copy."""
        return "noarchive" in self._effects

    @property
    def nosnippet(self) -> bool:
        return "nosnippet" in self._effects

    @property
    def noimageindex(self) -> bool:
        return "noimageindex" in self._effects

    @property
    def restricted(self) -> frozenset[Effect]:
        """Every restriction in force."""
        return frozenset(map(Effect, self._effects))

    @property
    def unavailable_after(self) -> datetime | None:
        """The earliest valid ``unavailable_after`` date (UTC), passed or not."""
        dates = [_date_of(directive) for directive in self.directives if directive.name == UNAVAILABLE_AFTER]
        valid = [date for date in dates if date is not None]
        return min(valid) if valid else None

    @property
    def max_snippet(self) -> int | None:
        """The smallest ``max-snippet`` (-1 = no limit, read as the largest)."""
        return _smallest_count(self._values("max-snippet"))

    @property
    def max_video_preview(self) -> int | None:
        return _smallest_count(self._values("max-video-preview"))

    @property
    def max_image_preview(self) -> str | None:
        """The most restrictive ``max-image-preview`` (``none`` < ``standard`` < ``large``)."""
        known = [value.lower() for value in self._values("max-image-preview") if value.lower() in _IMAGE_PREVIEW_ORDER]
        return min(known, key=_IMAGE_PREVIEW_ORDER.__getitem__) if known else None

    @property
    def tdm_reservation(self) -> bool:
        """TDMRep: text and data mining rights are reserved (``tdm-reservation: 1``)."""
        return any(value == "1" for value in self._values(TDM_RESERVATION))

    @property
    def tdm_policy(self) -> str | None:
        """TDMRep: where the rights holder's licensing policy is (a URL), if the page says."""
        values = self._values(TDM_POLICY)
        return values[0] if values else None

    @property
    def unknown(self) -> tuple[Directive, ...]:
        """Directives this project does not interpret (kept, never an error)."""
        return tuple(directive for directive in self.directives if not _known(directive.name))

    def allows(self, purpose: str) -> bool:
        """Whether the page may be used for ``purpose`` (``search``, ``ai-input``, ``ai-train``, or
        the AIPREF names ``train-ai``, ``ai-use``): ``noai``/``noimageai``, TDMRep, the
        ``Content-Usage`` header and folded-in robots.txt ``Content-Signal``/``Content-Usage``
        say ``no``, any ``no`` winning; a purpose nothing speaks about, or only with an unknown
        answer, is allowed."""
        return self.refusal(purpose) is None

    def refusal(self, purpose: str) -> str | None:
        """What refuses ``purpose`` (for logs), or None when it is allowed."""
        purpose = purpose_name(purpose) or purpose.lower()
        directive = self._refusals.get(purpose)
        if directive is not None:
            return directive.describe()
        if self.site_signals.get(purpose) is False:
            return f"{purpose}=no ({self.site_source})"
        if self.site_usage.get(purpose) is False:
            return f"{purpose}=n ({self.site_usage_source})"
        return None

    def cause(self, effect: Effect | str) -> Directive | None:
        """The first directive that set ``effect``, or None."""
        return self._effects.get(Effect(effect).value)

    def why(self, effect: Effect | str) -> str | None:
        """The directive and tag or header that set ``effect`` (e.g. ``"nofollow"``), or None."""
        directive = self._effects.get(Effect(effect).value)
        if directive is None:
            return None
        if directive.name == UNAVAILABLE_AFTER:
            return f"{directive.text}, passed ({directive.source})"
        return directive.describe()

    def explain(self) -> list[str]:
        """One line per directive read: what it sets and which tag or header it came from."""
        lines = [f"{directive.describe()}: {self._meaning(directive)}" for directive in self.directives]
        lines += [f"{directive.describe()}: ignored, scoped to another agent" for directive in self.ignored]
        lines += [
            f"{purpose}={'yes' if allowed else 'no'} ({self.site_source})"
            for purpose, allowed in self.site_signals.items()
        ]
        lines += [
            f"{purpose}={'y' if allowed else 'n'} ({self.site_usage_source})"
            for purpose, allowed in self.site_usage.items()
        ]
        if not self.html:
            lines.append("the body was not read: not an HTML response")
        return lines or ["no robots directives: nothing restricted"]

    def _meaning(self, directive: Directive) -> str:
        effects = [effect.value for effect in self._effects_of(directive)]
        if _refuses_ai(directive):
            effects += [f"{purpose}=no" for purpose in AI_PURPOSES]
        if directive.name == UNAVAILABLE_AFTER:
            date = _date_of(directive)
            if date is None:
                return "not a date: ignored"
            state = "passed: noindex" if date <= self.checked_at else "not yet passed"
            return f"{date.isoformat()} {state}"
        if effects:
            return ", ".join(effects)
        if directive.name == TDM_POLICY:
            return "TDM policy (exposed)"
        if directive.name == CONTENT_USAGE and directive.value is not None:
            from scrapy_robots_rep.core.usage_preferences import read_header

            return read_header(directive.value).describe()
        return "exposed, not enforced" if _known(directive.name) else "unknown: kept, not enforced"

    def _effects_of(self, directive: Directive) -> tuple[Effect, ...]:
        if directive.name == UNAVAILABLE_AFTER:
            date = _date_of(directive)
            return (Effect.NOINDEX,) if date is not None and date <= self.checked_at else ()
        if directive.name == "max-snippet" and directive.value == "0":
            return (Effect.NOSNIPPET,)
        return _EFFECTS.get(directive.name, ())

    def _values(self, name: str) -> list[str]:
        return [d.value for d in self.directives if d.name == name and d.value is not None]


@lru_cache(maxsize=64)
def agent_token(agent: str) -> str:
    """The lower-cased robot token meta names and header scopes are compared with
    (``MyBot/1.0 (+https://x)`` and ``Mozilla/5.0 (compatible; MyBot/1.0)`` give ``mybot``),
    whatever the matching mode."""
    return robot_token(agent).lower()


@lru_cache(maxsize=64)
def _meta_names(token: str) -> tuple[bytes, ...]:
    """The meta names read for an agent, as the scanner takes them (lower-cased bytes): ``robots``,
    its product token, TDMRep's two."""
    return tuple(sorted({name.encode() for name in (ROBOTS_META, token, TDM_RESERVATION, TDM_POLICY) if name}))


@lru_cache(maxsize=1024)
def _meta_directives(name: str, content: str, markup: str, in_head: bool) -> tuple[Directive, ...]:
    """The directives of one meta tag (remembered: a site repeats the same tags on every page)."""
    source = Source(SourceKind.META, markup, in_head)
    if name in (TDM_RESERVATION, TDM_POLICY):
        return (Directive(name, content.strip(), f"{name}: {content.strip()}", source),)
    return tuple(_directives(directive_items(content), source))


@lru_cache(maxsize=1024)
def _x_robots_tag_directives(value: str, token: str) -> tuple[tuple[Directive, ...], tuple[Directive, ...]]:
    """The directives of one ``X-Robots-Tag`` value that apply to ``token``, and those scoped to
    other agents (remembered: a site sends the same few values with every page)."""
    source = Source(SourceKind.HEADER, f"X-Robots-Tag: {value.strip()}")
    applying: list[Directive] = []
    other: list[Directive] = []
    for scope, rest in scoped_parts(value):
        found = _directives(directive_items(rest), source)
        (other if scope is not None and scope != token else applying).extend(found)
    return tuple(applying), tuple(other)


def _refuses_ai(directive: Directive) -> bool:
    return directive.name in _REFUSING or (directive.name == TDM_RESERVATION and directive.value == "1")


def _known(name: str) -> bool:
    return name in _EFFECTS or name in _REFUSING or name in _EXPOSED


_EXPOSED = BOOLEAN_DIRECTIVES | VALUED_DIRECTIVES | {TDM_RESERVATION, TDM_POLICY, CONTENT_USAGE}


def _directives(items: tuple[Item, ...], source: Source) -> list[Directive]:
    return [Directive(item.name, item.value, item.text, source) for item in items]


def _date_of(directive: Directive) -> datetime | None:
    return parse_date(directive.value) if directive.value is not None else None


def _smallest_count(values: list[str]) -> int | None:
    counts = [int(value) for value in map(str.strip, values) if re.fullmatch(r"-?\d+", value) and int(value) >= -1]
    if not counts:
        return None
    limited = [count for count in counts if count >= 0]
    return min(limited) if limited else -1


def _header_pairs(headers: HeaderSource) -> list[tuple[str, str]]:
    # dict.items: a dict subclass such as Scrapy's Headers holds its (name, values) as they are; its
    # own items() would normalise every name again.
    items: Iterable[tuple[Any, Any]] = (
        dict.items(headers)
        if isinstance(headers, dict)
        else headers.items()
        if isinstance(headers, Mapping)
        else headers
    )
    pairs: list[tuple[str, str]] = []
    for raw_name, raw_value in items:
        name = _read_header_name(raw_name)
        if name is None:
            continue
        for value in raw_value if isinstance(raw_value, (list, tuple)) else (raw_value,):
            pairs.append((name, _text(value)))
    return pairs


@lru_cache(maxsize=1024)
def _read_header_name(raw_name: Any) -> str | None:
    """The name used here for a header name as received (str or bytes), or None when it is not read
    (remembered: responses repeat the same few dozen names)."""
    return _READ_HEADER_NAMES.get(raw_name.strip().lower() if isinstance(raw_name, (bytes, str)) else raw_name)


def _text(value: str | bytes) -> str:
    return value.decode("latin-1") if isinstance(value, bytes) else str(value)
