"""Lint a robots.txt: what its author should fix, each with its line number (docs/behaviour.md §11).

The file is read with the parser's own line reader, grouping and rule ranking
in the chosen matching mode, so a warning describes what matching really does
with the line: a misspelt field that is read anyway, a field that is ignored,
a rule no group owns, a rule that can never decide.

"Can never decide" is reported only when it is provable: a rule is shadowed
when an entry tried before it (the mode's rank order: longest first in
``rfc9309``, file order in ``legacy``) matches every URL path it matches.
Groups are checked one at a time; merging groups only adds entries, so a rule
shadowed in its own group stays shadowed in any merge.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from scrapy_robots_rep.core.fields import (
    ALLOW,
    FIELDS,
    KNOWN_FIELDS,
    MEMBER_FIELDS,
    RULE_FIELDS,
    USER_AGENT,
    extension_rows,
)
from scrapy_robots_rep.core.file_shape import HTML, HTML_LOOKS_AT, USUAL_FIELD_LINE
from scrapy_robots_rep.core.groups import Group
from scrapy_robots_rep.core.lines import Directive, canonical_field, decode, parse_line, read_directives
from scrapy_robots_rep.core.modes import MatchingMode, matching_mode
from scrapy_robots_rep.core.patterns import CompiledPattern, matches_wildcards
from scrapy_robots_rep.core.robots import DEFAULT_MAX_SIZE

if TYPE_CHECKING:
    from scrapy_robots_rep.core.decision import SourceLine
    from scrapy_robots_rep.core.extension_field import ExtensionField

Entry = tuple[CompiledPattern, bool, int, str, str]
"""A ranked rule as lint reads it: ``(compiled pattern, allow, line number, line text, pattern as written)``."""

# How the known fields are usually written, for messages and spelling hints.
_WRITTEN = {name: row.written for name, row in FIELDS.items()}
# Fields other crawlers define; this parser (like Google's) ignores them.
_FOREIGN_FIELDS = {
    "host": "a Yandex extension",
    "clean-param": "a Yandex extension",
    "noindex": "never standard, and ignored by Google since 2019",
    "visit-time": "a proposed extension few crawlers read",
}
# Stands for a pattern's "*" when asking whether another pattern covers it:
# normalised rfc9309 patterns percent-encode control characters, so it never occurs in one.
_ANY_RUN = "\x00"


class LintKind(Enum):
    """The kinds of lint warning; the values are what the command line prints."""

    NOT_ROBOTS_TXT = "not-robots-txt"
    TOO_LARGE = "too-large"
    NOT_A_DIRECTIVE = "not-a-directive"
    MISSPELT_FIELD = "misspelt-field"
    MISSING_COLON = "missing-colon"
    UNKNOWN_FIELD = "unknown-field"
    OUTSIDE_GROUP = "outside-group"
    BAD_AGENT = "bad-agent"
    BAD_SITEMAP = "bad-sitemap"
    BAD_LICENSE = "bad-license"
    BAD_VALUE = "bad-value"
    NEVER_MATCHES = "never-matches"
    SHADOWED = "shadowed"


@dataclass(frozen=True, slots=True)
class LintWarning:
    """One thing to fix: its line (None for the whole file), kind and explanation."""

    line: int | None
    kind: LintKind
    message: str


def lint(
    body: bytes | str,
    matching: str = "rfc9309",
    *,
    max_size: int = DEFAULT_MAX_SIZE,
    extensions: Iterable[ExtensionField | str] = (),
) -> list[LintWarning]:
    """Every warning for ``body`` read in ``matching`` mode, by line number (file-wide ones first).

    ``extensions`` are the fields declared as ``RobotsTxt.parse`` takes them: read, so not unknown."""
    mode = matching_mode(matching)
    declared = frozenset(row.name for row in extension_rows(extensions))
    warnings, lines, directives = _file_warnings(body, mode, max_size)
    if any(warning.kind is LintKind.NOT_ROBOTS_TXT for warning in warnings):
        return warnings
    warnings.extend(_line_warnings(lines, mode, declared))
    warnings.extend(_value_warnings(directives))
    groups = numbered_groups(mode, directives)
    warnings.extend(_outside_group_warnings(directives, groups, mode))
    for group, _ in groups:
        warnings.extend(_rule_warnings(group, lines, mode))
    return sorted(warnings, key=lambda warning: -1 if warning.line is None else warning.line)


def file_warnings(
    body: bytes | str, matching: str = "rfc9309", *, max_size: int = DEFAULT_MAX_SIZE
) -> list[LintWarning]:
    """The warnings about the file as a whole: larger than ``max_size`` (``too-large``), or not a
    robots.txt at all, such as an HTML page (``not-robots-txt``). What a crawl warns about, for
    every robots.txt it fetches: the lines are read only when no line is a field as usually written."""
    mode = matching_mode(matching)
    warnings = _size_warnings(body, max_size)
    text = decode(body, max_size)
    not_robots = _not_robots_txt(text, lambda: read_directives(text, mode.lenient)[1])
    if not_robots is not None:
        warnings.append(LintWarning(None, LintKind.NOT_ROBOTS_TXT, not_robots))
    return warnings


def _file_warnings(
    body: bytes | str, mode: MatchingMode, max_size: int
) -> tuple[list[LintWarning], list[str], list[Directive]]:
    """The file-wide warnings, and the lines and directives read on the way (for the line warnings)."""
    warnings = _size_warnings(body, max_size)
    text = decode(body, max_size)
    lines, directives = read_directives(text, mode.lenient)
    not_robots = _not_robots_txt(text, lambda: directives)
    if not_robots is not None:
        warnings.append(LintWarning(None, LintKind.NOT_ROBOTS_TXT, not_robots))
    return warnings, lines, directives


def _size_warnings(body: bytes | str, max_size: int) -> list[LintWarning]:
    size = len(body.encode("utf-8", "surrogatepass")) if isinstance(body, str) else len(body)
    if size > max_size:
        return [LintWarning(None, LintKind.TOO_LARGE, f"the file has {size} bytes; only the first {max_size} are read")]
    return []


def agent_lines(
    body: bytes | str, matching: str, agent: str, *, max_size: int = DEFAULT_MAX_SIZE
) -> tuple[SourceLine, ...]:
    """The user-agent lines of the groups ``agent`` obeys in ``matching`` mode, in file order
    (their text without a comment).

    What a decision's group is made of, with line numbers, so that merged groups
    can be shown as their lines rather than as repeated values.
    """
    lines, chosen = _obeyed_groups(body, matching, agent, max_size)
    return _source_lines(lines, (number for _, numbered in chosen for number in numbered))


def obeyed_lines(
    body: bytes | str, matching: str, agent: str, *, max_size: int = DEFAULT_MAX_SIZE
) -> tuple[SourceLine, ...]:
    """Every line of the groups ``agent`` obeys in ``matching`` mode, in file order: the user-agent
    lines and the members (rules, delays, signals), each without its comment."""
    lines, chosen = _obeyed_groups(body, matching, agent, max_size)
    members = (member[0] for group, _ in chosen for member in group.members)
    return _source_lines(lines, (*(number for _, numbered in chosen for number in numbered), *members))


def _obeyed_groups(
    body: bytes | str, matching: str, agent: str, max_size: int
) -> tuple[list[str], list[tuple[Group, tuple[int, ...]]]]:
    """The file's lines, and the groups ``agent`` obeys with the numbers of their user-agent lines."""
    mode = matching_mode(matching)
    lines, directives = read_directives(decode(body, max_size), mode.lenient)
    groups = numbered_groups(mode, directives)
    chosen = {id(group) for group in mode.select([group for group, _ in groups], mode.agent_token(agent))}
    return lines, [(group, numbered) for group, numbered in groups if id(group) in chosen]


