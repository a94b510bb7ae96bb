"""Slow, obviously-correct reference matchers written straight from docs/behaviour.md §3 and §4.

They work on a structured robots.txt (a list of groups) rather than on text, brute-force every
rule, and match wildcards with a memoised recursive definition, so that they can be read
against that text line by line. The core's answers are compared with theirs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
_PRODUCT_TOKEN = re.compile(r"[A-Za-z_-]*")


@dataclass(frozen=True)
class RuleLine:
    """One ``Allow``/``Disallow`` line of a generated file."""

    allow: bool
    pattern: str


@dataclass(frozen=True)
class Group:
    """One group (rfc9309) or record (legacy): its user-agent values and its rules."""

    agents: tuple[str, ...]
    rules: tuple[RuleLine, ...]


@dataclass(frozen=True)
class Rendered:
    """A generated file's text and the 1-based line number of every rule, group by group."""

    text: str
    rule_lines: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Expected:
    """The reference answer: allowed or not, and which lines may have decided it."""

    allowed: bool
    deciding_lines: frozenset[int]


def render(groups: list[Group], noise: tuple[str, ...] = (), agent_noise: tuple[str, ...] = ()) -> Rendered:
    """Write groups as robots.txt text: agent lines, rule lines, a blank line after each group.

    ``noise`` lines (comments, sitemaps, unknown fields) are written after each group's first
    rule; they must not change any decision. ``agent_noise`` lines are written after each
    group's first user-agent line: in rfc9309 matching only a rule ends a run of user-agent
    lines (docs/behaviour.md §2), so there they must not change any decision either.
    """
    lines: list[str] = []
    numbers: list[tuple[int, ...]] = []
    for group in groups:
        for index, agent in enumerate(group.agents):
            lines.append(f"User-agent: {agent}")
            if index == 0:
                lines.extend(agent_noise)
        group_numbers = []
        for index, rule in enumerate(group.rules):
            lines.append(f"{'Allow' if rule.allow else 'Disallow'}: {rule.pattern}")
            group_numbers.append(len(lines))
            if index == 0:
                lines.extend(noise)
        numbers.append(tuple(group_numbers))
        lines.append("")
    return Rendered("\n".join(lines) + "\n", tuple(numbers))


def normalise_rfc9309(text: str) -> str:
    """docs/behaviour.md §4: non-ASCII as upper-case %XX of UTF-8, %XX of unreserved decoded, other %xx upper."""
    out: list[str] = []
    index = 0
    while index < len(text):
        escape = _ESCAPE.match(text, index)
        if escape:
            char = chr(int(escape.group()[1:], 16))
            out.append(char if char in UNRESERVED else escape.group().upper())
            index += 3
            continue
        char = text[index]
        if ord(char) < 128:
            out.append(char)
        else:
            out.extend(f"%{octet:02X}" for octet in char.encode("utf-8"))
        index += 1
    return "".join(out)


def normalise_legacy(text: str) -> bytes:
    """docs/behaviour.md §4 legacy: every %XX decoded to its octet except %2F, which stays as written."""
    out = bytearray()
    index = 0
    while index < len(text):
        escape = _ESCAPE.match(text, index)
        if escape and escape.group().upper() != "%2F":
            out.append(int(escape.group()[1:], 16))
            index += 3
            continue
        out.extend(text[index].encode("utf-8"))
        index += 1
    return bytes(out)


def wildcard_match(pattern: str, path: str) -> bool:
    """Does ``pattern`` (``*`` = any sequence, final ``$`` = end) match a prefix of ``path``?"""
    anchored = pattern.endswith("$")
    body = pattern[:-1] if anchored else pattern

    @cache
    def match(at_pattern: int, at_path: int) -> bool:
        if at_pattern == len(body):
            return at_path == len(path) or not anchored
        if body[at_pattern] == "*":
            return match(at_pattern + 1, at_path) or (at_path < len(path) and match(at_pattern, at_path + 1))
        return at_path < len(path) and path[at_path] == body[at_pattern] and match(at_pattern + 1, at_path + 1)

    return match(0, 0)


def _product_token(value: str) -> str:
    """The lower-cased leading run of ``A-Z a-z _ -`` of a user-agent value."""
    match = _PRODUCT_TOKEN.match(value)
    return match.group().lower() if match else ""


def rfc9309_groups(groups: list[Group], agent: str) -> list[int]:
    """docs/behaviour.md §3 rfc9309: indexes of all groups whose product token equals the agent, else all ``*``."""
    wanted = agent.lower()
    specific = [
        index for index, group in enumerate(groups) if any(_product_token(value) == wanted for value in group.agents)
    ]
    if specific:
        return specific
    return [index for index, group in enumerate(groups) if "*" in group.agents]


def rfc9309_expected(rendered: Rendered, groups: list[Group], agent: str, path: str) -> Expected:
    """docs/behaviour.md §4 rfc9309: the longest matching pattern decides, allow wins a tie, no match allows."""
    target = normalise_rfc9309(path)
    best_length = -1
    matches: list[tuple[int, bool, int]] = []
    for group_index in rfc9309_groups(groups, agent):
        group = groups[group_index]
        for rule, line in zip(group.rules, rendered.rule_lines[group_index], strict=True):
            pattern = normalise_rfc9309(rule.pattern)
            if pattern and wildcard_match(pattern, target):
                matches.append((len(pattern), rule.allow, line))
                best_length = max(best_length, len(pattern))
    if not matches:
        return Expected(True, frozenset())
    longest = [(allow, line) for length, allow, line in matches if length == best_length]
    allowed = any(allow for allow, _ in longest)
    return Expected(allowed, frozenset(line for allow, line in longest if allow == allowed))


def legacy_group(groups: list[Group], robot_name: str) -> int | None:
    """docs/behaviour.md §3 legacy: the first record with a value inside the robot's name, else the first ``*``."""
    name = robot_name.lower()
    for index, group in enumerate(groups):
        if any(value != "*" and value.lower() in name for value in group.agents):
            return index
    for index, group in enumerate(groups):
        if "*" in group.agents:
            return index
    return None


def legacy_expected(rendered: Rendered, groups: list[Group], robot_name: str, path: str) -> Expected:
    """docs/behaviour.md §4 legacy: the first rule, in file order, whose decoded path is a prefix decides."""
    group_index = legacy_group(groups, robot_name)
    if group_index is None:
        return Expected(True, frozenset())
    target = normalise_legacy(path)
    group = groups[group_index]
    for rule, line in zip(group.rules, rendered.rule_lines[group_index], strict=True):
        if target.startswith(normalise_legacy(rule.pattern)):
            return Expected(rule.allow, frozenset({line}))
    return Expected(True, frozenset())
