"""Reading lines: the fast whole-file reader agrees with the one-line definition."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_robots_rep.core.lines import (
    BLANK,
    CONTENT_SIGNAL,
    DISALLOW,
    KNOWN_FIELDS,
    MAX_LINE_BYTES,
    MISSPELLINGS,
    USER_AGENT,
    canonical_field,
    decode,
    parse_line,
    read_directives,
)

LINE_PIECES = st.sampled_from(
    [
        " ",
        "\t",
        "\v",
        "\f",
        ":",
        "#",
        "*",
        "$",
        "/",
        "a",
        "%",
        "\u00e9",
        "\x00",
        "\x1c",
        "\xa0",
        "User-agent",
        "useragent",
        "user agent",
        "Disallow",
        "DISALLOW",
        "disalow",
        "Allow",
        "Sitemap",
        "Crawl-delay",
        "Request-rate",
        "Content-Signal",
        "content-signal",
        "Foo",
        "BLANK",
    ]
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
        ("user agent: bot", False, ("user agent", "bot")),
        ("Foo-Bar : baz", False, ("foo-bar", "baz")),
        ("Blank: x", True, ("blank", "x")),
        ("Content-Signal: search=yes, ai-train=no", False, (CONTENT_SIGNAL, "search=yes, ai-train=no")),
        ("content-signal search=yes", True, (CONTENT_SIGNAL, "search=yes")),
        ("disallow /x", True, (DISALLOW, "/x")),
        ("disallow /x", False, None),
        ("# Disallow: /", True, None),
        ("", True, (BLANK, "")),
        ("  \t", False, (BLANK, "")),
        ("   # comment", False, None),
        (": /x", True, None),
        ("<html><body>hello world</body></html>", True, ("<html><body>hello", "world</body></html>")),
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


@pytest.mark.parametrize("position", ["first", "middle", "last", "only"])
@pytest.mark.parametrize("extra", [-1, 0, 1, 5000])
def test_decode_cuts_a_line_longer_than_the_limit_wherever_it_is(position, extra):
    long = "Disallow: /" + "\u00e9" * ((MAX_LINE_BYTES - 11) // 2 + extra)
    others = ["User-agent: *", "Allow: /a" * 900, "Disallow: /b"]
    lines = {
        "first": [long, *others],
        "middle": [others[0], long, *others[1:]],
        "last": [*others, long],
        "only": [long],
    }[position]
    body = "\n".join(lines).encode("utf-8")
    expected = [line.encode("utf-8")[:MAX_LINE_BYTES].decode("utf-8", "ignore") for line in lines]
    assert decode(body, len(body)).split("\n") == expected


def test_unknown_fields_keep_their_lower_cased_name_and_never_look_blank():
    _, directives = read_directives("Host: a.com\n\nX-Thing : 1", lenient=True)
    assert directives == [(1, "host", "a.com"), (2, BLANK, ""), (3, "x-thing", "1")]
    assert BLANK not in KNOWN_FIELDS


@pytest.mark.parametrize(
    ("key", "strict", "lenient"),
    [
        ("User-Agent", USER_AGENT, USER_AGENT),
        (" DISALLOW ", DISALLOW, DISALLOW),
        ("useragent", "useragent", USER_AGENT),
        ("Dissallow", "dissallow", DISALLOW),
        ("disallowed", "disallowed", DISALLOW),
        ("Site-map", "site-map", "sitemap"),
        ("Content-Signal", CONTENT_SIGNAL, CONTENT_SIGNAL),
        ("content-signals", "content-signals", "content-signals"),
        ("Host", "host", "host"),
    ],
)
def test_canonical_field_tells_an_exact_field_from_one_google_tolerates(key, strict, lenient):
    assert canonical_field(key, lenient=False) == strict
    assert canonical_field(key, lenient=True) == lenient


def test_every_misspelling_is_read_as_its_field_only_when_lenient():
    for misspelt, field in MISSPELLINGS.items():
        assert field in KNOWN_FIELDS
        assert canonical_field(misspelt, lenient=True) == field
        assert canonical_field(misspelt, lenient=False) == misspelt
