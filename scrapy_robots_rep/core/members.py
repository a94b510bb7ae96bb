"""What each member line of a group does: one table, field -> handler.

This is the extension point for robots.txt directives. Grouping keeps the
lines whose field has a handler here (a field without one, known or not, is
ignored by grouping and matching); compiling an agent's groups hands each kept
line, in file order, to its field's handler, which records it in ``Collected``.
To add a directive: its field name in ``lines.KNOWN_FIELDS``, a handler here,
and where ``Collected`` keeps it on ``AgentRules``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from scrapy_robots_rep.core.content_signals import read_signals
from scrapy_robots_rep.core.decision import SourceLine
from scrapy_robots_rep.core.delays import crawl_delay_seconds, request_rate_seconds
from scrapy_robots_rep.core.lines import (
    ALLOW,
    CONTENT_SIGNAL,
    CONTENT_USAGE,
    CRAWL_DELAY,
    DISALLOW,
    REQUEST_RATE,
    Directive,
)


@dataclass(slots=True)
class Collected:
    """What an agent's member lines say, gathered in file order."""

    rule_lines: list[tuple[int, str]] = field(default_factory=list)
    """``(line number, line text)`` of each ``Allow``/``Disallow`` line: the rule is read again from its text."""
    delays: list[float] = field(default_factory=list)
    content_signal_lines: list[SourceLine] = field(default_factory=list)
    content_usage_lines: list[SourceLine] = field(default_factory=list)


MemberHandler = Callable[[Collected, int, str, str], None]
"""``handler(collected, line number, value, line text)``."""


def _rule(collected: Collected, number: int, value: str, text: str) -> None:
    collected.rule_lines.append((number, text))


def _crawl_delay(collected: Collected, number: int, value: str, text: str) -> None:
    delay = crawl_delay_seconds(value)
    if delay is not None:
        collected.delays.append(delay)


def _request_rate(collected: Collected, number: int, value: str, text: str) -> None:
    delay = request_rate_seconds(value)
    if delay is not None:
        collected.delays.append(delay)


def _content_signal(collected: Collected, number: int, value: str, text: str) -> None:
    if read_signals(value):
        collected.content_signal_lines.append(SourceLine(number, text))


def _content_usage(collected: Collected, number: int, value: str, text: str) -> None:
    collected.content_usage_lines.append(SourceLine(number, text))


MEMBER_HANDLERS: Mapping[str, MemberHandler] = MappingProxyType(
    {
        ALLOW: _rule,
        DISALLOW: _rule,
        CRAWL_DELAY: _crawl_delay,
        REQUEST_RATE: _request_rate,
        CONTENT_SIGNAL: _content_signal,
        CONTENT_USAGE: _content_usage,
    }
)

MEMBER_FIELDS = frozenset(MEMBER_HANDLERS)
"""The fields grouping keeps as group members (a set: faster to test than the table)."""

RULE_FIELDS = frozenset((ALLOW, DISALLOW))
"""The members that are rules: in ``rfc9309`` grouping only they end a run of user-agent lines."""


def collect(groups_members: Iterable[list[Directive]], lines: list[str]) -> Collected:
    """Hand each member line of the chosen groups (their ``members``, in order)
    to its field's handler; ``lines`` are the file's lines."""
    collected = Collected()
    handlers = MEMBER_HANDLERS
    for members in groups_members:
        for number, name, value in members:
            handlers[name](collected, number, value, lines[number - 1])
    return collected
