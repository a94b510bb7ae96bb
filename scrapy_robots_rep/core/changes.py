"""``compare_rules``: what changed for one agent between two copies of an origin's rules.

Compared on what the agent obeys, never on bytes: the same rules in another order, at other
lines, or with other comments are no change. A change is in the rules (``Allow``/``Disallow``
lines added or removed, compared by kind and pattern), in the crawl delay, in the
``Content-Signal`` the agent reads, in its ``Content-Usage`` rules (compared by path and
preferences), in the values of a declared extension field (compared as a multiset: the same values
in another order are no change), or between rules and a fixed answer (allow all after a 404,
disallow all).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from scrapy_robots_rep.core.agent_rules import AgentRules
from scrapy_robots_rep.core.content_usage import UsageRule
from scrapy_robots_rep.core.decision import Rule

_Rule = TypeVar("_Rule")

SHOWN_RULES = 5
"""Rules added, and rules removed, named in a change's description."""


@dataclass(frozen=True, slots=True)
class RulesChange:
    """How the agent's rules differ; each field is empty (or None) when that part did not change."""

    added: tuple[Rule, ...] = ()
    removed: tuple[Rule, ...] = ()
    crawl_delay: tuple[float | None, float | None] | None = None
    content_signals: tuple[Mapping[str, bool], Mapping[str, bool]] | None = None
    fixed: tuple[bool | None, bool | None] | None = None
    """(before, after) when one side allows or disallows everything regardless of rules."""
    usage_added: tuple[UsageRule, ...] = ()
    usage_removed: tuple[UsageRule, ...] = ()
    extensions: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = field(default_factory=dict)
    """(before, after) values of each declared extension field whose values changed, by name."""

    def describe(self) -> str:
        """One line: what changed, up to :data:`SHOWN_RULES` rules added and removed each, with lines."""
        parts = []
        if self.fixed is not None:
            parts.append(f"{_fixed(self.fixed[0])} -> {_fixed(self.fixed[1])}")
        for verb, rules in (("added", self.added), ("removed", self.removed)):
            if rules:
                parts.append(f"{len(rules)} rule{'s' if len(rules) != 1 else ''} {verb}: {_shown(rules)}")
        if self.crawl_delay is not None:
            parts.append(f"crawl delay {_delay(self.crawl_delay[0])} -> {_delay(self.crawl_delay[1])}")
        if self.content_signals is not None:
            parts.append(f"Content-Signal {_signals(self.content_signals[0])} -> {_signals(self.content_signals[1])}")
        for verb, usage in (("added", self.usage_added), ("removed", self.usage_removed)):
            if usage:
                parts.append(f"Content-Usage {verb}: {_shown(usage)}")
        for name, (before, after) in self.extensions.items():
            parts.append(f"{name} {_values(before)} -> {_values(after)}")
        return "; ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe plain data (the audit trail's ``changed`` field)."""
        return {
            "added": [{"line": rule.line, "text": rule.text} for rule in self.added],
            "removed": [{"line": rule.line, "text": rule.text} for rule in self.removed],
            "crawl_delay": list(self.crawl_delay) if self.crawl_delay is not None else None,
            "content_signals": [dict(side) for side in self.content_signals] if self.content_signals else None,
            "fixed": list(self.fixed) if self.fixed is not None else None,
            "content_usage_added": [{"line": rule.line, "text": rule.text} for rule in self.usage_added],
            "content_usage_removed": [{"line": rule.line, "text": rule.text} for rule in self.usage_removed],
            "extensions": {name: [list(side) for side in sides] for name, sides in self.extensions.items()} or None,
        }


def compare_rules(old: AgentRules, new: AgentRules) -> RulesChange | None:
    """How ``new`` differs from ``old`` for the agent they were chosen for; None when it does not."""
    old_rules, new_rules = old.rules(), new.rules()
    before = Counter(_key(rule) for rule in old_rules)
    after = Counter(_key(rule) for rule in new_rules)
    added = _beyond(new_rules, before, _key)
    removed = _beyond(old_rules, after, _key)
    delay = (old.crawl_delay, new.crawl_delay) if old.crawl_delay != new.crawl_delay else None
    old_signals, new_signals = dict(old.content_signals), dict(new.content_signals)
    signals = (old.content_signals, new.content_signals) if old_signals != new_signals else None
    fixed = (old.fixed, new.fixed) if old.fixed != new.fixed else None
    usage_added = _beyond(new.content_usage_rules, Counter(map(_usage_key, old.content_usage_rules)), _usage_key)
    usage_removed = _beyond(old.content_usage_rules, Counter(map(_usage_key, new.content_usage_rules)), _usage_key)
    extensions = _extensions_changed(old.extensions, new.extensions)
    if not (added or removed or delay or signals or fixed or usage_added or usage_removed or extensions):
        return None
    return RulesChange(
        tuple(added), tuple(removed), delay, signals, fixed, tuple(usage_added), tuple(usage_removed), extensions
    )


def _extensions_changed(
    old: Mapping[str, tuple[str, ...]], new: Mapping[str, tuple[str, ...]]
) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    """The extension fields whose values differ other than in order, with their values before and after."""
    changed = {}
    for name in dict.fromkeys([*old, *new]):
        before, after = old.get(name, ()), new.get(name, ())
        if Counter(before) != Counter(after):
            changed[name] = (before, after)
    return changed


def _key(rule: Rule) -> tuple[bool, str]:
    return rule.allow, rule.pattern


def _usage_key(rule: UsageRule) -> tuple[str | None, tuple[tuple[str, str], ...], bool]:
    """A Content-Usage rule as what it says: its path and preferences, not its line or spelling."""
    return rule.path, tuple(sorted(rule.statement.values.items())), rule.statement.valid


def _beyond(rules: Sequence[_Rule], other: Counter[Any], key_of: Callable[[_Rule], Any]) -> list[_Rule]:
    """The rules of ``rules`` that ``other`` does not hold as many times (in file order)."""
    left = Counter(other)
    beyond = []
    for rule in rules:
        key = key_of(rule)
        if left[key] > 0:
            left[key] -= 1
        else:
            beyond.append(rule)
    return beyond


def _shown(rules: Sequence[Rule | UsageRule]) -> str:
    """The first :data:`SHOWN_RULES` lines, quoted with their line numbers, and how many more."""
    shown = "; ".join(f"{rule.text.strip()!r} (line {rule.line})" for rule in rules[:SHOWN_RULES])
    return shown + (f" and {len(rules) - SHOWN_RULES} more" if len(rules) > SHOWN_RULES else "")


def _fixed(fixed: bool | None) -> str:
    return "rules" if fixed is None else "allow all" if fixed else "disallow all"


def _delay(delay: float | None) -> str:
    return "none" if delay is None else f"{delay:g}s"


def _values(values: tuple[str, ...]) -> str:
    return ", ".join(values) or "none"


def _signals(signals: Mapping[str, bool]) -> str:
    return ", ".join(f"{name}={'yes' if allowed else 'no'}" for name, allowed in signals.items()) or "none"
