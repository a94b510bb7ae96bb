"""Compile a group's rules into the compact, ordered form ``AgentRules`` keeps.

Each rule becomes an entry. Entries have a rank, the order they are tried in
(``rfc9309``: longest pattern first, allow first on a tie; ``legacy``: file
order): a decision is the matching entry of lowest rank.

To try few entries per URL, the entries of a group of ``INDEXED_FROM`` or more
are kept in buckets by the second character of their literal start (the one
after the leading ``/``); only one bucket, plus the entries whose literal start
is shorter, are tried for a URL. Entries are stored bucket after bucket, each
bucket in rank order, with the entries tried for every URL first.

Line texts are kept compactly: a text that is one of a few usual spellings of
``Disallow: ``/``Allow: `` followed by the pattern is stored as a one-byte
code; other texts are kept whole, joined by line ends (a line holds none).
Numbers are kept in arrays of the smallest item size that holds them.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from dataclasses import dataclass

from scrapy_robots_rep.core.paths import needs_normalising, normalise_legacy, normalise_rfc9309
from scrapy_robots_rep.core.patterns import CompiledPattern, compile_pattern, pattern_text

RuleRow = tuple[bool, str, int, str]
"""A rule as ``(allow, pattern, line, text)``, the fields of ``Rule``: cheaper
to make than a ``Rule`` for each of a file's rules."""

Entry = tuple[CompiledPattern, bool, int, str, str]
"""``(compiled pattern, allow, line number, line text, pattern as written)``."""

LINE_STARTS = (
    ("Disallow: ", "Allow: "),
    ("disallow: ", "allow: "),
    ("Disallow:", "Allow:"),
    ("disallow:", "allow:"),
    ("DISALLOW: ", "ALLOW: "),
)
TEXT_KEPT = 255
"""The code of an entry whose line text is kept as a string."""
# Per allow (False, True): each line start of ``LINE_STARTS`` to its code.
_LINE_START_CODES = tuple({starts[allow]: code for code, starts in enumerate(LINE_STARTS)} for allow in (False, True))

# Below this many entries, buckets cost more memory than they save time.
INDEXED_FROM = 8


@dataclass(frozen=True, slots=True)
class RuleIndex:
    """Parallel sequences, one item per entry, in storage order."""

    patterns: tuple[CompiledPattern, ...]
    allow_bits: int
    ranks: array
    lines: array
    text_codes: bytes
    texts: str
    bucket_chars: str
    bucket_starts: array
    """Start of each bucket, then the number of entries; entries before the
    first bucket are tried for every URL."""


def build_index(matching: str, rules: Iterable[RuleRow]) -> RuleIndex:
    """Rank, bucket and compact ``rules`` for ``matching``."""
    ranked = _rfc9309_entries(rules) if matching == "rfc9309" else _legacy_entries(rules)
    bucket_chars = []
    bucket_starts = []
    if len(ranked) >= INDEXED_FROM:
        chars = [_bucket_char(entry[0]) for entry in ranked]
        # A stable sort by bucket keeps each bucket in rank order.
        order = sorted(range(len(ranked)), key=chars.__getitem__)
        for position, rank in enumerate(order):
            char = chars[rank]
            if char and (not bucket_chars or bucket_chars[-1] != char):
                bucket_chars.append(char)
                bucket_starts.append(position)
    else:
        order = range(len(ranked))
    bucket_starts.append(len(ranked))
    entries = [ranked[rank] for rank in order]
    text_codes, texts = _compact_texts(entries)
    return RuleIndex(
        patterns=tuple(entry[0] for entry in entries),
        allow_bits=sum(1 << position for position, entry in enumerate(entries) if entry[1]),
        ranks=_smallest_array(list(order)),
        lines=_smallest_array([entry[2] for entry in entries]),
        text_codes=text_codes,
        texts=texts,
        bucket_chars="".join(bucket_chars),
        bucket_starts=_smallest_array(bucket_starts),
    )


def _rfc9309_entries(rules: Iterable[RuleRow]) -> list[Entry]:
    """Longest pattern first and, at equal length, allow first; empty patterns
    are dropped. An allowed ``.../index.htm*`` also allows its directory."""
    rows = [row for row in rules if row[1]]
    # One search over all patterns finds whether any needs normalising
    # (``str`` gives a str back as it is).
    normalise = normalise_rfc9309 if needs_normalising("".join([row[1] for row in rows])) else str
    ranked = []
    for allow, written, line, text in rows:
        pattern = normalise(written)
        # Most patterns are plain prefixes, which compile to themselves.
        compiled = pattern if "*" not in pattern and pattern[-1] != "$" else compile_pattern(pattern)
        # The file position breaks ties, so that entries are never compared.
        ranked.append((-len(pattern), not allow, len(ranked), (compiled, allow, line, text, written)))
        if allow:
            slash_at = pattern.rfind("/")
            if slash_at >= 0 and pattern.startswith("/index.htm", slash_at):
                directory = pattern[: slash_at + 1] + "$"
                entry = (compile_pattern(directory), allow, line, text, written)
                ranked.append((-len(directory), False, len(ranked), entry))
    ranked.sort()
    return [item[3] for item in ranked]


def _legacy_entries(rules: Iterable[RuleRow]) -> list[Entry]:
    """File order; an empty pattern matches everything."""
    return [(normalise_legacy(written), allow, line, text, written) for allow, written, line, text in rules]


def _bucket_char(compiled: CompiledPattern) -> str:
    """The second character of the literal start, or "" when it is shorter."""
    start = compiled if compiled.__class__ is str else compiled[1]
    return start[1:2]


def _smallest_array(numbers: list[int]) -> array:
    """``numbers`` as 2-byte items when they fit, else 4-byte items."""
    return array("H" if max(numbers, default=0) < 1 << 16 else "I", numbers)


def _compact_texts(entries: list[Entry]) -> tuple[bytes, str]:
    """One code per entry (an index into ``LINE_STARTS`` or ``TEXT_KEPT``),
    and the texts kept whole, in entry order, one per line. Only a pattern that
    reads as it was compiled can be rebuilt from a code."""
    codes = bytearray()
    kept = []
    for compiled, allow, _, text, written in entries:
        code = TEXT_KEPT
        if text.endswith(written) and (compiled if compiled.__class__ is str else pattern_text(compiled)) == written:
            code = _LINE_START_CODES[allow].get(text[: len(text) - len(written)], TEXT_KEPT)
        codes.append(code)
        if code == TEXT_KEPT:
            kept.append(text)
    return bytes(codes), "\n".join(kept)
