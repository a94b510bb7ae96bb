"""Reading lines: the fast whole-file reader agrees with the one-line definition."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_robots_rep.core.lines import BLANK, DISALLOW, OTHER, USER_AGENT, decode, parse_line, read_directives

LINE_PIECES = st.sampled_from(
    [" ", "\t", "\v", "\f", ":", "#", "*", "$", "/", "a", "%", "\u00e9", "\x00", "\x1c", "\xa0",
     "User-agent", "useragent", "user agent", "Disallow", "DISALLOW", "disalow", "Allow", "Sitemap",
     "Crawl-delay", "Request-rate", "Foo"]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.lists(LINE_PIECES, max_size=8).map("".join), max_size=6), st.booleans())
def test_whole_file_reader_agrees_with_the_line_definition(lines, lenient):
    text = "\n".join(lines)
    expected = []
    for number, line in enumerate(text.split("\n"), 1):
        parsed = parse_line(line, lenient)
        if parsed is not None:
            expected.append((number, *parsed))
    assert read_directives(text, lenient) == (text.split("\n"), expected)


@pytest.mark.parametrize(
    ("line", "lenient", "parsed"),
    [
        ("Disallow: /a  # why", True, (DISALLOW, "/a")),
        ("  Disallow :\t/a\t", False, (DISALLOW, "/a")),
        ("user agent: bot", True, (USER_AGENT, "bot")),
        ("user agent: bot", False, (OTHER, "bot")),
        ("disallow /x", True, (DISALLOW, "/x")),
        ("disallow /x", False, None),
        ("# Disallow: /", True, None),
        ("", True, (BLANK, "")),
        ("  \t", False, (BLANK, "")),
        ("   # comment", False, None),
        (": /x", True, None),
        ("<html><body>hello world</body></html>", True, (OTHER, "world</body></html>")),
        ("<p>Disallow everything here</p>", True, None),
        ("Disallow # x: y", True, None),
    ],
)
def test_parse_line(line, lenient, parsed):
    assert parse_line(line, lenient) == parsed


def test_decode_cuts_at_the_size_limit_and_normalises_line_ends():
    assert decode(b"a\r\nb\rc\nddd", 8) == "a\nb\nc\n"
    assert decode(b"a\nbb\n", 4) == "a\nbb"
    assert decode("\ufeffa\n\u00e9", 100) == "a\n\u00e9"
    assert decode(b"a\xff\xfeb", 100) == "ab"
