"""Decisions agree with a direct reading of the matching rules, whatever the rule set."""

from __future__ import annotations

import re
import string
from urllib.parse import unquote_to_bytes

from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_robots_rep.core import RobotsTxt

ESCAPED = ["%61", "%2f", "%2F", "%7e", "~", "%", "\u00e9", "%c3%a9", "%C3%A9", "%3c", "<"]
"""Text that normalisation changes, or that equals such text once normalised."""
PATTERN = st.lists(st.sampled_from(["/", "a", "b", "ab", "*", "$", "index.html", "?", *ESCAPED]), max_size=6).map(
    "".join
)
PATH = st.lists(st.sampled_from(["/", "a", "b", "ab", "index.html", "?", "$", "*", *ESCAPED]), max_size=8).map(
    lambda parts: "/" + "".join(parts)
)
RULES = st.lists(st.tuples(st.booleans(), PATTERN), max_size=30)


UNRESERVED = frozenset(string.ascii_letters + string.digits + "-._~")
URI_CHARACTERS = UNRESERVED | frozenset(":/?#[]@!$&'()*+,;=")
"""RFC 3986's unreserved and reserved characters: what a URI holds as it is."""


def rfc9309_normalised(text: str) -> str:
    """RFC 9309 section 2.2.2, read character by character: characters a URI cannot hold become
    escapes of their UTF-8 octets (a lone ``%`` too), escapes of unreserved characters are decoded,
    the hex digits of other escapes are upper-cased."""
    out = []
    index = 0
    while index < len(text):
        char = text[index]
        escape = text[index + 1 : index + 3]
        if char == "%" and len(escape) == 2 and all(digit in string.hexdigits for digit in escape):
            decoded = chr(int(escape, 16))
            out.append(decoded if decoded in UNRESERVED else "%" + escape.upper())
            index += 3
            continue
        out.append(char if char in URI_CHARACTERS else "".join(f"%{octet:02X}" for octet in char.encode()))
        index += 1
    return "".join(out)


def legacy_normalised(text: str) -> bytes:
    """The 1996 draft: the octets of the path, every escape decoded except ``%2F``."""
    return b"%2F".join(unquote_to_bytes(part) for part in re.split("%2[fF]", text))


def matches_by_positions(pattern: str, path: str) -> bool:
    """Pattern matching by the set of reachable path positions (no shortcuts)."""
    anchored = pattern.endswith("$")
    body = pattern[:-1] if anchored else pattern
    positions = {0}
    for char in body:
        if char == "*":
            positions = set(range(min(positions), len(path) + 1)) if positions else set()
        else:
            positions = {position + 1 for position in positions if position < len(path) and path[position] == char}
        if not positions:
            return False
    return len(path) in positions if anchored else True


def rfc9309_reference(rules: list[tuple[bool, str]], path: str) -> bool:
    path = rfc9309_normalised(path)
    if path == "/robots.txt":
        return True
    best = None
    for allow, written in rules:
        if not written:
            continue
        pattern = rfc9309_normalised(written)
        candidates = [pattern]
        slash_at = pattern.rfind("/")
        if allow and slash_at >= 0 and pattern.startswith("/index.htm", slash_at):
            candidates.append(pattern[: slash_at + 1] + "$")
        for candidate in candidates:
            if matches_by_positions(candidate, path):
                key = (len(candidate), allow)
                best = key if best is None or key > best else best
    return best is None or best[1]


def legacy_reference(rules: list[tuple[bool, str]], path: str) -> bool:
    path = legacy_normalised(path)
    for allow, written in rules:
        if path.startswith(legacy_normalised(written)):
            return allow
    return True


def body_of(rules: list[tuple[bool, str]]) -> str:
    lines = [f"{'Allow' if allow else 'Disallow'}: {pattern}" for allow, pattern in rules]
    return "User-agent: *\n" + "\n".join(lines) + "\n"


@settings(max_examples=300, deadline=None)
@given(RULES, st.lists(PATH, min_size=1, max_size=5))
def test_rfc9309_is_the_longest_match_allow_on_ties(rules, paths):
    compiled = RobotsTxt.parse(body_of(rules)).for_agent("mybot")
    for path in paths:
        assert compiled.allowed("https://a.com" + path) is rfc9309_reference(rules, path), path


@settings(max_examples=300, deadline=None)
@given(RULES, st.lists(PATH, min_size=1, max_size=5))
def test_legacy_is_the_first_prefix_in_file_order(rules, paths):
    compiled = RobotsTxt.parse(body_of(rules), "legacy").for_agent("mybot")
    for path in paths:
        assert compiled.allowed("https://a.com" + path) is legacy_reference(rules, path), path


FILLER = [(False, f"/x{number}") for number in range(10)]


def test_long_wildcard_tried_for_every_url_beats_a_shorter_indexed_prefix():
    rules = [*FILLER, (True, "/a"), (False, "/*ab"), (True, "/*1b$")]
    compiled = RobotsTxt.parse(body_of(rules)).for_agent("mybot")
    for path, expected in (("/ab", False), ("/a", True), ("/ab/b", False), ("/x1b", True), ("/x1", False)):
        assert compiled.allowed("https://a.com" + path) is expected is rfc9309_reference(rules, path), path


def test_long_indexed_prefix_beats_a_shorter_wildcard_tried_for_every_url():
    rules = [*FILLER, (True, "/abc/def"), (False, "/*c")]
    compiled = RobotsTxt.parse(body_of(rules)).for_agent("mybot")
    assert compiled.allowed("https://a.com/abc/def")
    assert not compiled.allowed("https://a.com/abc/de")


def test_legacy_first_rule_for_every_url_beats_a_later_indexed_prefix():
    rules = [*FILLER, (True, ""), (False, "/a")]
    compiled = RobotsTxt.parse(body_of(rules), "legacy").for_agent("mybot")
    assert compiled.allowed("https://a.com/a")
    assert not compiled.allowed("https://a.com/x3")
