"""Group a file's directives per matching mode, and choose the groups for an agent."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from scrapy_robots_rep.core.lines import (
    ALLOW,
    BLANK,
    CRAWL_DELAY,
    DISALLOW,
    REQUEST_RATE,
    USER_AGENT,
    Directive,
)

_MEMBER_FIELDS = frozenset((ALLOW, DISALLOW, CRAWL_DELAY, REQUEST_RATE))
_PRODUCT_TOKEN = re.compile(r"[A-Za-z_-]*")


@dataclass(slots=True)
class Group:
    """User-agent values and the member lines (rules, delays) that follow them."""

    agents: list[str] = field(default_factory=list)
    members: list[Directive] = field(default_factory=list)


def group_rfc9309(directives: list[Directive]) -> list[Group]:
    """Consecutive user-agent lines open a group; the group runs until a
    user-agent line that follows a member line. Members before any group
    are ignored; blank lines, sitemaps and unknown fields change nothing."""
    groups: list[Group] = []
    current: Group | None = None
    collecting_agents = False
    for directive in directives:
        kind = directive[1]
        if kind == USER_AGENT:
            if not collecting_agents:
                current = Group()
                groups.append(current)
                collecting_agents = True
            current.agents.append(directive[2])
        elif kind in _MEMBER_FIELDS and current is not None:
            current.members.append(directive)
            collecting_agents = False
    return groups


def group_legacy(directives: list[Directive]) -> list[Group]:
    """A record is user-agent lines then member lines, ended by a blank line
    (or by a user-agent line after members). Lines outside a record, and
    records without members, are ignored."""
    groups: list[Group] = []
    current: Group | None = None
    for directive in directives:
        kind = directive[1]
        if kind == USER_AGENT:
            if current is None or current.members:
                current = Group()
                groups.append(current)
            current.agents.append(directive[2])
        elif kind == BLANK:
            current = None
        elif kind in _MEMBER_FIELDS and current is not None:
            current.members.append(directive)
    return [group for group in groups if group.members]


def select_rfc9309(groups: list[Group], agent: str) -> list[Group]:
    """All groups naming the agent's product token, else all ``*`` groups."""
    wanted = agent.lower()
    specific = [group for group in groups if any(_product_token(value) == wanted for value in group.agents)]
    if specific:
        return specific
    return [group for group in groups if any(_is_global(value) for value in group.agents)]


def select_legacy(groups: list[Group], agent: str) -> list[Group]:
    """The first record with a value found in the robot's name, else the first ``*`` record."""
    name = agent.lower()
    for group in groups:
        if any(value != "*" and value and value.lower() in name for value in group.agents):
            return [group]
    for group in groups:
        if "*" in group.agents:
            return [group]
    return []


def _product_token(value: str) -> str:
    return _PRODUCT_TOKEN.match(value).group().lower()


def _is_global(value: str) -> bool:
    """``*``, or ``*`` followed by whitespace and anything (as Google reads it)."""
    return value == "*" or (value.startswith("*") and value[1:2].isspace())
