"""``AgentRules``: one agent's rules for one origin, small when held, fast when used.

This is what a per-origin cache holds: the chosen group(s), the crawl delay, the
content signals and the sitemaps, not the whole file. The rules are held as the
text of the group's lines and their line numbers. On the first decision they
are read into a table of verdicts (``rule_index.RuleTable``) that decides an
origin's first ``EARLY_DECISIONS`` URLs; an origin asked more often has its
rules compiled (``rule_index.build_index``). In a cache, tables and compiled
indexes are kept for the ``ACTIVE_ORIGINS`` origins most recently read (the
cache's ``ActiveRules``): a crawl decides for few origins at a time. When an
origin's are dropped, its text is packed (``packing``: compressed when long)
and read again on its next decision.

Once compiled, ``allowed`` and ``explain`` make one match (``_decide``): it
gives the verdict and the entries the deciding rule is the first match of.
Before, ``allowed`` takes the table's verdict and ``explain`` the first ranked
entry that matches, the definition of the deciding rule.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeAlias

from scrapy_robots_rep.core.content_signals import merge_signals
from scrapy_robots_rep.core.lines import parse_line
from scrapy_robots_rep.core.modes import MatchingMode, matching_mode
from scrapy_robots_rep.core.packing import pack, unpack
from scrapy_robots_rep.core.paths import plain_url_path, url_path
from scrapy_robots_rep.core.patterns import matches_wildcards
from scrapy_robots_rep.core.rule_index import (
    NO_MATCH,
    Entry,
    RuleIndex,
    RuleTable,
    Stage,
    build_index,
    first_match,
)

if TYPE_CHECKING:
    from scrapy_robots_rep.core.content_usage import ContentUsageRules, UsageAnswer, UsageRule
    from scrapy_robots_rep.core.decision import Decision, Rule, SourceLine
    from scrapy_robots_rep.core.rule_extras import Extras

REASON_NO_MATCH = "no rule matched"
REASON_NO_GROUP = "no group for agent, no '*' group"
REASON_ROBOTS_TXT = "robots.txt is always allowed"

ACTIVE_ORIGINS = 4096
"""How many ``AgentRules`` of a cache keep their table or compiled index (the most recently read): ``ActiveRules``."""

EARLY_DECISIONS = 128
"""Decisions an origin makes by its table of rules before its index is compiled: compiling
costs about as much as a hundred decisions by the table save (``benchmarks/bench_core.py``)."""

_ROBOTS_TXT_PATH = "/robots.txt"
_ROBOTS_TXT_QUERY = _ROBOTS_TXT_PATH + "?"
_GLOBAL_GROUP = ("*",)
_NO_SIGNALS: Mapping[str, bool] = MappingProxyType({})
_NO_EXTENSIONS: Mapping[str, tuple[str, ...]] = MappingProxyType({})
# The stage of robots.txt itself, told apart from ``NO_MATCH`` (another module's tuple) by identity.
_ROBOTS_TXT: Stage = (True, ())
_DISALLOWED: Stage = (False, ())

LineNumbers: TypeAlias = "int | array[int]"
"""The file line of each line of a source: the first one's number (the lines
follow each other in the file), or one number per line."""


class AgentRules:
    """The rules one agent obeys on one origin."""

    __slots__ = (
        "_active",
        "_extras",
        "_fixed",
        "_index",
        "_mode",
        "_numbers",
        "_sitemaps",
        "_source",
        "_table",
        "crawl_delay",
        "group",
    )

    group: tuple[str, ...]
    crawl_delay: float | None

    def __init__(
        self,
        matching: str,
        group: tuple[str, ...],
        source: str = "",
        numbers: LineNumbers = 1,
        *,
        crawl_delay: float | None = None,
        sitemaps: tuple[str, ...] = (),
        content_signal_lines: tuple[SourceLine, ...] = (),
        content_usage_lines: tuple[SourceLine, ...] = (),
        licenses: tuple[str, ...] = (),
        extensions: Mapping[str, tuple[str, ...]] = _NO_EXTENSIONS,
        fixed: bool | None = None,
        reason: str | None = None,
    ) -> None:
        """``source`` holds the group's lines (its ``Allow``/``Disallow`` lines
        are the rules; other lines are ignored), numbered by ``numbers``;
        ``extensions`` the values of the extension fields the file was parsed with."""
        mode = matching_mode(matching)
        self._mode = mode
        # Most origins' group is "*": share one tuple instead of one each.
        self.group = _GLOBAL_GROUP if group == _GLOBAL_GROUP else group
        self.crawl_delay = crawl_delay
        self._sitemaps = pack("\n".join(sitemaps))
        # The decision for every URL, when it does not depend on rules.
        self._fixed = fixed
        # What few origins have: one slot for all of it, None for most (its class imported for the first).
        self._extras: Extras | None = None
        if content_signal_lines or content_usage_lines or licenses or extensions or reason is not None:
            from scrapy_robots_rep.core.rule_extras import Extras

            self._extras = Extras(
                _signals(content_signal_lines, mode) if content_signal_lines else None,
                _usage_rules(content_usage_lines, mode) if content_usage_lines else None,
                licenses,
                extensions,
                reason,
            )
        # Packed only once its index is dropped: an origin is compiled soon after it is fetched.
        self._source: str | bytes = source
        self._numbers = numbers
        self._table: RuleTable | None = None
        self._index: RuleIndex | None = None
        # The active rules of the cache that holds this one (``ActiveRules.adopt``); None outside a cache.
        self._active: ActiveRules | None = None

    @classmethod
    def from_lines(
        cls,
        matching: str,
        group: tuple[str, ...],
        rule_lines: Iterable[tuple[int, str]],
        *,
        crawl_delay: float | None = None,
        sitemaps: tuple[str, ...] = (),
        content_signal_lines: tuple[SourceLine, ...] = (),
        content_usage_lines: tuple[SourceLine, ...] = (),
        licenses: tuple[str, ...] = (),
        extensions: Mapping[str, tuple[str, ...]] = _NO_EXTENSIONS,
        fixed: bool | None = None,
        reason: str | None = None,
    ) -> AgentRules:
        """Rules given as ``(line number, line text)`` of their ``Allow``/``Disallow`` lines."""
        lines = list(rule_lines)
        return cls(
            matching,
            group,
            "\n".join(text for _, text in lines),
            line_numbers([number for number, _ in lines]),
            crawl_delay=crawl_delay,
            sitemaps=sitemaps,
            content_signal_lines=content_signal_lines,
            content_usage_lines=content_usage_lines,
            licenses=licenses,
            extensions=extensions,
            fixed=fixed,
            reason=reason,
        )

    @property
    def matching(self) -> str:
        """The matching mode's name (``rfc9309`` or ``legacy``)."""
        return self._mode.name

    @property
    def content_signals(self) -> Mapping[str, bool]:
        """Purpose -> allowed, from the chosen groups' ``Content-Signal`` lines
        (a purpose any line says ``no`` to is False); empty when there are none."""
        signals = self._extras and self._extras.signals
        return signals[0] if signals else _NO_SIGNALS

    def content_signal_lines(self) -> tuple[SourceLine, ...]:
        """The ``Content-Signal`` lines the signals come from, in file order."""
        signals = self._extras and self._extras.signals
        return signals[1] if signals else ()

    @property
    def content_usage_rules(self) -> tuple[UsageRule, ...]:
        """The chosen groups' ``Content-Usage`` rules, in file order."""
        usage = self._extras and self._extras.usage
        return usage.rules if usage else ()

    def content_usage_lines(self) -> tuple[SourceLine, ...]:
        """The ``Content-Usage`` lines the rules come from, in file order."""
        from scrapy_robots_rep.core.decision import SourceLine

        return tuple(SourceLine(rule.line, rule.text) for rule in self.content_usage_rules)

    def content_usage(self, url: str) -> UsageAnswer | None:
        """What the ``Content-Usage`` rules say of ``url`` (the longest matching path's rules,
        combined); None when the chosen groups have no such rule."""
        usage = self._extras and self._extras.usage
        return usage.answer(url) if usage else None

    def purposes_refusal(self, url: str, purposes: Iterable[str]) -> Decision | None:
        """The refusal of ``url`` before download when ``Content-Signal`` and ``Content-Usage``
        together say no to every declared purpose (names of either vocabulary); else None."""
        if self._extras is None:
            return None
        signals = self.content_signals
        if not signals and self._extras.usage is None:
            return None
        from scrapy_robots_rep.core.content_usage import purposes_refusal

        return purposes_refusal(signals, self.content_usage(url), purposes, self.group)

    @property
    def licenses(self) -> tuple[str, ...]:
        """The file's ``License:`` URLs (RSL), in order; exposed, never enforced."""
        return () if self._extras is None else self._extras.licenses

    def extension(self, name: str) -> tuple[str, ...]:
        """The values of the extension field ``name`` (any case) the file was parsed with
        (``RobotsTxt.parse(extensions=...)``): the chosen groups' for a per-group field, else the
        file's, in file order; ``()`` when it has none or was not declared."""
        return () if self._extras is None else self._extras.extensions.get(name.lower(), ())

    @property
    def extensions(self) -> Mapping[str, tuple[str, ...]]:
        """Every declared extension field's values (``extension``), by name."""
        return _NO_EXTENSIONS if self._extras is None else self._extras.extensions

    @property
    def sitemaps(self) -> tuple[str, ...]:
        """The file's ``Sitemap:`` URLs, in order (kept as one str, one per line)."""
        sitemaps = unpack(self._sitemaps)
        return tuple(sitemaps.split("\n")) if sitemaps else ()

    @classmethod
    def allow_all(cls, reason: str, *, matching: str = "rfc9309") -> AgentRules:
        """Everything is allowed (e.g. robots.txt returned 404)."""
        return cls(matching, (), fixed=True, reason=reason)

    @classmethod
    def disallow_all(cls, reason: str, *, matching: str = "rfc9309") -> AgentRules:
        """Nothing is allowed (e.g. a legacy-policy 401/403: site closed to robots)."""
        return cls(matching, (), fixed=False, reason=reason)

    @property
    def fixed(self) -> bool | None:
        """The decision for every URL when it does not depend on rules (allow all, disallow all), else None."""
        return self._fixed

    def allowed(self, url: str) -> bool:
        """Whether ``url`` (absolute) may be fetched."""
        if self._index is None and self._fixed is None:
            # An origin's first decisions: the table's verdict, no entry.
            table = self._early_table()
            if table is not None:
                path = self._path(url)
                return table.allows(path) or (path[1:2] == "r" and self._robots_txt(path))
        return self._decide(url)[0]

    def explain(self, url: str, purposes: Iterable[str] = ()) -> Decision:
        """The decision for ``url`` with the deciding rule and the reason: the
        verdict ``allowed`` gives, and the rule the same match found. With ``purposes``
        declared, a URL the rules allow is refused when robots.txt says no to all of them."""
        decision = self._explain(url)
        if decision.allowed and purposes:
            return self.purposes_refusal(url, purposes) or decision
        return decision

    def _explain(self, url: str) -> Decision:
        if not isinstance(url, str):
            raise TypeError(f"url must be a str, got {type(url).__name__}")
        from scrapy_robots_rep.core.decision import Decision

        stage = self._decide(url)
        if self._fixed is not None:
            return Decision(stage[0], None, self.group, self._reason())
        if stage is _ROBOTS_TXT:
            return Decision(True, None, self.group, REASON_ROBOTS_TXT)
        entry = first_match(stage[1], self._path(url))
        if entry is None:
            return Decision(stage[0], None, self.group, REASON_NO_MATCH)
        return Decision(stage[0], self._rules([entry])[0], self.group, self._mode.rule_reason)

    def rules(self) -> tuple[Rule, ...]:
        """The rules kept for this agent, in file order."""
        if self._fixed is not None:
            return ()
        index = self._index
        entries = (self._table or self._read()).ranked() if index is None else index.entries
        # An allowed ``index.htm`` rule has a second entry, for its directory: one rule per source.
        by_source = {entry[2]: entry for entry in entries}
        return tuple(self._rules([by_source[source] for source in sorted(by_source)]))

    def _decide(self, url: str) -> Stage:
        """The stage that decides ``url``: its verdict, and the entries its deciding rule is the first match of."""
        index = self._index
        if index is None:
            return self._decide_early(url)
        # ``_path``, inlined: this is the hot path.
        try:
            match = plain_url_path(url)
        except TypeError:
            raise TypeError(f"url must be a str, got {type(url).__name__}") from None
        if match is None:
            path = self._mode.normalise(url_path(url))
        else:
            path = match[1]
            if "%" in path:
                path = self._mode.normalise_plain(path)
        # The character after the leading "/" picks the checks ("" for the path "/").
        try:
            char = path[1]
        except IndexError:
            char = ""
        try:
            checks = index.checks[char]
        except KeyError:
            checks = index.checks_for(char)
        decisive, disallow_starts, allow_starts, plain, wildcards, runs, allowing, stage = checks
        # An empty tuple is not tried: a call costs more than the test.
        if decisive and path.startswith(decisive):
            pass
        elif not disallow_starts or not path.startswith(disallow_starts):
            return allowing
        elif not allow_starts or not path.startswith(allow_starts):
            # No allow entry decides: the URL is allowed unless a disallow entry matches.
            if not plain or not path.startswith(plain):
                for last, pattern in wildcards:
                    if last in path and matches_wildcards(pattern, path):
                        break
                else:
                    return allowing
        else:
            # An allow and a disallow entry may both match: the first run with a matching entry decides.
            stage = allowing
            for prefixes, patterns, run in runs:
                if path.startswith(prefixes):
                    stage = run
                    break
                for last, pattern in patterns:
                    if last in path and matches_wildcards(pattern, path):
                        stage = run
                        break
                if stage is run:
                    break
            if stage[0]:
                return stage
        # Disallowed, unless the path is robots.txt itself (its second character, ``char``, is tried first).
        return _ROBOTS_TXT if char == "r" and self._robots_txt(path) else stage

    def _decide_early(self, url: str) -> Stage:
        """``_decide`` for an origin not compiled: the first of its ranked entries that matches."""
        if self._fixed is not None:
            return NO_MATCH if self._fixed else _DISALLOWED
        table = self._early_table()
        if table is None:
            return self._decide(url)
        path = self._path(url)
        entry = first_match(table.ranked(), path)
        if entry is None:
            return NO_MATCH
        if entry[1]:
            return (True, (entry,))
        return _ROBOTS_TXT if self._robots_txt(path) else (False, (entry,))

    def _early_table(self) -> RuleTable | None:
        """The table of the rules for one of the origin's first ``EARLY_DECISIONS``
        decisions; None once they are made, its index then compiled."""
        table = self._table or self._read()
        asked = table.asked = table.asked + 1
        if asked > EARLY_DECISIONS:
            self._index = build_index(table.ranked())
            self._table = None
            return None
        return table

    def _reason(self) -> str:
        """Why every URL gets the fixed decision."""
        return (self._extras.reason if self._extras else None) or ""

    def _path(self, url: str) -> str:
        try:
            match = plain_url_path(url)
        except TypeError:
            raise TypeError(f"url must be a str, got {type(url).__name__}") from None
        if match is None:
            return self._mode.normalise(url_path(url))
        return self._mode.normalise_plain(match[1]) if "%" in match[1] else match[1]

    def _robots_txt(self, path: str) -> bool:
        """Whether a disallowed ``path`` is allowed after all, being robots.txt itself."""
        return (path == _ROBOTS_TXT_PATH or path.startswith(_ROBOTS_TXT_QUERY)) and self._mode.robots_txt_allowed

    def _read(self) -> RuleTable:
        """The table of the source's rules, kept while the origin is active."""
        table = self._table = self._mode.table(unpack(self._source), self._mode.lenient)
        active = self._active
        if active is not None:
            active.add(self)
        return table

    def _forget_index(self) -> None:
        """Drop the entries and the compiled index (the origin is no longer being crawled), and pack the source."""
        self._table = None
        self._index = None
        if isinstance(self._source, str):
            self._source = pack(self._source)

    def _rules(self, entries: Sequence[Entry]) -> list[Rule]:
        """The rules of ``entries``, read again from their lines."""
        from scrapy_robots_rep.core.decision import Rule

        sources = [entry[2] for entry in entries]
        texts = unpack(self._source).split("\n", max(sources, default=0) + 1)
        numbers = self._numbers
        rules = []
        for entry, source in zip(entries, sources, strict=True):
            text = texts[source]
            parsed = parse_line(text, self._mode.lenient)
            pattern = parsed[1] if parsed is not None else ""
            number = numbers + source if isinstance(numbers, int) else numbers[source]
            rules.append(Rule(entry[1], pattern, number, text))
        return rules

    def __repr__(self) -> str:
        return f"<AgentRules {self.matching} group={self.group!r} rules={len(self.rules())}>"

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe plain data; ``from_dict`` rebuilds an equal object."""
        from scrapy_robots_rep.core.plain_data import AgentRulesFields, dump  # for stores and saved state only

        return dump(
            AgentRulesFields(
                matching=self.matching,
                group=self.group,
                rules=tuple((rule.allow, rule.pattern, rule.line, rule.text) for rule in self.rules()),
                crawl_delay=self.crawl_delay,
                sitemaps=self.sitemaps,
                content_signal_lines=self.content_signal_lines(),
                content_usage_lines=self.content_usage_lines(),
                licenses=self.licenses,
                extensions=self.extensions,
                fixed=self._fixed,
                reason=self._extras.reason if self._extras else None,
            )
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AgentRules:
        """Rebuild from ``to_dict`` output; ValueError when ``data`` is malformed."""
        from scrapy_robots_rep.core.plain_data import load

        fields = load(data)
        return cls.from_lines(
            fields.matching,
            fields.group,
            [(line, text) for _, _, line, text in fields.rules],
            crawl_delay=fields.crawl_delay,
            sitemaps=fields.sitemaps,
            content_signal_lines=fields.content_signal_lines,
            content_usage_lines=fields.content_usage_lines,
            licenses=fields.licenses,
            extensions=fields.extensions,
            fixed=fields.fixed,
            reason=fields.reason,
        )


class ActiveRules:
    """The ``AgentRules`` of one cache that keep their table or compiled index: past ``size``
    of them, the one read longest ago forgets it (a ring: no bookkeeping per decision).

    A cache owns one and hands it to the rules it keeps (``adopt``); rules outside any cache
    (a ``RobotsTxt`` in a script) keep their table or index as long as they live."""

    __slots__ = ("_next", "_ring")

    def __init__(self, size: int = ACTIVE_ORIGINS) -> None:
        if size < 1:
            raise ValueError(f"size must be at least 1, got {size}")
        self._ring: list[AgentRules | None] = [None] * size
        self._next = 0

    def adopt(self, rules: AgentRules) -> None:
        """Count ``rules`` among these from now on (and at once, if they already hold a table or index)."""
        if rules._active is not self:
            rules._active = self
            if rules._table is not None or rules._index is not None:
                self.add(rules)

    def add(self, rules: AgentRules) -> None:
        """``rules`` were just read: the oldest of the ring forgets its table or index."""
        oldest = self._ring[self._next]
        if oldest is not None and oldest is not rules:
            oldest._forget_index()
        self._ring[self._next] = rules
        self._next = (self._next + 1) % len(self._ring)


def line_numbers(numbers: list[int]) -> LineNumbers:
    """``numbers`` as kept: the first one when they follow each other, else an array."""
    first = numbers[0] if numbers else 1
    if numbers == list(range(first, first + len(numbers))):
        return first
    return array("H" if max(numbers) < 1 << 16 else "I", numbers)


def _usage_rules(lines: tuple[SourceLine, ...], mode: MatchingMode) -> ContentUsageRules:
    """The ``Content-Usage`` rules of ``lines`` (their module is imported when a file has some)."""
    from scrapy_robots_rep.core.content_usage import ContentUsageRules

    return ContentUsageRules(lines, mode)


def _signals(lines: tuple[SourceLine, ...], mode: MatchingMode) -> tuple[Mapping[str, bool], tuple[SourceLine, ...]]:
    """The merged signals of ``lines`` (read as ``mode`` reads lines), and the lines."""
    values = []
    for source in lines:
        parsed = parse_line(source.text, mode.lenient)
        if parsed is not None:
            values.append(parsed[1])
    return MappingProxyType(merge_signals(values)), lines
