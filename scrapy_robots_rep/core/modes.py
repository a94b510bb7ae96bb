"""The matching modes as objects, looked up by name (docs/behaviour.md §1-§4).

A mode says how lines are read (leniently or not), grouped, chosen for an
agent, how the configured agent is reduced, how URL paths are normalised, how
a group's rules are matched, and which reason a decision by a rule gets. Adding
a mode means adding one ``MatchingMode`` here and listing it in ``MATCHING_MODES``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import NamedTuple

from scrapy_robots_rep.core.agents import read_agent, robot_token, token_problem
from scrapy_robots_rep.core.groups import Group, group_legacy, group_rfc9309, select_legacy, select_rfc9309
from scrapy_robots_rep.core.lines import Directive
from scrapy_robots_rep.core.paths import normalise_legacy, normalise_rfc9309, normalise_rfc9309_escapes
from scrapy_robots_rep.core.rule_index import (
    Entry,
    FirstMatch,
    LongestMatch,
    RuleRow,
    RuleTable,
    rank_legacy,
    rank_rfc9309,
)


class MatchingMode(NamedTuple):
    """How robots.txt is read and URLs are decided in one matching mode (one object per mode, checked
    with ``is``)."""

    name: str
    lenient: bool
    """Lines are read as Google's parser reads them (misspelt fields, missing colons)."""
    group: Callable[[list[Directive], frozenset[str]], list[Group]]
    """The file's directives as groups, given the fields kept as group members."""
    select: Callable[[list[Group], str], list[Group]]
    """The groups an agent (already reduced by ``agent_token``) obeys."""
    agent_token: Callable[[str], str]
    """The part of the configured agent that group values are compared with."""
    agent_problem: Callable[[str], str | None]
    """Why groups could never match the configured agent, or None."""
    normalise: Callable[[str], str]
    """A URL's path and query as compared with patterns."""
    normalise_plain: Callable[[str], str]
    """``normalise`` of a path and query ``paths.plain_url_path`` matched (a shortcut)."""
    rank: Callable[[Iterable[RuleRow]], list[Entry]]
    """A group's rules as entries, in the order they are tried."""
    table: Callable[[str, bool], RuleTable]
    """A group's lines (read leniently or not) as a table: the verdict for a path,
    and the entries in the order they are tried."""
    rule_reason: str
    """The reason of a decision made by a rule."""
    robots_txt_allowed: bool
    """``/robots.txt`` itself is allowed whatever the rules say."""

    def __repr__(self) -> str:
        return f"<MatchingMode {self.name}>"


def _robot_name(configured: str) -> str:
    return read_agent(configured).name


def _rfc9309_agent_problem(configured: str) -> str | None:
    robot = read_agent(configured)
    return robot.problem or token_problem(robot.token)


def _legacy_agent_problem(configured: str) -> str | None:
    return read_agent(configured).problem if configured.strip() else "the robot's name is empty"


RFC9309 = MatchingMode(
    name="rfc9309",
    lenient=True,
    group=group_rfc9309,
    select=select_rfc9309,
    agent_token=robot_token,
    agent_problem=_rfc9309_agent_problem,
    normalise=normalise_rfc9309,
    normalise_plain=normalise_rfc9309_escapes,
    rank=rank_rfc9309,
    table=LongestMatch,
    rule_reason="longest match",
    robots_txt_allowed=True,
)

LEGACY = MatchingMode(
    name="legacy",
    lenient=False,
    group=group_legacy,
    select=select_legacy,
    agent_token=_robot_name,
    agent_problem=_legacy_agent_problem,
    normalise=normalise_legacy,
    normalise_plain=normalise_legacy,
    rank=rank_legacy,
    table=FirstMatch,
    rule_reason="first match",
    robots_txt_allowed=False,
)

MATCHING_MODES: Mapping[str, MatchingMode] = MappingProxyType({mode.name: mode for mode in (RFC9309, LEGACY)})
"""Every matching mode by name; its keys are the allowed ``matching`` values."""


def matching_mode(name: str) -> MatchingMode:
    """The mode called ``name``; ValueError naming the allowed values otherwise."""
    mode = MATCHING_MODES.get(name) if isinstance(name, str) else None
    if mode is None:
        raise ValueError(f"matching must be one of {', '.join(map(repr, MATCHING_MODES))}, got {name!r}")
    return mode
