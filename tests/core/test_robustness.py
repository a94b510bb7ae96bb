"""Garbage and oversized input always gives a result, quickly; matching never backtracks."""

from __future__ import annotations

import random
import time

import pytest

from scrapy_robots_rep.core import MATCHING_MODES, RobotsTxt

GENEROUS_SECONDS = 5.0
"""Of this process's CPU time (``time.process_time``), which other processes on a loaded machine do not inflate."""


def decide_within_bound(body, url: str = "https://a.com/some/path?q=1") -> None:
    for matching in MATCHING_MODES:
        start = time.process_time()
        robots = RobotsTxt.parse(body, matching)
        decision = robots.explain(url, "mybot")
        assert decision.allowed == robots.allowed(url, "mybot")
        assert time.process_time() - start < GENEROUS_SECONDS


@pytest.mark.parametrize("seed", range(5))
def test_random_bytes(seed):
    generator = random.Random(seed)
    decide_within_bound(bytes(generator.randrange(256) for _ in range(20_000)))


def test_random_text_made_of_robots_tokens():
    generator = random.Random(7)
    tokens = [
        "User-agent:",
        "Disallow:",
        "Allow:",
        "*",
        "$",
        "/",
        "%",
        "%2",
        "%zz",
        "#",
        ":",
        " ",
        "\n",
        "\r",
        "mybot",
        "\u00e9",
        "\x00",
        "\t",
        "Crawl-delay:",
        "Request-rate:",
        "1/0",
        "Sitemap:",
    ]
    for _ in range(200):
        body = "".join(generator.choice(tokens) for _ in range(60))
        decide_within_bound(body, "https://a.com/" + "".join(generator.choice(tokens[3:9]) for _ in range(10)))


def test_nuls_and_invalid_utf8():
    decide_within_bound(b"\x00" * 10_000 + b"User-agent: *\n\xff\xfe\xc3Disallow: /\x00\n\xed\xa0\x80\n")


def test_ten_megabyte_body():
    body = (b"User-agent: *\nDisallow: /x\n" + b"Allow: /y\n" * 1_000_000)[:10_000_000]
    decide_within_bound(body)


def test_hundred_thousand_character_line():
    decide_within_bound(b"User-agent: *\nDisallow: /" + b"a*" * 50_000 + b"\n")
    decide_within_bound("User-agent: *\nDisallow: /" + "\u00e9" * 100_000 + "\n")


def test_hundred_thousand_user_agent_lines():
    body = b"".join(b"User-agent: bot%d\n" % number for number in range(100_000)) + b"Disallow: /\n"
    decide_within_bound(body)
    assert RobotsTxt.parse(body).allowed("https://a.com/", "bot")
    assert not RobotsTxt.parse(body, max_size=len(body)).allowed("https://a.com/", "bot")


def test_many_wildcards_against_a_long_path_do_not_backtrack():
    body = "User-agent: *\nDisallow: /*a*a*a*a*a*a*a*a*a*a*a*a*b\nDisallow: /*a*a*a*a*a*a*a*a*a*a*a*a*b$\n"
    rules = RobotsTxt.parse(body).for_agent("mybot")
    url = "https://a.com/" + "a" * 10_000
    start = time.process_time()
    assert rules.allowed(url)
    assert not rules.allowed(url + "b")
    assert time.process_time() - start < 0.5  # backtracking over 12 wildcards and 10,000 characters takes hours


@pytest.mark.parametrize(
    ("pattern", "path", "expected"),
    [
        ("/a*b*c", "/aXbYc", True),
        ("/a*b*c", "/acb", False),
        ("/a*b$", "/abab", True),
        ("/a*b$", "/aba", False),
        ("/a**b", "/ab", True),
        ("/a*$", "/a", True),
        ("/*$", "/", True),
        ("$", "/", False),
        ("/ab*ab$", "/ab", False),
        ("/ab*ab$", "/abab", True),
        ("*", "/anything", True),
        ("/x*y*", "/xy", True),
    ],
)
def test_wildcard_matching(pattern, path, expected):
    body = f"User-agent: *\nDisallow: {pattern}\n"
    assert RobotsTxt.parse(body).allowed("https://a.com" + path, "mybot") is not expected
