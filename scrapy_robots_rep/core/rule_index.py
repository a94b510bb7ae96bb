"""Read a group's rules, and match them: a table for an origin's first
decisions, a compiled index for an origin that keeps being asked.

Each rule becomes an entry. Entries have a rank, the order they are tried in
(``rfc9309``: longest pattern first, allow first on a tie; ``legacy``: file
order): a decision is the matching entry of lowest rank.

A table (``RuleTable``, one per mode) gives the verdict of that entry without
ranking the entries (``LongestMatch`` compares the lengths of the patterns that
match); it is cheap to build. The compiled index costs more to build and less
per decision.

To try few entries per URL, the index keeps the entries of a group of
``INDEXED_FROM`` or more in buckets by the second character of their literal
start (the one after the leading ``/``); only one bucket, plus the entries
whose literal start is shorter, are tried for a URL. Entries are stored bucket
after bucket, each bucket in rank order, with the entries tried for every URL
first.

Per bucket, ``RuleIndex.checks`` also holds literal starts of its entries as
tuples, so that ``str.startswith`` (one C call) settles most URLs: a disallow
prefix longer than every allow pattern matches (``rfc9309``), so the URL is
disallowed; no other disallow start matches, so it is allowed; no start of an
allow entry that may decide matches (one shorter than every disallow entry
never does), so it is allowed unless a disallow entry matches. Only URLs that
an allow and a disallow entry may both match try the entries in rank order,
grouped in runs of entries that all allow or all disallow: each run's plain
prefixes are tried in one call, and the first run with a match decides. Each
outcome is a ``Stage``: the verdict, and the entries the deciding rule is the
first match of.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterable
from typing import NamedTuple

from scrapy_robots_rep.core.fields import ALLOW, FIELDS, RULE_FIELDS, RULE_WORDS
from scrapy_robots_rep.core.lines import parse_line
from scrapy_robots_rep.core.paths import needs_normalising, normalise_legacy, normalise_rfc9309
from scrapy_robots_rep.core.patterns import CompiledPattern, WildcardPattern, compile_pattern, matches_wildcards

RuleRow = tuple[bool, str, int]
"""A rule as ``(allow, pattern as written, source index)``; the index says
where its line is in the text the rules were read from."""

RankKey = tuple[int, bool, int]
"""``(minus the length, not allow, source index)`` of an ``rfc9309`` entry:
its rank (the source index gives the file order)."""

Entry = tuple[CompiledPattern, bool, int, int]
"""``(compiled pattern, allow, source index, length)``; the length (of the
normalised pattern) ranks ``rfc9309`` entries, and is 0 in ``legacy``."""

Stage = tuple[bool, tuple[Entry, ...]]
"""What a matcher finds for a URL: the verdict (allowed), and entries in rank
order that all have that verdict, the first of them that matches the URL being
the deciding rule. None of them matches only when no rule matches (the verdict
is then True): the verdict never depends on which entry is read as the rule."""

NO_MATCH: Stage = (True, ())
"""No rule matches: allowed."""

Wildcards = tuple[tuple[str, WildcardPattern], ...]
"""Wildcard patterns, each with its last segment first: a path that does not
hold that segment cannot match (a test cheaper than the match)."""

Run = tuple[tuple[str, ...], Wildcards, Stage]
"""``(plain prefixes, wildcard patterns, stage)`` of entries next to each other
in rank order that all allow or all disallow: when one of them matches, the
stage decides."""

Checks = tuple[
    tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...], Wildcards, tuple[Run, ...], Stage, Stage
]
"""``(decisive disallow prefixes, literal starts of the other disallow entries,
literal starts of the allow entries that may decide, plain prefixes and
wildcard patterns of the other disallow entries, runs, allow stage, disallow
stage)``.