def _source_lines(lines: list[str], numbers: Iterable[int]) -> tuple[SourceLine, ...]:
    from scrapy_robots_rep.core.decision import SourceLine

    return tuple(SourceLine(number, lines[number - 1].split("#", 1)[0].strip()) for number in sorted(set(numbers)))


def numbered_groups(mode: MatchingMode, directives: list[Directive]) -> list[tuple[Group, tuple[int, ...]]]:
    """The mode's groups, each with the line numbers of its user-agent lines.

    Grouping never reads a user-agent value, so grouping the directives with each
    value replaced by its line number gives every group's user-agent lines.
    """
    values = {number: value for number, field, value in directives if field == USER_AGENT}
    numbered = [
        (number, field, str(number)) if field == USER_AGENT else (number, field, value)
        for number, field, value in directives
    ]
    result = []
    for group in mode.group(numbered, MEMBER_FIELDS):
        numbers = tuple(int(agent) for agent in group.agents)
        result.append((Group([values[number] for number in numbers], group.members), numbers))
    return result


def _not_robots_txt(text: str, directives: Callable[[], Sequence[Directive]]) -> str | None:
    """Why the body is not a robots.txt at all (an HTML page, prose, data), or None; ``directives``
    gives the text's directives, asked for only when no line is a known field as usually written."""
    if HTML.search(text, 0, HTML_LOOKS_AT):
        return "this is an HTML page, not a robots.txt: only rules on lines of their own are read (usually none)"
    if USUAL_FIELD_LINE.search(text) or any(field in KNOWN_FIELDS for _, field, _ in directives()):
        return None
    if any(line.split("#", 1)[0].strip() for line in text.split("\n")):
        return "no line of this file is a robots.txt field (User-agent, Allow, Disallow, Sitemap...)"
    return None


