"""``for_agent`` reads only the lines one agent needs (``core.scan``); it must
give what reading and grouping every line gives (``read_directives``,
``group_rfc9309``, ``select_rfc9309``, the member handlers), line for line."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_robots_rep.core import RobotsTxt
from scrapy_robots_rep.core.decision import Rule
from scrapy_robots_rep.core.groups import group_rfc9309, select_rfc9309
from scrapy_robots_rep.core.lines import ALLOW, CONTENT_SIGNAL, SITEMAP, decode, parse_line, read_directives
from scrapy_robots_rep.core.members import collect
from tests.corpus import corpus_dir

EXAMPLES_SCALE = int(os.environ.get("HARDENING_EXAMPLES_SCALE", "1"))
AGENT = "mybot"

# Lines that open, continue or end groups, in usual and unusual spellings, and
# lines that hold the scan's search words without being directives.
LINES = (
    "User-agent: mybot",
    "user-agent:MyBot/2.0",
    "USER-AGENT : *",
    "User-agent mybot",
    "useragent: mybot",
    "user agent: *",
    "User-agents: mybot",
    "User-agent: *  # all",
    "User-agent: otherbot",
    "User-agent:",
    "\u00a0User-agent: mybot",
    "# User-agent: mybot",
    "X-user-agent-note: mybot",
    "Disallow: /user-agent",
    "Disallow: /a",
    "disallow:/b*c$",
    "Dissallow: /d",
    "Disalow /e",
    "Allow: /a/index.html",
    "Allowed: /f",
    "Disallow:",
    "Disallow: /sitemap.xml",
    "Crawl-delay: 3",
    "crawl-delay : 1.5 # slow",
    "Crawl-delayed: 7",
    "Request-rate: 1/5",
    "Disallow: /crawl-delay",
    "Content-Signal: ai-train=no, search=yes",
    "content-signal: search=no",
    "Content-Signals: ai-input=no",
    "Sitemap: https://a.example/1.xml",
    "site-map: https://a.example/2.xml",
    "Sitemaps: https://a.example/3.xml",
    "sitemap:",
    "Host: a.example",
    "",
    "   ",
    "# comment",
    "<html>agent of allow</html>",
    # The usual spellings, read by slicing: comments and missing spaces.
    "User-agent:#only a comment",
    "user-agent:mybot#note",
    "Sitemap: https://a.example/4.xml # note",
    "Disallow: /x # Disallow: /y",
    "Allow:/y",
    "  Disallow: /indented",
    "Crawl-delay:2",
    "Content-Signal:search=no # ai-train=no",
    "Kelvin\u212a: agent",
)


def expected(text: str) -> tuple[tuple[str, ...], list[Rule], float | None, list[tuple[int, str]], list[str]]:
    """What reading every line gives: group values, rules, delay, signal lines, sitemaps."""
    lines, directives = read_directives(text, True)
    sitemaps = [value for _, field, value in directives if field == SITEMAP and value]
    chosen = select_rfc9309(group_rfc9309(directives), AGENT)
    collected = collect([group.members for group in chosen], lines)
    rules = []
    for number, line in collected.rule_lines:
        parsed = parse_line(line, True)
        assert parsed is not None
        if parsed[1]:
            rules.append(Rule(parsed[0] == ALLOW, parsed[1], number, line))
    signals = [(source.line, source.text) for source in collected.lines_of(CONTENT_SIGNAL)]
    agents = tuple(value for group in chosen for value in group.agents)
    return agents, rules, max(collected.delays, default=None), signals, sitemaps


def assert_same_as_reading_every_line(text: str) -> None:
    rules = RobotsTxt.parse(text).for_agent(AGENT)
    agents, rule_list, delay, signals, sitemaps = expected(decode(text, len(text.encode("utf-8")) + 1))
    assert rules.group == agents
    assert list(rules.rules()) == rule_list
    assert rules.crawl_delay == delay
    assert [(source.line, source.text) for source in rules.content_signal_lines()] == signals
    assert list(rules.sitemaps) == sitemaps


@settings(max_examples=400 * EXAMPLES_SCALE, deadline=None, database=None)
@given(st.lists(st.sampled_from(LINES), max_size=40), st.sampled_from(("\n", "\r\n")))
def test_scan_equals_reading_every_line(lines: list[str], end: str) -> None:
    assert_same_as_reading_every_line(end.join(lines))


def test_scan_equals_reading_every_line_on_the_corpus() -> None:
    paths = sorted((corpus_dir() / "robots").glob("*.txt"))
    if not paths:
        pytest.skip("no corpus")
    for path in paths:
        assert_same_as_reading_every_line(decode(path.read_bytes(), 512_000))


def test_a_text_whose_lower_casing_lengthens_is_read_whole() -> None:
    # "\u0130" lower-cases to two characters: offsets in the lower-cased text would be wrong.
    assert_same_as_reading_every_line("# \u0130\nUser-agent: *\nDisallow: /x\nUser-agent: mybot\nAllow: /y\n")
