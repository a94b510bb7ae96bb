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
disallowed; no other disallow start matches, so it is allowed; no allow start
matches, so it is allowed unless a disallow entry matches. Only URLs that an
allow and a disallow entry may both match need the ranked entries.
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

Checks = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[WildcardPattern, ...]]
"""``(decisive disallow prefixes, literal starts of the other disallow entries,
literal starts of allow entries, plain prefixes of the other disallow entries,
wildcard patterns of the other disallow entries)``. A decisive prefix is longer
than every allow pattern (``rfc9309``), so when it matches it decides."""

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
        entries = self.entries[: starts[0]]
        if bucket >= 0:
            entries = entries + self.entries[starts[bucket] : starts[bucket + 1]]
        checks = self.checks[char] = _checks(entries)
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
    longest_allow = max((entry[3] for entry in entries if entry[1]), default=0)
    decisive: list[Entry] = []
    # The other disallow entries: checked only once no decisive one matched.
    disallowed: list[Entry] = []
    for entry in entries:
        if not entry[1]:
            is_decisive = isinstance(entry[0], str) and entry[3] > longest_allow
            (decisive if is_decisive else disallowed).append(entry)
    return (
        tuple(_literal_start(entry[0]) for entry in decisive),
        tuple(_literal_start(entry[0]) for entry in disallowed),
        tuple(_literal_start(entry[0]) for entry in entries if entry[1]),
        tuple(entry[0] for entry in disallowed if isinstance(entry[0], str)),
        tuple(entry[0] for entry in disallowed if not isinstance(entry[0], str)),
    )


def _smallest_array(numbers: list[int]) -> array[int]:
    """``numbers`` as 2-byte items when they fit, else 4-byte items."""
    return array("H" if max(numbers, default=0) < 1 << 16 else "I", numbers)