def _line_warnings(lines: list[str], mode: MatchingMode, declared: frozenset[str]) -> Iterable[LintWarning]:
    """Lines ignored or read only leniently: not directives, misspelt or unknown fields (neither known
    nor ``declared`` extension fields)."""
    for number, line in enumerate(lines, 1):
        content = line.split("#", 1)[0].strip()
        if not content:
            continue
        parsed = parse_line(line, mode.lenient)
        if parsed is None:
            hint = ""
            if not mode.lenient and parse_line(line, True) is not None:
                hint = " (it has no ':'; lenient rfc9309 matching would read it)"
            yield LintWarning(number, LintKind.NOT_A_DIRECTIVE, f"not a 'field: value' line, ignored{hint}")
            continue
        field = parsed[0]
        key = _written_key(content)
        if field in declared:
            continue
        if field not in KNOWN_FIELDS:
            yield LintWarning(number, LintKind.UNKNOWN_FIELD, _unknown_field_message(key, mode))
        elif key.lower() != field:
            yield LintWarning(
                number,
                LintKind.MISSPELT_FIELD,
                f"{key!r} is a misspelling of {_WRITTEN[field]!r}: read as {_WRITTEN[field]!r} in {mode.name} "
                f"matching (as Google does), ignored by strict parsers: write {_WRITTEN[field]!r}",
            )
        elif ":" not in content:
            yield LintWarning(
                number,
                LintKind.MISSING_COLON,
                f"no ':' after {key!r}: read anyway in {mode.name} matching, ignored by strict parsers",
            )


def _written_key(content: str) -> str:
    """The field name as written on a line (comment already removed)."""
    if ":" in content:
        return content.split(":", 1)[0].strip()
    return content.split()[0]


def _unknown_field_message(key: str, mode: MatchingMode) -> str:
    lower = key.lower()
    if lower in _FOREIGN_FIELDS:
        return f"{key!r} is not a field this parser reads ({_FOREIGN_FIELDS[lower]}): the line is ignored"
    if lower in ("http", "https"):
        return "a bare URL is not a field: the line is ignored (write 'Sitemap: <url>' for a sitemap)"
    lenient = canonical_field(key, True)
    if lenient in KNOWN_FIELDS:
        return (
            f"unknown field {key!r}, ignored in {mode.name} matching "
            f"(rfc9309 matching reads it as {_WRITTEN[lenient]!r}): write {_WRITTEN[lenient]!r}"
        )
    message = f"unknown field {key!r}: the line is ignored"
    import difflib  # only for an unknown field: a crawl's file-wide check never loads it

    close = difflib.get_close_matches(lower, list(_WRITTEN), n=1, cutoff=0.75)
    if close:
        message += f"; did you mean {_WRITTEN[close[0]]!r}?"
        if close[0] == USER_AGENT:
            message += " (the rules after it belong to the group before it, if any)"
    return message


def _value_warnings(directives: Iterable[Directive]) -> Iterable[LintWarning]:
    """Values that are read as nothing, or not as their author meant: each field's ``problem``."""
    for number, field, value in directives:
        row = FIELDS.get(field)
        if row is None:
            continue
        problem = row.value_problem(value)
        if problem is not None:
            yield LintWarning(number, LintKind(row.bad_kind), problem)


def _outside_group_warnings(
    directives: Iterable[Directive], groups: Sequence[tuple[Group, tuple[int, ...]]], mode: MatchingMode
) -> Iterable[LintWarning]:
    """Group members (rules, delays, signals) that no group owns, so they are ignored."""
    owned = {member[0] for group, _ in groups for member in group.members}
    seen_agent = False
    for number, field, _ in directives:
        seen_agent = seen_agent or field == USER_AGENT
        if field not in MEMBER_FIELDS or number in owned:
            continue
        written = _WRITTEN[field]
        if not seen_agent:
            message = f"{written} before any User-agent line: ignored"
        else:
            message = (
                f"{written} is in no record: in {mode.name} matching a blank line ends a record, "
                "so this line has no User-agent line: ignored"
            )
        yield LintWarning(number, LintKind.OUTSIDE_GROUP, message)


