"""Compile a group's rules into the ordered, bucketed form decisions are made with.

Each rule becomes an entry. Entries have a rank, the order they are tried in
(``rfc9309``: longest pattern first, allow first on a tie; ``legacy``: file
order): a decision is the matching entry of lowest rank.

To try few entries per URL, the entries of a group of ``INDEXED_FROM`` or more
are kept in buckets by the second character of their literal start (the one
after the leading ``/``); only one bucket, plus the entries whose literal start
is shorter, are tried for a URL. Entries are stored bucket after bucket, each
bucket in rank order, with the entries tried for every URL first.

Per bucket, ``RuleIndex.checks`` also holds literal starts of its entries as
tuples, so that ``str.startswith`` (one C call) settles most URLs: a disallow
prefix longer than every allow pattern matches (``rfc9309``), so the URL is
disallowed; no other disallow start matches, so it is allowed; no start of an
allow entry that may decide matches (one shorter than every disallow entry
never does), so it is allowed unless a disallow entry matches. Only URLs that
an allow and a disallow entry may both match try the entries in rank order,
grouped in runs of entries that all allow or all disallow: each run's plain
prefixes are tried in one call, and the first run with a match decides.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from dataclasses import dataclass

from scrapy_robots_rep.core.paths import needs_normalising, normalise_legacy, normalise_rfc9309
from scrapy_robots_rep.core.patterns import CompiledPattern, WildcardPattern, compile_pattern

RuleRow = tuple[bool, str, int]
"""A rule as ``(allow, pattern as written, source index)``; the index says
where its line is in the text the rules were read from."""

Entry = tuple[CompiledPattern, bool, int, int]
"""``(compiled pattern, allow, source index, length)``; the length (of the
normalised pattern) ranks ``rfc9309`` entries, and is 0 in ``legacy``."""

Wildcards = tuple[tuple[str, WildcardPattern], ...]
"""Wildcard patterns, each with its last segment first: a path that does not
hold that segment cannot match (a test cheaper than the match)."""

Run = tuple[bool, tuple[str, ...], Wildcards]
"""``(allow, plain prefixes, wildcard patterns)`` of entries next to each other in rank order."""

Checks = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...], Wildcards, tuple[Run, ...]]
"""``(decisive disallow prefixes, literal starts of the other disallow entries,
literal starts of the allow entries that may decide, plain prefixes and
wildcard patterns of the other disallow entries, runs)``.

A decisive disallow prefix is longer than every allow pattern (``rfc9309``),
so when it matches it decides. Once none matched, an allow entry shorter than
every other disallow entry never decides. The runs hold the other disallow
entries and the allow entries that may decide, in rank order, split where
``allow`` changes: the first run with a matching entry decides."""

# Below this many entries, buckets cost more memory than they save time.
INDEXED_FROM = 8

# Ranks are read only to compare a bucket's entry with those tried everywhere:
# without buckets, storage order is rank order and one shared empty array does.
_NO_RANKS: array[int] = array("H")


@dataclass(frozen=True, slots=True)
class RuleIndex:
    """Parallel sequences, one item per entry, in storage order, and the per-bucket checks."""

    entries: list[Entry]
    patterns: tuple[CompiledPattern, ...]
    allow_bits: int
    ranks: array[int]
    sources: array[int]
    """The source index of each entry's rule."""
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
        patterns=tuple(entry[0] for entry in entries),
        allow_bits=sum(1 << position for position, entry in enumerate(entries) if entry[1]),
        ranks=_smallest_array(list(order)) if bucket_chars else _NO_RANKS,
        sources=_smallest_array([entry[2] for entry in entries]),
        bucket_chars="".join(bucket_chars),
        bucket_starts=_smallest_array(bucket_starts),
        checks={},
    )


def rank_rfc9309(rules: Iterable[RuleRow]) -> list[Entry]:
    """Longest pattern first and, at equal length, allow first; empty patterns
    are dropped. An allowed ``.../index.htm*`` also allows its directory."""
    rows = [row for row in rules if row[1]]
    # One search over all patterns finds whether any needs normalising
    # (``str`` gives a str back as it is).
    normalise = normalise_rfc9309 if needs_normalising("".join([row[1] for row in rows])) else str
    ranked: list[tuple[int, bool, int, Entry]] = []
    for allow, written, source in rows:
        pattern = normalise(written)
        # Most patterns are plain prefixes, which compile to themselves.
        compiled = pattern if "*" not in pattern and pattern[-1] != "$" else compile_pattern(pattern)
        # The file position breaks ties, so that entries are never compared.
        ranked.append((-len(pattern), not allow, len(ranked), (compiled, allow, source, len(pattern))))
        if allow:
            slash_at = pattern.rfind("/")
            if slash_at >= 0 and pattern.startswith("/index.htm", slash_at):
                directory = pattern[: slash_at + 1] + "$"
                entry = (compile_pattern(directory), allow, source, len(directory))
                ranked.append((-len(directory), False, len(ranked), entry))
    ranked.sort()
    return [item[3] for item in ranked]


def rank_legacy(rules: Iterable[RuleRow]) -> list[Entry]:
    """File order; an empty pattern matches everything."""
    return [(normalise_legacy(written), allow, source, 0) for allow, written, source in rules]


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
            allow,
            _shortest_prefixes(entry[0] for entry in run if isinstance(entry[0], str)),
            _wildcards(run),
        )
        for allow, run in runs
    )


def _wildcards(entries: list[Entry]) -> Wildcards:
    """The wildcard patterns of ``entries``, each after its last segment."""
    return tuple((entry[0][-1], entry[0]) for entry in entries if not isinstance(entry[0], str))


def _smallest_array(numbers: list[int]) -> array[int]:
    """``numbers`` as 2-byte items when they fit, else 4-byte items."""
    return array("H" if max(numbers, default=0) < 1 << 16 else "I", numbers)
