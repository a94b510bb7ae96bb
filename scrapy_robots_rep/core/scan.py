"""Read what one agent needs from an ``rfc9309`` file without reading every line.

Only a few lines decide the shape of a file for one agent: its user-agent lines,
whether a rule separates two of them (``groups.group_rfc9309``), and its sitemap
lines. They are found with ``str.find`` on the lower-cased text (C speed): each
line holding a word its field name must contain (``agent``, ``sitemap``...) is
read as ``lines.parse_line`` reads it (a line that starts with the usual
``field:`` spelling by slicing, any other with ``parse_line``), so the result is
the full parse's. The lines of the chosen groups are then kept as text, to be
compiled on the first decision (``agent_rules``); the lines of other groups are
never read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scrapy_robots_rep.core.fields import FIELDS, GROUP_EXTRAS, RULE_FIELDS, RULE_WORDS, USER_AGENT, Field, Kept
from scrapy_robots_rep.core.groups import chosen_rfc9309, global_groups
from scrapy_robots_rep.core.lines import BLANK_LINE, parse_line
from scrapy_robots_rep.core.members import MemberValues

# A word every spelling of the field's name holds (lenient reading included:
# ``useragent``, ``user agent``, ``dissalow``, ``site-map``...), lower-case: ``Field.words``.
_AGENT_WORDS = FIELDS[USER_AGENT].words
_RULE_WORDS = RULE_WORDS
_EXTRA_WORDS = tuple(word for row in GROUP_EXTRAS for word in row.words)
# How rule lines usually start (lower-cased): such a line is a rule line.
_USUAL_RULE_STARTS = tuple(name + ":" for name in sorted(RULE_FIELDS, reverse=True))

FieldLine = tuple[int, int, str]
"""``(start, end, value)`` of a line in the text."""


@dataclass(slots=True, eq=False)
class AgentSource(MemberValues):
    """The chosen groups of one agent, as found in the file, and what their members other than rules say."""

    agents: list[str] = field(default_factory=list)
    """The user-agent values of the chosen groups, in file order."""
    spans: list[tuple[int, str]] = field(default_factory=list)
    """``(number of its first line, text)`` of each chosen group, in file order."""


class _Numbering:
    """Line numbers of offsets asked in increasing order, counted incrementally."""

    __slots__ = ("_line", "_offset", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._offset = 0
        self._line = 1

    def at(self, offset: int) -> int:
        if offset < self._offset:
            self._offset, self._line = 0, 1
        self._line += self._text.count("\n", self._offset, offset)
        self._offset = offset
        return self._line


def lowered(text: str) -> str | None:
    """``text`` lower-cased, or None when that moves characters (a few non-ASCII ones lengthen)."""
    low = text.lower()
    return low if len(low) == len(text) else None


def field_lines(
    text: str, low: str, words: tuple[str, ...], name: str, lenient: bool, start: int, end: int
) -> list[FieldLine]:
    """The lines within ``[start, end)`` of ``text`` whose field is ``name`` (read
    as ``parse_line`` reads them), in order; ``words`` are words every spelling
    of the field's name holds, lower-case, found in ``low``."""
    usual = name + ":"
    after_usual = len(usual)
    size = len(low)
    # Bound methods held in locals: this loop runs once per line found.
    find, rfind, starts_with = low.find, low.rfind, low.startswith
    lines: list[FieldLine] = []
    append = lines.append
    for word in words:
        found = find(word, start, end)
        while found >= 0:
            line_start = rfind("\n", 0, found) + 1
            line_end = find("\n", found)
            if line_end < 0:
                line_end = size
            if starts_with(usual, line_start):
                value = text[line_start + after_usual : line_end]
                comment_at = value.find("#")
                append((line_start, line_end, (value if comment_at < 0 else value[:comment_at]).strip()))
            else:
                parsed = parse_line(text[line_start:line_end], lenient)
                if parsed is not None and parsed[0] == name:
                    append((line_start, line_end, parsed[1]))
            found = find(word, line_end, end)
    # A line holding two of the words was found twice.
    return sorted(set(lines)) if len(words) > 1 else lines