A decisive disallow prefix is longer than every allow pattern (``rfc9309``),
so when it matches the disallow stage (every disallow entry, in rank order)
decides. Once none matched, an allow entry shorter than every other disallow
entry never decides. The runs hold the other disallow entries and the allow
entries that may decide, in rank order, split where ``allow`` changes: the
first run with a matching entry decides. When no disallow entry can match, the
allow stage (every allow entry) decides."""

# One match per line: a rule line in the usual form gives "dis" or "", "allow" and
# its value (to be stripped); any other line gives its text as the fourth group.
_RULE_LINE = re.compile(r"^(?:[ \t]*(?ai:(dis)?(allow))[ \t]*:[ \t]*([^#\n]*)|([^\n]*))", re.MULTILINE)
# Every spelling of the fields lenient reading accepts holds one of these (lower-case).
_MAY_BE_RULE = re.compile("|".join(map(re.escape, RULE_WORDS))).search
# The words of the misspellings that hold no rule field's name (``disalow``, ``disallaw``...):
# a line holding one of them is not counted among the "allow" lines of the plain form.
_ODD_RULE_WORDS = tuple(
    word
    for word in RULE_WORDS
    if not any(name in word for name in RULE_FIELDS)
    and any(word in misspelling for name in RULE_FIELDS for misspelling in FIELDS[name].misspellings)
)

# Below this many entries, buckets cost more memory than they save time.
INDEXED_FROM = 8

# Ranks are read only to compare a bucket's entry with those tried everywhere:
# without buckets, storage order is rank order and one shared empty array does.
_NO_RANKS: array[int] = array("H")


class RuleIndex(NamedTuple):
    """Entries in storage order, and the per-bucket checks."""

    entries: list[Entry]
    ranks: array[int]
    bucket_chars: str
    bucket_starts: array[int]
    """Start of each bucket, then the number of entries; entries before the
    first bucket are tried for every URL."""
    checks: dict[str, Checks]
    """The checks per second character of a URL path, made on first use
    (``checks_for``): a URL is decided for few of them."""

    def checks_for(self, char: str) -> Checks:
        """The checks of the URL paths whose second character is ``char``."""
        starts = self.bucket_starts
        bucket = self.bucket_chars.find(char) if char else -1
        # The paths of no bucket share one checks: the entries tried for every URL.
        key = char if bucket >= 0 else ""
        checks = self.checks.get(key)
        if checks is None:
            positions = list(range(starts[0]))
            if bucket >= 0:
                positions += range(starts[bucket], starts[bucket + 1])
                positions.sort(key=self.ranks.__getitem__)
            checks = self.checks[key] = _checks([self.entries[position] for position in positions])
        self.checks[char] = checks
        return checks


def first_match(entries: Iterable[Entry], path: str) -> Entry | None:
    """The first of ``entries`` (in rank order) whose pattern matches ``path``:
    the deciding rule among them."""
    for entry in entries:
        pattern = entry[0]
        if isinstance(pattern, str):
            if path.startswith(pattern):
                return entry
        elif pattern[-1] in path and matches_wildcards(pattern, path):
            return entry
    return None


def build_index(ranked: list[Entry]) -> RuleIndex:
    """Bucket entries given in rank order (a mode's ``rank``)."""
    bucket_chars: list[str] = []
    bucket_starts: list[int] = []
    order: list[int] | range
    if len(ranked) >= INDEXED_FROM:
        chars = [_bucket_char(entry[0]) for entry in ranked]
        # A stable sort by bucket keeps each bucket in rank order.
        order = sorted(range(len(ranked)), key=chars.__getitem__)
        for position, rank in enumerate(order):
            char = chars[rank]
            if char and (not bucket_chars or bucket_chars[-1] != char):
                bucket_chars.append(char)
                bucket_starts.append(position)
        entries = [ranked[rank] for rank in order]
    else:
        order = range(len(ranked))
        entries = ranked
    bucket_starts.append(len(ranked))
    return RuleIndex(
        entries=entries,
        ranks=_smallest_array(list(order)) if bucket_chars else _NO_RANKS,
        bucket_chars="".join(bucket_chars),
        bucket_starts=_smallest_array(bucket_starts),
        checks={},
    )


def read_rules(source: str, lenient: bool) -> list[RuleRow]:
    """The ``Allow``/``Disallow`` lines of ``source`` as rows, read as
    ``lines.parse_line`` reads them: a line in the usual ``allow:`` form (any
    case) is sliced by one regular expression, any other line that may be a
    rule (it holds a word every spelling of the fields holds) is given to
    ``parse_line``."""
    rows: list[RuleRow] = []
    append = rows.append
    for source_index, (dis, allow, value, other) in enumerate(_RULE_LINE.findall(source)):
        if allow:
            append((not dis, value.strip(), source_index))
        elif other and _MAY_BE_RULE(other.lower()) is not None:
            parsed = parse_line(other, lenient)
            if parsed is not None and parsed[0] in RULE_FIELDS:
                append((parsed[0] == ALLOW, parsed[1], source_index))
    return rows


def rank_rfc9309(rows: Iterable[RuleRow]) -> list[Entry]:
    """``rfc9309`` entries in rank order: the longest (normalised) pattern first,
    an allow one first on a tie, then file order. An allowed ``.../index.htm*``
    also allows its directory (a second entry, from the same line)."""
    kept = [row for row in rows if row[1]]
    # One search over all patterns finds whether any needs normalising.
    normalise = normalise_rfc9309 if needs_normalising("".join([row[1] for row in kept])) else None
    keyed: list[tuple[RankKey, Entry]] = []
    append = keyed.append
    for allow, written, source in kept:
        pattern = written if normalise is None else normalise(written)
        size = len(pattern)
        append(((-size, not allow, source), (compile_pattern(pattern), allow, source, size)))
        directory = _index_directory(pattern) if allow else None
        if directory is not None:
            size = len(directory)
            append(((-size, False, source), (compile_pattern(directory), allow, source, size)))
    keyed.sort()
    return [entry for _, entry in keyed]


def rank_legacy(rows: Iterable[RuleRow]) -> list[Entry]:
    """``legacy`` entries in rank order: file order, patterns normalised."""
    return [(normalise_legacy(written), allow, source, 0) for allow, written, source in rows]


class LongestMatch:
    """``rfc9309`` rules as a table of verdicts: the longest matching pattern
    decides, an allow one on a tie.

    The table keeps patterns by length, not entries: plain prefixes longest
    first, in tuples of ``CHUNK`` that one ``str.startswith`` tries at once, and
    the patterns with ``*`` or ``$`` compiled, longest first. One
    ``str.startswith`` over the literal starts of the disallow patterns (and a
    substring test per pattern whose literal start is ``/``) settles the paths
    that none can match; for the others, the longest disallow pattern
    that matches is found chunk by chunk, then compared with the allow patterns
    at least as long. Building it reads the rule values with two regular
    expressions when the source is in plain form (``plain_values``), with
    ``read_rules`` otherwise. The entries (``ranked``) are made only when asked:
    to explain a decision, or to compile the origin's index."""

    __slots__ = (
        "_allow",
        "_allow_wildcards",
        "_disallow",
        "_disallow_wildcards",
        "_lasts",
        "_ranked",
        "_source",
        "_starts",
        "asked",
    )

    def __init__(self, source: str, lenient: bool) -> None:
        self.asked = 0
        """Decisions made by this table (``agent_rules``: an origin asked more has its rules compiled)."""
        self._source = source
        self._ranked: list[Entry] | None = None
        values = plain_values(source)
        if values is None:
            rows = read_rules(source, lenient)
            values = [value for allow, value, _ in rows if not allow], [value for allow, value, _ in rows if allow]
        disallow, allow = values
        # Whitespace (to strip) and characters to escape are what normalising finds.
        if needs_normalising("".join(disallow) + "".join(allow)):
            disallow = [normalise_rfc9309(value.strip()) for value in disallow]
            allow = [normalise_rfc9309(value.strip()) for value in allow]
        if "/index.htm" in "".join(allow):
            allow += [directory for directory in map(_index_directory, allow) if directory is not None]
        disallow_plain, self._disallow_wildcards = _by_length(disallow)
        allow_plain, self._allow_wildcards = _by_length(allow)
        self._disallow = _chunks(disallow_plain)
        self._allow = _chunks(allow_plain)
        # What a path that some disallow pattern matches starts with; or, for a pattern whose
        # literal start is "/" (or shorter), holds.
        wildcards = self._disallow_wildcards
        self._starts = (
            *disallow_plain,
            *(start for start in (_literal_start(wildcard[2]) for wildcard in wildcards) if len(start) > 1),
        )
        self._lasts = tuple(wildcard[1] for wildcard in wildcards if len(_literal_start(wildcard[2])) < 2)

    def allows(self, path: str) -> bool:
        """Whether ``path`` (normalised) is allowed: no rule matches, or the longest match allows."""
        if not path.startswith(self._starts):
            for last in self._lasts:
                if last in path:
                    break
            else:
                return True
        longest = -1
        for chunk in self._disallow:
            if path.startswith(chunk):
                for pattern in chunk:
                    if path.startswith(pattern):
                        longest = len(pattern)
                        break
                break
        for size, last, compiled in self._disallow_wildcards:
            if size <= longest:
                break
            if last in path and matches_wildcards(compiled, path):
                longest = size
                break
        if longest < 0:
            return True
        for chunk in self._allow:
            if len(chunk[0]) < longest:
                break
            if path.startswith(chunk):
                for pattern in chunk:
                    if len(pattern) >= longest and path.startswith(pattern):
                        return True
        for size, last, compiled in self._allow_wildcards:
            if size < longest:
                break
            if last in path and matches_wildcards(compiled, path):
                return True
        return False

    def ranked(self) -> list[Entry]:
        """Every entry, in rank order."""
        if self._ranked is None:
            self._ranked = rank_rfc9309(read_rules(self._source, True))
        return self._ranked


class FirstMatch:
    """``legacy`` rules as a table: the first rule in file order whose path is
    a prefix of the URL path decides; an empty path matches every URL.

    The first rule of each path is kept by its text: the rules that match a
    URL path are its first characters, one per length a path has, each looked
    up once; the first in file order of those found decides."""

    __slots__ = ("_entries", "_lengths", "_prefixes", "asked")

    def __init__(self, source: str, lenient: bool) -> None:
        self.asked = 0
        """Decisions made by this table."""
        entries = rank_legacy(read_rules(source, lenient))
        prefixes: dict[CompiledPattern, Entry] = {}
        for entry in entries:
            prefixes.setdefault(entry[0], entry)
        self._entries = entries
        self._prefixes = prefixes
        self._lengths = tuple(sorted(set(map(len, prefixes))))

    def deciding(self, path: str) -> Entry | None:
        """The entry that decides ``path`` (normalised), or None when none matches."""
        found = None
        size = len(path)
        prefixes = self._prefixes
        for length in self._lengths:
            if length > size:
                break
            entry = prefixes.get(path[:length])
            if entry is not None and (found is None or entry[2] < found[2]):
                found = entry
        return found

    def allows(self, path: str) -> bool:
        """Whether ``path`` (normalised) is allowed: no rule matches, or the first that matches allows."""
        entry = self.deciding(path)
        return entry is None or entry[1]

    def ranked(self) -> list[Entry]:
        """Every entry, in rank order (file order)."""
        return self._entries


RuleTable = LongestMatch | FirstMatch
"""A group's rules as a mode reads them: the verdicts of the first decisions, and the ranked entries."""

# The values of rule lines in plain form: "Disallow:" or "disallow:", and (in "\n" + the
# source) "Allow:" or "allow:" at the start of a line. Each starts with a literal, which the
# regular expression engine searches for at C speed.
_DISALLOW_VALUES = re.compile(r"isallow:[ \t]*([^#\n]*)").findall
_ALLOW_VALUES = re.compile(r"\n[Aa]llow:[ \t]*([^#\n]*)").findall


def plain_values(source: str) -> tuple[list[str], list[str]] | None:
    """The disallow and allow values of ``source`` (a group's lines) when it is in
    plain form, else None; a value may end with whitespace, to be stripped.

    Plain form: every rule line starts with ``Disallow:``, ``disallow:``,
    ``Allow:`` or ``allow:`` (no space before), and no other line holds
    ``allow``, nor a word of the misspellings lenient reading accepts that
    do not hold it (``disalow``, ``diasllow``, ``disallaw``...: ``_ODD_RULE_WORDS``).
    Then these lines are the ones ``parse_line`` reads as rules, and the values are theirs."""
    low = source.lower()
    fields = low.count("allow")
    disallow = _DISALLOW_VALUES(source)
    allow = _ALLOW_VALUES("\n" + source)
    if (
        len(disallow) + len(allow) != fields
        or len(disallow) != low.count("\ndisallow:") + low.startswith("disallow:")
        or any(word in low for word in _ODD_RULE_WORDS)
    ):
        return None
    return disallow, allow


SizedWildcard = tuple[int, str, WildcardPattern]
"""A pattern with ``*`` or ``$``: its length (which ranks it), the last
segment a matching path holds (a cheaper test than the match), compiled."""


def _by_length(patterns: list[str]) -> tuple[list[str], list[SizedWildcard]]:
    """Non-empty normalised ``patterns``, longest first: the plain prefixes (once
    each), and the patterns with ``*`` or ``$``.

    A pattern that ends with ``*`` and has no other wildcard compiles to a plain
    prefix but ranks by its whole length: it is kept with the wildcards."""
    if "*" not in "".join(patterns) and "$" not in "".join(patterns):
        plain = [pattern for pattern in set(patterns) if pattern]
        plain.sort(key=len, reverse=True)
        return plain, []
    plain = []
    wildcards: list[SizedWildcard] = []
    for pattern in set(patterns):
        if "*" in pattern or pattern.endswith("$"):
            compiled = compile_pattern(pattern)
            wildcard = (False, compiled) if isinstance(compiled, str) else compiled
            wildcards.append((len(pattern), wildcard[-1], wildcard))
        elif pattern:
            plain.append(pattern)
    plain.sort(key=len, reverse=True)
    wildcards.sort(key=_size, reverse=True)
    return plain, wildcards


def _size(wildcard: SizedWildcard) -> int:
    return wildcard[0]


CHUNK = 8
"""Plain prefixes a table tries in one ``str.startswith``."""


def _chunks(plain: list[str]) -> tuple[tuple[str, ...], ...]:
    """``plain`` in tuples of ``CHUNK``, in order."""
    return tuple(tuple(plain[start : start + CHUNK]) for start in range(0, len(plain), CHUNK))


def _index_directory(pattern: str) -> str | None:
    """The directory an allowed ``.../index.htm*`` pattern also allows, as a pattern (``.../$``)."""
    if "/index.htm" not in pattern:
        return None
    slash_at = pattern.rfind("/")
    return pattern[: slash_at + 1] + "$" if pattern.startswith("/index.htm", slash_at) else None


def _literal_start(compiled: CompiledPattern) -> str:
    """What a URL path must start with to match: the pattern, or its part before the first ``*``."""
    return compiled if isinstance(compiled, str) else compiled[1]


def _bucket_char(compiled: CompiledPattern) -> str:
    """The second character of the literal start, or "" when it is shorter."""
    return _literal_start(compiled)[1:2]


def _checks(entries: list[Entry]) -> Checks:
    """The checks of ``entries``, given in rank order."""
    longest_allow = max((entry[3] for entry in entries if entry[1]), default=0)
    decisive: list[Entry] = []
    # The other entries: checked only once no decisive one matched.
    deciding: list[Entry] = []
    for entry in entries:
        (decisive if _is_decisive(entry, longest_allow) else deciding).append(entry)
    disallowed = [entry for entry in deciding if not entry[1]]
    # Lengths rank rfc9309 entries (they are 0 in legacy): an allow entry
    # shorter than every other disallow entry never decides.
    shortest = min((entry[3] for entry in disallowed), default=0)
    deciding = [entry for entry in deciding if not entry[1] or entry[3] >= shortest]
    return (
        _shortest_prefixes(_literal_start(entry[0]) for entry in decisive),
        _shortest_prefixes(_literal_start(entry[0]) for entry in disallowed),
        _shortest_prefixes(_literal_start(entry[0]) for entry in deciding if entry[1]),
        _shortest_prefixes(entry[0] for entry in disallowed if isinstance(entry[0], str)),
        _wildcards(disallowed),
        _runs(deciding),
        (True, tuple(entry for entry in entries if entry[1])),
        (False, tuple(entry for entry in entries if not entry[1])),
    )


def _shortest_prefixes(prefixes: Iterable[str]) -> tuple[str, ...]:
    """The ``prefixes`` that start with none of the others: a path starts with
    one of ``prefixes`` when it starts with one of these, and ``str.startswith``
    tries fewer (a ``/`` makes every other one redundant)."""
    kept: list[str] = []
    # Sorted, a prefix comes right before the strings that start with it.
    for prefix in sorted(set(prefixes)):
        if not kept or not prefix.startswith(kept[-1]):
            kept.append(prefix)
    return tuple(kept)


def _is_decisive(entry: Entry, longest_allow: int) -> bool:
    """Whether ``entry`` is a disallow prefix longer than every allow pattern."""
    return not entry[1] and isinstance(entry[0], str) and entry[3] > longest_allow


def _runs(entries: list[Entry]) -> tuple[Run, ...]:
    """``entries`` (in rank order) split where ``allow`` changes."""
    runs: list[tuple[bool, list[Entry]]] = []
    for entry in entries:
        if runs and runs[-1][0] == entry[1]:
            runs[-1][1].append(entry)
        else:
            runs.append((entry[1], [entry]))
    return tuple(
        (
            _shortest_prefixes(entry[0] for entry in run if isinstance(entry[0], str)),
            _wildcards(run),
            (allow, tuple(run)),
        )
        for allow, run in runs
    )


def _wildcards(entries: list[Entry]) -> Wildcards:
    """The wildcard patterns of ``entries``, each after its last segment."""
    return tuple((entry[0][-1], entry[0]) for entry in entries if not isinstance(entry[0], str))


def _smallest_array(numbers: list[int]) -> array[int]:
    """``numbers`` as 2-byte items when they fit, else 4-byte items."""
    return array("H" if max(numbers, default=0) < 1 << 16 else "I", numbers)