def _rule_warnings(group: Group, lines: list[str], mode: MatchingMode) -> Iterable[LintWarning]:
    """Rules of one group that match nothing or can never decide."""
    members = [member for member in group.members if member[1] in RULE_FIELDS]
    rows = [(field == ALLOW, value, index) for index, (_, field, value) in enumerate(members)]
    ranked: list[Entry] = []
    for compiled, allow, index, _ in mode.rank(rows):
        number, _, written = members[index]
        ranked.append((compiled, allow, number, lines[number - 1].strip(), written))
    entries = [entry for entry in ranked if _matches_some_path(entry[0])]
    never = sorted({entry[2]: entry for entry in ranked if not _matches_some_path(entry[0])}.items())
    for number, entry in never:
        yield LintWarning(
            number,
            LintKind.NEVER_MATCHES,
            f"{entry[3]!r} matches no URL: a URL path starts with '/' and this pattern does not"
            + (" (write the path, not the whole URL)" if "://" in entry[4] else ""),
        )
    for number, (entry, shadower) in sorted(_shadowed(entries).items()):
        yield LintWarning(number, LintKind.SHADOWED, _shadowed_message(entry, shadower, mode))


def _shadowed_message(entry: Entry, shadower: Entry, mode: MatchingMode) -> str:
    if entry[1] == shadower[1] and mode.normalise(entry[4]) == mode.normalise(shadower[4]):
        return f"{entry[3]!r} repeats line {shadower[2]} ({shadower[3]!r}): only the first copy can decide"
    if mode.name == "rfc9309":
        own, other = len(mode.normalise(entry[4])), len(mode.normalise(shadower[4]))
        if other > own:
            why = "its pattern is longer"
        elif shadower[1] and not entry[1]:
            why = "allow wins a tie in length"
        else:
            why = "it is the same length and comes first"
    else:
        why = "it comes first"
    return (
        f"{entry[3]!r} can never decide: {shadower[3]!r} (line {shadower[2]}) matches every URL it matches "
        f"and is tried before it in {mode.name} matching ({why})"
    )


def _literal_start(compiled: CompiledPattern) -> str:
    return compiled if isinstance(compiled, str) else str(compiled[1])


def _matches_some_path(compiled: CompiledPattern) -> bool:
    """False for a pattern whose literal start is not ``/``: URL paths all start with ``/``."""
    start = _literal_start(compiled)
    return not start or start.startswith("/")


def _shadowed(entries: list[Entry]) -> dict[int, tuple[Entry, Entry]]:
    """Rules (by line) all of whose entries are covered by an entry tried before them.

    ``entries`` are in the order they are tried. Each maps to the first entry
    that covers it; a rule with several entries (an allowed ``index.htm`` also
    allows its directory) counts only when every one of them is covered.
    """
    by_start: dict[str, list[Entry]] = {}
    start_lengths: set[int] = set()
    covered: dict[int, list[tuple[Entry, Entry | None]]] = {}
    for entry in entries:
        compiled = entry[0]
        start = _literal_start(compiled)
        shadower = None
        for length in sorted(start_lengths):
            if length > len(start):
                break
            for candidate in by_start.get(start[:length], ()):
                if _covers(candidate[0], compiled):
                    shadower = candidate
                    break
            if shadower is not None:
                break
        covered.setdefault(entry[2], []).append((entry, shadower))
        by_start.setdefault(start, []).append(entry)
        start_lengths.add(len(start))
    result = {}
    for number, pairs in covered.items():
        if all(shadower is not None for _, shadower in pairs):
            entry, shadower = pairs[0]
            assert shadower is not None
            result[number] = (entry, shadower)
    return result


def _covers(outer: CompiledPattern, inner: CompiledPattern) -> bool:
    """True when every path ``inner`` matches is matched by ``outer`` (a sufficient test).

    ``inner`` is written out with a stand-in character for each run ``*`` (and
    the open end) matches; ``outer`` covers it when it matches that text with the
    stand-ins only inside its own ``*`` runs, as its literals never contain one.
    """
    if isinstance(outer, str):
        return _literal_start(inner).startswith(outer)
    if isinstance(inner, str):
        text = inner + _ANY_RUN
    else:
        anchored, *pieces = inner
        text = _ANY_RUN.join(str(piece) for piece in pieces) + ("" if anchored else _ANY_RUN)
    return matches_wildcards(outer, text)