def file_values(text: str, low: str, row: Field, lenient: bool) -> list[str]:
    """The file's non-empty values of the field ``row`` (``Sitemap:``, ``License:``...), in order."""
    return [value for _, _, value in field_lines(text, low, row.words, row.name, lenient, 0, len(low)) if value]


def scan_rfc9309(text: str, low: str, token: str, extras: tuple[Field, ...] = GROUP_EXTRAS) -> AgentSource:
    """The groups ``token`` (an agent token) obeys in ``text`` (``low`` lower-cased); ``extras``
    are the group members other than rules to read (delays, lines, values)."""
    # Per group: where it starts, where the run of user-agent lines that opens it ends, its values.
    starts: list[int] = []
    leads: list[int] = []
    values: list[list[str]] = []
    previous_end = -1
    for start, end, value in field_lines(text, low, _AGENT_WORDS, USER_AGENT, True, 0, len(low)):
        # A user-agent line right after another one continues its run.
        if previous_end < 0 or (start != previous_end + 1 and _holds_rule(text, low, previous_end, start)):
            starts.append(start)
            leads.append(end)
            values.append([value])
        else:
            if start == leads[-1] + 1:
                leads[-1] = end
            values[-1].append(value)
        previous_end = end
    source = AgentSource()
    if not values:
        return source
    # Chosen groups that follow each other make one span.
    spans: list[list[int]] = []
    # A group can name the token only if the text holds it.
    chosen = chosen_rfc9309(values, token) if token.lower() in low else global_groups(values)
    for position in chosen:
        start = starts[position]
        end = starts[position + 1] if position + 1 < len(starts) else len(text)
        source.agents.extend(values[position])
        if spans and spans[-1][1] == start:
            spans[-1][1] = end
        else:
            spans.append([start, end, leads[position]])
    numbering = _Numbering(text)
    words = _EXTRA_WORDS if extras is GROUP_EXTRAS else tuple(word for row in extras for word in row.words)
    for start, end, lead in spans:
        # Keep the lines from the one after the opening user-agent lines to the last directive.
        kept_start = min(lead + 1, end)
        first_line = numbering.at(kept_start)
        source.spans.append((first_line, text[kept_start : _last_directive_end(text, low, kept_start, end)]))
        for word in words:
            if low.find(word, start, end) >= 0:
                _read_extras(text, low, kept_start, end, numbering, source, extras)
                break
    return source


def _last_directive_end(text: str, low: str, start: int, end: int) -> int:
    """The end of the last line within ``[start, end)`` that is a directive (``start`` if none is)."""
    while end > start:
        line_start = max(text.rfind("\n", start, end) + 1, start)
        # An empty line is blank, a line starting as rules usually do is a rule: no need to read either.
        if line_start < end:
            if low.startswith(_USUAL_RULE_STARTS, line_start):
                return end
            parsed = parse_line(text[line_start:end], True)
            if parsed is not None and parsed != BLANK_LINE:
                return end
        end = line_start - 1
    return start


def _holds_rule(text: str, low: str, start: int, end: int) -> bool:
    """Whether a line within ``[start, end)`` is an ``Allow``/``Disallow`` line."""
    for word in _RULE_WORDS:
        found = low.find(word, start, end)
        while found >= 0:
            line_start = low.rfind("\n", 0, found) + 1
            if low.startswith(_USUAL_RULE_STARTS, line_start):
                return True
            line_end = low.find("\n", found)
            parsed = parse_line(text[line_start : len(low) if line_end < 0 else line_end], True)
            if parsed is not None and parsed[0] in RULE_FIELDS:
                return True
            if line_end < 0:
                break
            found = low.find(word, line_end, end)
    return False


def _read_extras(
    text: str, low: str, start: int, end: int, numbering: _Numbering, source: AgentSource, extras: tuple[Field, ...]
) -> None:
    """What the members ``extras`` of the group within ``[start, end)`` say (delays, lines, values)."""
    for row in extras:
        numbered = row.kept is Kept.LINES
        for line_start, line_end, value in field_lines(text, low, row.words, row.name, True, start, end):
            # Only kept lines need their number: counting lines costs a pass over the text.
            source.add(row, numbering.at(line_start) if numbered else 0, value, text[line_start:line_end])
