"""robots.txt ``Content-Usage`` rules (draft-ietf-aipref-attach) and what they say of a URL.

``Content-Usage: [path] statement`` sits in a group beside Allow/Disallow. The path is present
when the value starts with ``/`` and ends at the first space or tab; the rest is the statement
(``usage_preferences``). For a URL, the rules with the longest matching path apply (a rule
without a path matches every path, as the shortest) and rules of that length combine, any ``n``
winning. Paths are normalised and matched as the matching mode reads Allow/Disallow patterns.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from scrapy_robots_rep.core.lines import parse_line
from scrapy_robots_rep.core.modes import RFC9309, MatchingMode
from scrapy_robots_rep.core.paths import url_path
from scrapy_robots_rep.core.patterns import CompiledPattern, compile_pattern, matches_wildcards
from scrapy_robots_rep.core.purposes import purpose_name
from scrapy_robots_rep.core.usage_preferences import UsageStatement, combine, read_usage_value

if TYPE_CHECKING:
    from scrapy_robots_rep.core.decision import Decision, SourceLine


@dataclass(frozen=True, slots=True)
class UsageRule:
    """One ``Content-Usage`` line of a group: its path (None when absent), statement and line."""

    path: str | None
    statement: UsageStatement
    line: int
    text: str

    def describe(self) -> str:
        return f"line {self.line}: {self.text.strip()}"


@dataclass(frozen=True, slots=True)
class UsageAnswer:
    """What the Content-Usage rules say of one URL: the rules that apply and their combined preferences."""

    rules: tuple[UsageRule, ...]
    preferences: Mapping[str, bool]
    """Purpose -> allowed; a purpose absent is unknown."""

    def refusing(self, purpose: str) -> UsageRule | None:
        """The first applying rule that says ``n`` to ``purpose``, or None."""
        for rule in self.rules:
            if rule.statement.preferences.get(purpose) is False:
                return rule
        return None

    @property
    def source(self) -> str:
        """The applying rules, for explanations: ``robots.txt line 4: Content-Usage: train-ai=n``."""
        return "robots.txt " + "; ".join(rule.describe() for rule in self.rules)


class ContentUsageRules:
    """An agent's ``Content-Usage`` rules, matched against URLs as the mode matches patterns."""

    __slots__ = ("_compiled", "_mode", "rules")

    def __init__(self, lines: Iterable[SourceLine], mode: MatchingMode) -> None:
        self._mode = mode
        rules = []
        for source in lines:
            parsed = parse_line(source.text, mode.lenient)
            value = parsed[1] if parsed is not None else ""
            path, statement = read_usage_value(value)
            rules.append(UsageRule(path, statement, source.line, source.text))
        self.rules: tuple[UsageRule, ...] = tuple(rules)
        self._compiled: list[tuple[int, CompiledPattern | None, UsageRule]] = [
            (*self._pattern(rule.path), rule) for rule in rules
        ]

    def _pattern(self, path: str | None) -> tuple[int, CompiledPattern | None]:
        """The rule's length in octets (-1 without a path) and its compiled pattern."""
        if path is None:
            return -1, None
        normalised = self._mode.normalise(path)
        # rfc9309 patterns have wildcards; legacy ones are plain prefixes.
        return len(normalised), compile_pattern(normalised) if self._mode is RFC9309 else normalised

    def answer(self, url: str) -> UsageAnswer:
        """The rules with the longest path matching ``url``, and what they say together."""
        path = self._mode.normalise(url_path(url))
        longest = -2
        applying: list[UsageRule] = []
        for length, pattern, rule in self._compiled:
            if length < longest or not _matches(pattern, path):
                continue
            if length > longest:
                longest = length
                applying = []
            applying.append(rule)
        preferences = combine(rule.statement.preferences for rule in applying)
        return UsageAnswer(tuple(applying), MappingProxyType(preferences))


def _matches(pattern: CompiledPattern | None, path: str) -> bool:
    if pattern is None:
        return True
    if isinstance(pattern, str):
        return path.startswith(pattern)
    return matches_wildcards(pattern, path)


def declared_purposes(purposes: Iterable[str]) -> list[str]:
    """The declared purposes by their ``Content-Signal`` names, in order, once each; ValueError
    for a name neither vocabulary has."""
    declared: list[str] = []
    for name in purposes:
        purpose = purpose_name(name)
        if purpose is None:
            raise ValueError(f"unknown purpose {name!r}")
        if purpose not in declared:
            declared.append(purpose)
    return declared


def purposes_refusal(
    signals: Mapping[str, bool],
    usage: UsageAnswer | None,
    purposes: Iterable[str],
    group: tuple[str, ...],
) -> Decision | None:
    """The refusal of a URL before download, or None: robots.txt ``Content-Signal`` (origin-wide)
    and ``Content-Usage`` (for the URL's path) together say no to every declared purpose, so
    nothing fetched could be used. The decision's rule is the first Content-Usage rule refusing."""
    declared = declared_purposes(purposes)
    if not declared:
        return None
    refusals: list[str] = []
    rule: UsageRule | None = None
    kinds: list[str] = []
    for purpose in declared:
        refusing = usage.refusing(purpose) if usage is not None else None
        if refusing is not None:
            rule = rule or refusing
            refusals.append(f"{purpose}=n ({refusing.describe()})")
            kinds.append("Content-Usage")
        elif signals.get(purpose, True) is False:
            refusals.append(f"{purpose}=no")
            kinds.append("Content-Signal")
        else:
            return None
    names = " and ".join(dict.fromkeys(kinds))
    verb = "refuse" if " and " in names else "refuses"
    reason = f"robots.txt {names} {verb} every declared purpose (REP_PURPOSES): {', '.join(refusals)}"
    from scrapy_robots_rep.core.decision import Decision, Rule

    if rule is None:
        return Decision(False, None, group, reason)
    return Decision(False, Rule(False, rule.path or "", rule.line, rule.text), group, reason)
