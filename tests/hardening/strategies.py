"""Hypothesis strategies for robots.txt files, rules and URL paths over small alphabets.

The alphabets are small on purpose, so that random patterns really match random paths; they
hold the characters docs/behaviour.md §4 treats specially (``*``, ``$``, ``%2F`` against ``/``, escapes of
unreserved characters, upper and lower-case hex, non-ASCII) and nothing it leaves open.
"""

from __future__ import annotations

import re

from hypothesis import strategies as st

from tests.hardening.reference import UNRESERVED, Group, RuleLine

HOST = "http://example.com"
RFC9309_AGENT = "mybot"
LEGACY_ROBOT = "MyBot-Crawler/2.0"

RFC9309_PATH_ATOMS = (
    "/",
    "/",
    "a",
    "a",
    "b",
    "A",
    "%2F",
    "%2f",
    "%61",
    "%41",
    "*",
    "$",
    "-",
    "~",
    "%7E",
    "é",
    "%C3%A9",
    "%c3%a9",
    "?",
    "=",
)
RFC9309_PATTERN_ATOMS = (
    "/",
    "/",
    "a",
    "a",
    "b",
    "A",
    "*",
    "*",
    "%2F",
    "%2f",
    "%61",
    "$",
    "~",
    "%7e",
    "é",
    "%c3%a9",
    "?",
)
RFC9309_AGENTS = ("*", "mybot", "MyBot/1.0", "mybot*", "MYBOT", "my", "mybotx", "other")

LEGACY_PATH_ATOMS = ("/", "/", "a", "a", "b", "A", "%2F", "%61", "%41", "*", "$", "é", "%C3%A9", "?", "=")
LEGACY_PATTERN_ATOMS = ("/", "/", "a", "b", "A", "*", "$", "%2F", "%61", "é", "%c3%a9", "?")
LEGACY_AGENTS = ("*", "bot", "MyBot", "crawler", "other", "mybot/2", "Spam")

NOISE_LINES = (
    "# a comment",
    "Sitemap: http://example.com/sitemap.xml",
    "Crawl-delay: 3",
    "Unknown-field: /a",
    "Request-rate: 1/5",
    "Content-Signal: ai-train=no",
)
AGENT_NOISE_LINES = (*NOISE_LINES, "")
"""Lines that do not end a run of user-agent lines in rfc9309 matching (blank lines too)."""


def paths(atoms: tuple[str, ...], max_atoms: int = 8) -> st.SearchStrategy[str]:
    """Absolute paths (with an optional query) built from ``atoms``; never ending in a bare ``?``."""
    return (
        st.lists(st.sampled_from(atoms), max_size=max_atoms)
        .map(lambda parts: "/" + "".join(parts))
        .filter(lambda path: not path.endswith("?"))
    )


def patterns(atoms: tuple[str, ...], max_atoms: int = 5) -> st.SearchStrategy[str]:
    """Non-empty rule values starting with ``/`` or ``*``."""
    return st.builds(
        lambda start, parts: start + "".join(parts),
        st.sampled_from(("/", "*")),
        st.lists(st.sampled_from(atoms), max_size=max_atoms),
    )


def rules(pattern_strategy: st.SearchStrategy[str], max_rules: int = 6) -> st.SearchStrategy[tuple[RuleLine, ...]]:
    """Rule lists whose first rule has a non-empty value (so group boundaries are never in doubt)."""
    rule = st.builds(RuleLine, st.booleans(), st.one_of(pattern_strategy, st.just("")))
    first = st.builds(RuleLine, st.booleans(), pattern_strategy)
    return st.builds(lambda head, tail: (head, *tail), first, st.lists(rule, max_size=max_rules - 1))


def groups(
    agent_values: tuple[str, ...], pattern_atoms: tuple[str, ...], max_groups: int = 4
) -> st.SearchStrategy[list[Group]]:
    """Whole files as lists of groups, each with 1-3 user-agent values and 1-6 rules."""
    group = st.builds(
        Group,
        st.lists(st.sampled_from(agent_values), min_size=1, max_size=3, unique=True).map(tuple),
        rules(patterns(pattern_atoms)),
    )
    return st.lists(group, min_size=1, max_size=max_groups)


@st.composite
def equivalent_encoding(draw: st.DrawFn, text: str) -> str:
    """Re-encode ``text`` without changing its meaning under docs/behaviour.md §4 (rfc9309) normalisation.

    Unreserved characters may become ``%XX`` (either hex case), existing escapes may flip hex
    case, non-ASCII characters may become their percent-encoded UTF-8 octets.
    """
    out: list[str] = []
    index = 0
    while index < len(text):
        escape = re.match(r"%[0-9A-Fa-f]{2}", text[index:])
        if escape:
            token = escape.group()
            out.append(token.swapcase() if draw(st.booleans()) else token)
            index += 3
            continue
        char = text[index]
        if char in UNRESERVED and draw(st.booleans()):
            hex_code = f"{ord(char):02X}"
            out.append("%" + (hex_code.lower() if draw(st.booleans()) else hex_code))
        elif ord(char) >= 128 and draw(st.booleans()):
            out.extend(f"%{octet:02x}" for octet in char.encode("utf-8"))
        else:
            out.append(char)
        index += 1
    return "".join(out)
