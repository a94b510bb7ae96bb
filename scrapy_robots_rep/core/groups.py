"""Group a file's directives per matching mode, and choose the groups for an agent."""

from __future__ import annotations

from dataclasses import dataclass, field

from scrapy_robots_rep.core.agents import value_token
from scrapy_robots_rep.core.fields import MEMBER_FIELDS, RULE_FIELDS
from scrapy_robots_rep.core.lines import BLANK, USER_AGENT, Directive


@dataclass(slots=True, eq=False)
class Group:
    """User-agent values and the member lines (rules, delays, signals) that follow them."""

    agents: list[str] = field(default_factory=list)
    members: list[Directive] = field(default_factory=list)


def group_rfc9309(directives: list[Directive], members: frozenset[str] = MEMBER_FIELDS) -> list[Group]:
    """Consecutive user-agent lines open a group; the group runs until a
    user-agent line that follows a rule. Only a rule (``allow``/``disallow``)
    ends a run of user-agent lines: delays, signals, sitemaps, unknown fields
    and blank lines do not (RFC 9309 §2.2.4). Members before any group are ignored.
    ``members`` are the fields kept as group members."""
    groups: list[Group] = []
    current: Group | None = None
    collecting_agents = False
    for directive in directives:
        kind = directive[1]
        if kind == USER_AGENT:
            if current is None or not collecting_agents:
                current = Group()
                groups.append(current)
                collecting_agents = True
            current.agents.append(directive[2])
        elif current is not None and kind in members:
            current.members.append(directive)
            if kind in RULE_FIELDS:
                collecting_agents = False
    return groups


def group_legacy(directives: list[Directive], members: frozenset[str] = MEMBER_FIELDS) -> list[Group]:
    """A record is user-agent lines then member lines, ended by a blank line
    (or by a user-agent line after members). Lines outside a record, and
    records without members, are ignored. ``members`` are the fields kept as group members."""
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
        elif current is not None and kind in members:
            current.members.append(directive)
    return [group for group in groups if group.members]


def select_rfc9309(groups: list[Group], agent: str) -> list[Group]:
    """All groups naming the agent's product token, else all ``*`` groups."""
    return [groups[position] for position in chosen_rfc9309([group.agents for group in groups], agent)]


def chosen_rfc9309(values: list[list[str]], agent: str) -> list[int]:
    """The positions ``select_rfc9309`` chooses, of groups given by their user-agent values."""
    wanted = agent.lower()
    specific = [position for position, group in enumerate(values) if _names(group, wanted)]
    return specific or global_groups(values)


def global_groups(values: list[list[str]]) -> list[int]:
    """The positions of the ``*`` groups, of groups given by their user-agent values."""
    return [position for position, group in enumerate(values) if _is_global_group(group)]


def _names(values: list[str], wanted: str) -> bool:
    """Whether a value's token is ``wanted`` (lower-case)."""
    size = len(wanted)
    for value in values:  # noqa: SIM110 (a loop is faster than any() over a generator, and this is run per group)
        # Cheap first: a value whose token is ``wanted`` starts with it.
        if value[:size].lower() == wanted and value_token(value) == wanted:
            return True
    return False


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


def _is_global_group(values: list[str]) -> bool:
    """Whether a value is ``*``, or ``*`` followed by whitespace and anything (as Google reads it)."""
    for value in values:  # noqa: SIM110 (as in ``_names``)
        if value == "*" or (value[:1] == "*" and value[1:2].isspace()):
            return True
    return False
