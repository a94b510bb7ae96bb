"""``RobotsTxt``: a parsed robots.txt file in one matching mode.

Parsing decodes the body; the rest is read when asked. ``for_agent`` in
``rfc9309`` mode reads only what the agent needs (``scan``), which is what a
crawler asks per origin; the groups of the whole file are built only when
``legacy`` matching (or a text whose lower-casing moves characters) needs them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from scrapy_robots_rep.core.agent_rules import REASON_NO_GROUP, AgentRules, LineNumbers, line_numbers
from scrapy_robots_rep.core.fields import (
    CONTENT_SIGNAL,
    CONTENT_USAGE,
    FIELDS,
    GROUP_EXTRAS,
    LICENSE,
    MEMBER_FIELDS,
    SITEMAP,
    VALUE_FIELDS,
    Field,
    Kept,
    extension_rows,
)
from scrapy_robots_rep.core.groups import Group
from scrapy_robots_rep.core.lines import decode, read_directives
from scrapy_robots_rep.core.members import MemberValues, collect
from scrapy_robots_rep.core.modes import RFC9309, MatchingMode, matching_mode
from scrapy_robots_rep.core.scan import file_values, lowered, scan_rfc9309

if TYPE_CHECKING:
    from scrapy_robots_rep.core.decision import Decision
    from scrapy_robots_rep.core.extension_field import ExtensionField

DEFAULT_MAX_SIZE = 512_000

_NO_EXTENSIONS: Mapping[str, tuple[str, ...]] = MappingProxyType({})

# A RobotsTxt is usually asked about one agent; keep the last few compiled.
_COMPILED_AGENTS_KEPT = 8


class RobotsTxt:
    """A robots.txt body parsed in ``rfc9309`` or ``legacy`` matching mode."""

    __slots__ = ("_compiled", "_file_values", "_grouped", "_low", "_mode", "_text", "_value_fields")

    def __init__(self, mode: MatchingMode, text: str, extensions: tuple[Field, ...] = VALUE_FIELDS) -> None:
        """``extensions``: the fields kept as values (the table's, and those a caller declared)."""
        self._mode = mode
        self._text = text
        self._low = lowered(text)
        self._value_fields = extensions
        self._file_values: dict[str, list[str]] = {}
        self._grouped: tuple[list[str], list[Group]] | None = None
        self._compiled: dict[str, AgentRules] = {}

    @classmethod
    def parse(
        cls,
        body: bytes | str,
        matching: str = "rfc9309",
        *,
        max_size: int = DEFAULT_MAX_SIZE,
        extensions: Iterable[ExtensionField | str] = (),
    ) -> RobotsTxt:
        """Parse ``body`` (bytes, or an already decoded str); ``extensions`` are fields this
        parser does not define whose values the agent's rules keep (``AgentRules.extension``)."""
        if not isinstance(body, (bytes, bytearray, memoryview, str)):
            raise TypeError(f"robots.txt body must be bytes or str, got {type(body).__name__}")
        mode = matching_mode(matching)
        if isinstance(max_size, bool) or not isinstance(max_size, int) or max_size < 0:
            raise ValueError(f"max_size must be an int >= 0, got {max_size!r}")
        if not isinstance(body, str):
            body = bytes(body)
        return cls(
            mode, decode(body, max_size), VALUE_FIELDS + extension_rows(extensions) if extensions else VALUE_FIELDS
        )

    @property
    def matching(self) -> str:
        """The matching mode's name (``rfc9309`` or ``legacy``)."""
        return self._mode.name

    @property
    def sitemaps(self) -> list[str]:
        """The file's ``Sitemap:`` URLs, in order, whatever group they sit in."""
        return self._values_of(FIELDS[SITEMAP])

    @property
    def licenses(self) -> list[str]:
        """The file's ``License:`` URLs (RSL 1.0), in order, whatever group they sit in."""
        return self._values_of(FIELDS[LICENSE])

    def _values_of(self, row: Field) -> list[str]:
        """The file's non-empty values of a file-wide field, in order (read once)."""
        values = self._file_values.get(row.name)
        if values is None:
            if self._low is not None:
                values = file_values(self._text, self._low, row, self._mode.lenient)
            else:
                _, directives = read_directives(self._text, self._mode.lenient)
                values = [value for _, field, value in directives if field == row.name and value]
            self._file_values[row.name] = values
        return values

    def allowed(self, url: str, agent: str) -> bool:
        """Whether ``agent`` may fetch ``url`` (absolute)."""
        return self.for_agent(agent).allowed(url)

    def explain(self, url: str, agent: str, purposes: Iterable[str] = ()) -> Decision:
        """The decision for ``agent`` on ``url``, with the group, rule and reason; with
        ``purposes`` declared, also refused when robots.txt ``Content-Signal`` and
        ``Content-Usage`` say no to every one of them (the Content-Usage rule named)."""
        return self.for_agent(agent).explain(url, purposes)

    def for_agent(self, agent: str) -> AgentRules:
        """The compact rules ``agent`` obeys (what a cache keeps).

        ``agent`` is the configured robot name, reduced as the mode says
        (``rfc9309``: ``mybot/1.0 (+https://x)`` is ``mybot``)."""
        if not isinstance(agent, str):
            raise TypeError(f"agent must be a str, got {type(agent).__name__}")
        compiled = self._compiled.get(agent)
        if compiled is None:
            compiled = self._compile(agent)
            if len(self._compiled) >= _COMPILED_AGENTS_KEPT:
                self._compiled.clear()
            self._compiled[agent] = compiled
        return compiled

    def _compile(self, agent: str) -> AgentRules:
        mode = self._mode
        token = mode.agent_token(agent)
        if not token:
            raise ValueError(
                f"agent must be a non-empty robot name, got {agent!r}: give the robot's name first, "
                "e.g. 'mybot' or 'mybot/1.0 (+https://example.com/bot)'"
            )
        sitemaps = tuple(self.sitemaps)
        licenses = tuple(self.licenses)
        extensions = self._value_fields
        if mode is RFC9309 and self._low is not None:
            found = scan_rfc9309(self._text, self._low, token, self._group_extras())
            if not found.spans:
                return self._rules((), "", 1, MemberValues(), sitemaps, licenses, fixed=True, reason=REASON_NO_GROUP)
            numbers: LineNumbers
            if len(found.spans) == 1:
                numbers, source = found.spans[0]
            else:
                numbers = line_numbers(
                    [first + offset for first, text in found.spans for offset in range(text.count("\n") + 1)]
                )
                source = "\n".join(text for _, text in found.spans)
            return self._rules(tuple(found.agents), source, numbers, found, sitemaps, licenses)
        lines, groups = self._groups()
        chosen = mode.select(groups, token)
        if not chosen:
            return self._rules((), "", 1, MemberValues(), sitemaps, licenses, fixed=True, reason=REASON_NO_GROUP)
        rows = {**FIELDS, **{row.name: row for row in extensions}} if extensions else FIELDS
        collected = collect([group.members for group in chosen], lines, rows)
        rules = collected.rule_lines
        return self._rules(
            tuple(value for group in chosen for value in group.agents),
            "\n".join(text for _, text in rules),
            line_numbers([number for number, _ in rules]),
            collected,
            sitemaps,
            licenses,
        )

    def _rules(
        self,
        group: tuple[str, ...],
        source: str,
        numbers: LineNumbers,
        members: MemberValues,
        sitemaps: tuple[str, ...],
        licenses: tuple[str, ...],
        fixed: bool | None = None,
        reason: str | None = None,
    ) -> AgentRules:
        """The ``AgentRules`` of the chosen groups: their rules' lines, what their other members say."""
        delays = members.delays
        return AgentRules(
            self._mode.name,
            group,
            source,
            numbers,
            crawl_delay=max(delays) if delays else None,
            sitemaps=sitemaps,
            content_signal_lines=members.lines_of(CONTENT_SIGNAL),
            content_usage_lines=members.lines_of(CONTENT_USAGE),
            licenses=licenses,
            extensions=self._extension_values(members) if self._value_fields else _NO_EXTENSIONS,
            fixed=fixed,
            reason=reason,
        )

    def _group_extras(self) -> tuple[Field, ...]:
        """The group members other than rules to read: the fields', and the per-group extensions."""
        if not self._value_fields:
            return GROUP_EXTRAS
        per_group = tuple(row for row in self._value_fields if row.kept is Kept.VALUES)
        return GROUP_EXTRAS + per_group if per_group else GROUP_EXTRAS

    def _extension_values(self, members: MemberValues) -> Mapping[str, tuple[str, ...]]:
        """The values of each field kept as values: the chosen groups' for a per-group one, else the file's."""
        return MappingProxyType(
            {
                row.name: tuple(members.values.get(row.name, ()))
                if row.kept is Kept.VALUES
                else tuple(self._values_of(row))
                for row in self._value_fields
            }
        )

    def _groups(self) -> tuple[list[str], list[Group]]:
        """The file's lines and all its groups (read once, when first needed)."""
        if self._grouped is None:
            lines, directives = read_directives(self._text, self._mode.lenient)
            members = MEMBER_FIELDS | {row.name for row in self._value_fields if row.member}
            self._grouped = lines, self._mode.group(directives, members)
        return self._grouped

    def __repr__(self) -> str:
        return f"<RobotsTxt {self.matching} groups={len(self._groups()[1])} sitemaps={len(self.sitemaps)}>"
