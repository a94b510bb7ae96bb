"""The plain data a decision is explained with."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SourceLine:
    """One line of a robots.txt file: its 1-based number and its text as written."""

    line: int
    text: str


@dataclass(frozen=True, slots=True)
class Rule:
    """One ``Allow``/``Disallow`` line of a robots.txt file."""

    allow: bool
    pattern: str
    line: int
    text: str


@dataclass(frozen=True, slots=True)
class Decision:
    """Whether a URL may be fetched, and why."""

    allowed: bool
    rule: Rule | None
    group: tuple[str, ...]
    reason: str
