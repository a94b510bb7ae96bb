"""Read what one agent needs from an ``rfc9309`` file without reading every line.

Only a few lines decide the shape of a file for one agent: its user-agent lines,
whether a rule separates two of them (``groups.group_rfc9309``), and its sitemap
lines. They are found with ``str.find`` on the lower-cased text (C speed): each
line holding a word its field name must contain (``agent``, ``sitemap``...) is
read exactly with ``lines.parse_line``, so the result is the full parse's.
The lines of the chosen groups are then kept as text, to be compiled on the
first decision (``agent_rules``); the lines of other groups are never read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scrapy_robots_rep.core.content_signals import read_signals
from scrapy_robots_rep.core.decision import SourceLine
from scrapy_robots_rep.core.delays import crawl_delay_seconds, request_rate_seconds
from scrapy_robots_rep.core.groups import Group, select_rfc9309
from scrapy_robots_rep.core.lines import (
    BLANK_LINE,
    CONTENT_SIGNAL,
    CRAWL_DELAY,
    REQUEST_RATE,
    SITEMAP,
    USER_AGENT,
    parse_line,
)
from scrapy_robots_rep.core.members import RULE_FIELDS

# A word every spelling of the field's name holds (lenient reading included:
# ``useragent``, ``user agent``, ``dissalow``, ``site-map``...), lower-case.
_AGENT_WORDS = ("agent",)
_SITEMAP_WORDS = ("sitemap", "site-map")
_EXTRA_WORDS = ("crawl-delay", "request-rate", "content-signal")
_RULE_WORDS = ("allow", "alow", "sllow", "allaw")


@dataclass(slots=True)
class AgentSource:
    """The chosen groups of one agent, as found in the file."""

    agents: list[str] = field(default_factory=list)
    """The user-agent values of the chosen groups, in file order."""
    spans: list[tuple[int, str]] = field(default_factory=list)
    """``(number of its first line, text)`` of each chosen group, in file order."""
    delays: list[float] = field(default_factory=list)
    signal_lines: list[SourceLine] = field(default_factory=list)


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


def candidate_lines(low: str, words: tuple[str, ...], start: int, end: int) -> list[tuple[int, int]]:
    """``(start, end)`` of each line within ``[start, end)`` of ``low`` that holds one of ``words``, in order."""
    lines: dict[int, int] = {}
    for word in words:
        found = low.find(word, start, end)
        while found >= 0:
            line_start = low.rfind("\n", 0, found) + 1
            line_end = low.find("\n", found)
            if line_end < 0:
                lines[line_start] = len(low)
                break
            lines[line_start] = line_end
            found = low.find(word, line_end, end)
    return sorted(lines.items()) if len(words) > 1 and len(lines) > 1 else list(lines.items())


def sitemaps(text: str, low: str, lenient: bool) -> list[str]:
    """The file's ``Sitemap:`` values, in order."""
    found = []
    for start, end in candidate_lines(low, _SITEMAP_WORDS, 0, len(low)):
        parsed = parse_line(text[start:end], lenient)
        if parsed is not None and parsed[0] == SITEMAP and parsed[1]:
            found.append(parsed[1])
    return found


def scan_rfc9309(text: str, low: str, token: str) -> AgentSource:
    """The groups ``token`` (an agent token) obeys in ``text`` (``low`` lower-cased)."""
    starts: list[int] = []
    # Where the run of user-agent lines that opens each group ends.
    leads: list[int] = []
    groups: list[Group] = []
    previous_end = -1
    for start, end in candidate_lines(low, _AGENT_WORDS, 0, len(low)):
        if low.find("user", start, end) < 0:
            continue
        parsed = parse_line(text[start:end], True)
        if parsed is None or parsed[0] != USER_AGENT:
            continue
        # A user-agent line right after another one continues its run.
        if previous_end < 0 or (start != previous_end + 1 and _holds_rule(text, low, previous_end, start)):
            starts.append(start)
            leads.append(end)
            groups.append(Group())
        elif start == leads[-1] + 1:
            leads[-1] = end
        groups[-1].agents.append(parsed[1])
        previous_end = end
    source = AgentSource()
    if not groups:
        return source
    chosen = {id(group) for group in select_rfc9309(groups, token)}
    # Chosen groups that follow each other make one span.
    spans: list[list[int]] = []
    for position, group in enumerate(groups):
        if id(group) not in chosen:
            continue
        start = starts[position]
        end = starts[position + 1] if position + 1 < len(starts) else len(text)
        source.agents.extend(group.agents)
        if spans and spans[-1][1] == start:
            spans[-1][1] = end
        else:
            spans.append([start, end, leads[position]])
    numbering = _Numbering(text)
    for start, end, lead in spans:
        # Keep the lines from the one after the opening user-agent lines to the last directive.
        kept_start = min(lead + 1, end)
        first_line = numbering.at(kept_start)
        source.spans.append((first_line, text[kept_start : _last_directive_end(text, kept_start, end)]))
        if any(low.find(word, start, end) >= 0 for word in _EXTRA_WORDS):
            _read_extras(text, low, kept_start, end, numbering, source)
    return source


def _last_directive_end(text: str, start: int, end: int) -> int:
    """The end of the last line within ``[start, end)`` that is a directive (``start`` if none is)."""
    while end > start:
        line_start = max(text.rfind("\n", start, end) + 1, start)
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
            line_end = low.find("\n", found)
            parsed = parse_line(text[line_start : len(low) if line_end < 0 else line_end], True)
            if parsed is not None and parsed[0] in RULE_FIELDS:
                return True
            if line_end < 0:
                break
            found = low.find(word, line_end, end)
    return False


def _read_extras(text: str, low: str, start: int, end: int, numbering: _Numbering, source: AgentSource) -> None:
    """The delays and content signals of the group within ``[start, end)``."""
    for line_start, line_end in candidate_lines(low, _EXTRA_WORDS, start, end):
        line = text[line_start:line_end]
        parsed = parse_line(line, True)
        if parsed is None:
            continue
        name, value = parsed
        if name in (CRAWL_DELAY, REQUEST_RATE):
            delay = crawl_delay_seconds(value) if name == CRAWL_DELAY else request_rate_seconds(value)
            if delay is not None:
                source.delays.append(delay)
        elif name == CONTENT_SIGNAL and read_signals(value):
            source.signal_lines.append(SourceLine(numbering.at(line_start), line))
