"""Decisions agree with a direct reading of the matching rules, whatever the rule set."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_robots_rep.core import RobotsTxt
from scrapy_robots_rep.core.paths import normalise_legacy, normalise_rfc9309

PATTERN = st.lists(st.sampled_from(["/", "a", "b", "ab", "*", "$", "%61", "%2f", "index.html", "?"]), max_size=6).map(
    "".join
)
PATH = st.lists(st.sampled_from(["/", "a", "b", "ab", "%61", "%2F", "index.html", "?", "$", "*"]), max_size=8).map(
    lambda parts: "/" + "".join(parts)
)
RULES = st.lists(st.tuples(st.booleans(), PATTERN), max_size=30)


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
    path = normalise_rfc9309(path)
    if path == "/robots.txt":
        return True
    best = None
    for allow, written in rules:
        if not written:
            continue
        pattern = normalise_rfc9309(written)
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
    path = normalise_legacy(path)
    for allow, written in rules:
        if path.startswith(normalise_legacy(written)):
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
