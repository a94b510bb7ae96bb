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
code; other texts are kept as strings.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from dataclasses import dataclass

from scrapy_robots_rep.core.decision import Rule
from scrapy_robots_rep.core.paths import normalise_legacy, normalise_rfc9309
from scrapy_robots_rep.core.patterns import CompiledPattern, compile_pattern, pattern_text

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
    texts: tuple[str, ...]
    bucket_chars: str
    bucket_starts: array
    """Start of each bucket, then the number of entries; entries before the
    first bucket are tried for every URL."""


def build_index(matching: str, rules: Iterable[Rule]) -> RuleIndex:
    """Rank, bucket and compact ``rules`` for ``matching``."""
    ranked = _rfc9309_entries(rules) if matching == "rfc9309" else _legacy_entries(rules)
    indexed = len(ranked) >= INDEXED_FROM
    stored = sorted(
        ((_bucket_char(entry[0]) if indexed else "", rank, entry) for rank, entry in enumerate(ranked)),
        key=lambda item: item[:2],
    )
    bucket_chars = []
    bucket_starts = array("I")
    for position, (char, _, _) in enumerate(stored):
        if char and (not bucket_chars or bucket_chars[-1] != char):
            bucket_chars.append(char)
            bucket_starts.append(position)
    bucket_starts.append(len(stored))
    entries = [entry for _, _, entry in stored]
    text_codes, texts = _compact_texts(entries)
    return RuleIndex(
        patterns=tuple(entry[0] for entry in entries),
        allow_bits=sum(1 << position for position, entry in enumerate(entries) if entry[1]),
        ranks=array("I", (rank for _, rank, _ in stored)),
        lines=array("I", (entry[2] for entry in entries)),
        text_codes=text_codes,
        texts=texts,
        bucket_chars="".join(bucket_chars),
        bucket_starts=bucket_starts,
    )


def _rfc9309_entries(rules: Iterable[Rule]) -> list[Entry]:
    """Longest pattern first and, at equal length, allow first; empty patterns
    are dropped. An allowed ``.../index.htm*`` also allows its directory."""
    ranked = []
    for rule in rules:
        if not rule.pattern:
            continue
        pattern = normalise_rfc9309(rule.pattern)
        ranked.append((len(pattern), rule.allow, compile_pattern(pattern), rule))
        if rule.allow:
            slash_at = pattern.rfind("/")
            if slash_at >= 0 and pattern.startswith("/index.htm", slash_at):
                directory = pattern[: slash_at + 1] + "$"
                ranked.append((len(directory), True, compile_pattern(directory), rule))
    ranked.sort(key=lambda entry: (-entry[0], not entry[1]))
    return [(compiled, rule.allow, rule.line, rule.text, rule.pattern) for _, _, compiled, rule in ranked]


def _legacy_entries(rules: Iterable[Rule]) -> list[Entry]:
    """File order; an empty pattern matches everything."""
    return [(normalise_legacy(rule.pattern), rule.allow, rule.line, rule.text, rule.pattern) for rule in rules]


def _bucket_char(compiled: CompiledPattern) -> str:
    """The second character of the literal start, or "" when it is shorter."""
    start = compiled if compiled.__class__ is str else compiled[1]
    return start[1:2]


def _compact_texts(entries: list[Entry]) -> tuple[bytes, tuple[str, ...]]:
    """One code per entry (an index into ``LINE_STARTS`` or ``TEXT_KEPT``),
    and the texts kept as strings, in entry order."""
    codes = bytearray()
    kept = []
    for compiled, allow, _, text, written in entries:
        code = _line_start_code(compiled, allow, text, written)
        codes.append(code)
        if code == TEXT_KEPT:
            kept.append(text)
    return bytes(codes), tuple(kept)


def _line_start_code(compiled: CompiledPattern, allow: bool, text: str, written: str) -> int:
    if pattern_text(compiled) == written:
        for code, starts in enumerate(LINE_STARTS):
            start = starts[allow]
            if len(text) == len(start) + len(written) and text.startswith(start) and text.endswith(written):
                return code
    return TEXT_KEPT
