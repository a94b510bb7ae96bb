"""The shortcuts of a decision give what the plain definitions give.

``AgentRules`` reads the path of a usual URL with one regular expression and
normalises only its escapes (``MatchingMode.normalise_plain``), and a compiled
origin settles most URLs with the per-bucket checks and runs of ``rule_index``.
The path must be the definition's, and ``allowed`` and ``explain`` (which read
the same match) must agree, on made-up URLs and rules and on every URL of the
corpus.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_robots_rep.core import MATCHING_MODES, RobotsTxt
from scrapy_robots_rep.core.paths import normalise_rfc9309, normalise_rfc9309_escapes, plain_url_path, url_path
from tests.corpus import corpus_dir

CORPUS_DIR = corpus_dir()

# Pieces of a path: plain characters, escapes (upper and lower case, of
# reserved and unreserved characters, non-ASCII), a lone "%", and characters
# the regular expression of usual URLs refuses (space, "#", "|", non-ASCII).
PLAIN_PIECES = ("/", "a", "B", "~", "?", "=", "&")
ESCAPE_PIECES = ("%", "%2", "%2f", "%2F", "%41", "%7e", "%C3%A9", "%zz")
PATH_PIECES = (*PLAIN_PIECES, *ESCAPE_PIECES, " ", "#x", "|", "\u00e9")
SCHEMES = ("https://", "http://", "HTTP://", "Https://", "ftp://", "", "//")
AUTHORITIES = ("a.example", "A.Example:8080", "user@a.example", "")


def slow_path(url: str, matching: str) -> str:
    """The path a URL is matched by, by the definition: ``url_path`` then the mode's normalisation."""
    return MATCHING_MODES[matching].normalise(url_path(url))


@settings(max_examples=500, deadline=None, database=None)
@given(st.lists(st.sampled_from(PATH_PIECES), max_size=8).map("".join))
def test_escapes_alone_normalise_as_the_whole_normalisation(text: str) -> None:
    if plain_url_path("https://a.example/" + text) is not None:
        assert normalise_rfc9309_escapes(text) == normalise_rfc9309(text)


@settings(max_examples=500, deadline=None, database=None)
@given(
    st.sampled_from(tuple(MATCHING_MODES)),
    st.sampled_from(SCHEMES),
    st.sampled_from(AUTHORITIES),
    st.lists(st.sampled_from(PATH_PIECES), max_size=8).map("".join),
)
def test_a_usual_url_is_matched_by_the_path_of_the_definition(
    matching: str, scheme: str, authority: str, path: str
) -> None:
    url = scheme + authority + path
    rules = RobotsTxt.parse("User-agent: *\nDisallow: /%41\n", matching).for_agent("mybot")
    assert rules._path(url) == slow_path(url, matching)


@pytest.mark.parametrize(
    ("url", "allowed"),
    [
        # An allow entry shorter than every disallow entry never decides.
        ("https://a.example/ab/cxd", False),
        ("https://a.example/x", True),
        # A long allow beats the shorter disallow prefix and wildcard.
        ("https://a.example/shop/cart/?x=1", True),
        ("https://a.example/shop/list?x=1", False),
        ("https://a.example/shop/", False),
        # The allow run decides before a shorter disallow run.
        ("https://a.example/shop/cart/items", True),
        ("https://a.example/?page=2", False),
    ],
)
def test_runs_of_entries_decide_by_the_longest_match(url: str, allowed: bool) -> None:
    rules = RobotsTxt.parse(
        "User-agent: *\nAllow: /\nDisallow: /a\nDisallow: /ab/c*d\nAllow: /shop/cart/\nDisallow: /shop/\n"
        "Disallow: /*?\nDisallow: /b\nDisallow: /c\nDisallow: /d\n"
    ).for_agent("mybot")
    assert rules.allowed(url) == rules.explain(url).allowed == allowed


def test_every_corpus_url_is_decided_as_explained() -> None:
    urls_file = CORPUS_DIR / "urls.jsonl"
    if not urls_file.is_file():
        pytest.skip("no corpus")
    with open(urls_file, encoding="utf-8") as lines:
        records = [json.loads(line) for line in lines]
    for matching in MATCHING_MODES:
        kept = {}
        for record in records:
            site, url = record["site"], record["url"]
            if site not in kept:
                kept[site] = RobotsTxt.parse((CORPUS_DIR / "robots" / f"{site}.txt").read_bytes(), matching).for_agent(
                    "mybot"
                )
            rules = kept[site]
            assert rules._path(url) == slow_path(url, matching), url
            assert rules.allowed(url) == rules.explain(url).allowed, (site, url, matching)
