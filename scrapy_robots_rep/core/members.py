"""What the member lines of an agent's groups say, gathered by the kind of field (``fields.Kept``).

Grouping keeps the lines whose field is a group member (``fields.MEMBER_FIELDS``,
and the per-group extension fields a caller declared); compiling an agent's groups
hands each kept line, in file order, to ``MemberValues.add`` (the full parse) or
reads them from the text (``scan``, which adds the lines it finds the same way).
A field is added as a row of ``fields.FIELDS``: its ``kept`` says what happens here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from scrapy_robots_rep.core.fields import FIELDS, RULE_FIELDS, Field, Kept
from scrapy_robots_rep.core.lines import Directive

if TYPE_CHECKING:
    from scrapy_robots_rep.core.decision import SourceLine


@dataclass(slots=True, eq=False)
class MemberValues:
    """What the member lines other than rules say: delays, lines and values per field."""

    delays: list[float] = field(default_factory=list)
    lines: dict[str, list[SourceLine]] = field(default_factory=dict)
    """``Kept.LINES`` fields: their lines, per field, in file order."""
    values: dict[str, list[str]] = field(default_factory=dict)
    """``Kept.VALUES`` fields: their non-empty values, per field, in file order."""

    def add(self, row: Field, number: int, value: str, text: str) -> None:
        """Keep what line ``number`` (``text``, whose value is ``value``) of field ``row`` says."""
        read = row.read(value)
        if read is None:
            return
        kept = row.kept
        if kept is Kept.DELAY:
            self.delays.append(cast(float, read))
        elif kept is Kept.LINES:
            from scrapy_robots_rep.core.decision import SourceLine

            self.lines.setdefault(row.name, []).append(SourceLine(number, text))
        elif value:
            self.values.setdefault(row.name, []).append(value)

    def lines_of(self, name: str) -> tuple[SourceLine, ...]:
        """The kept lines of the field ``name``, in file order."""
        return tuple(self.lines.get(name, ()))


@dataclass(slots=True, eq=False)
class Collected(MemberValues):
    """What an agent's member lines say, gathered in file order."""

    rule_lines: list[tuple[int, str]] = field(default_factory=list)
    """``(line number, line text)`` of each ``Allow``/``Disallow`` line: the rule is read again from its text."""


def collect(
    groups_members: Iterable[list[Directive]], lines: list[str], rows: Mapping[str, Field] = FIELDS
) -> Collected:
    """Hand each member line of the chosen groups (their ``members``, in order)
    to what its field keeps; ``lines`` are the file's lines, ``rows`` the fields by name."""
    collected = Collected()
    for members in groups_members:
        for number, name, value in members:
            text = lines[number - 1]
            if name in RULE_FIELDS:
                collected.rule_lines.append((number, text))
            else:
                collected.add(rows[name], number, value, text)
    return collected
