"""``AgentRules`` keeps rules packed (line texts by code or joined, numbers in
small arrays, sitemaps as one string): what it gives back must not change."""

from __future__ import annotations

import pytest

from scrapy_robots_rep.core import MATCHING_MODES, AgentRules, RobotsTxt, Rule

HOST = "https://a.com"


@pytest.mark.parametrize("matching", MATCHING_MODES)
def test_unusual_line_texts_come_back_whole_and_in_order(matching):
    body = (
        "User-agent: *\n"
        "Disallow: /usual\n"
        "disallow :  /spaced   # why\n"
        "DisAllow:/mixed\n"
        "Allow:\t/tabbed\n"
        "Disallow: /usual2\n"
    )
    rules = RobotsTxt.parse(body, matching).for_agent("mybot")
    assert [(rule.line, rule.text, rule.pattern) for rule in rules.rules()] == [
        (2, "Disallow: /usual", "/usual"),
        (3, "disallow :  /spaced   # why", "/spaced"),
        (4, "DisAllow:/mixed", "/mixed"),
        (5, "Allow:\t/tabbed", "/tabbed"),
        (6, "Disallow: /usual2", "/usual2"),
    ]
    assert [rules.explain(f"{HOST}{path}").rule for path in ("/mixed/x", "/tabbed")] == [
        Rule(False, "/mixed", 4, "DisAllow:/mixed"),
        Rule(True, "/tabbed", 5, "Allow:\t/tabbed"),
    ]


@pytest.mark.parametrize("matching", MATCHING_MODES)
def test_line_numbers_past_two_bytes(matching):
    body = "User-agent: *\n" + "#\n" * 70_000 + "Disallow: /deep\n"
    decision = RobotsTxt.parse(body, matching).explain(f"{HOST}/deep", "mybot")
    assert decision.rule is not None
    assert (decision.allowed, decision.rule.line) == (False, 70_002)


def test_sitemaps_keep_their_order_and_round_trip():
    body = "Sitemap: https://a.com/1.xml\nUser-agent: *\nDisallow: /x\nSitemap: https://a.com/2.xml\n"
    rules = RobotsTxt.parse(body).for_agent("mybot")
    assert rules.sitemaps == ("https://a.com/1.xml", "https://a.com/2.xml")
    assert AgentRules.from_dict(rules.to_dict()).sitemaps == rules.sitemaps
    assert RobotsTxt.parse("User-agent: *\nDisallow: /x\n").for_agent("mybot").sitemaps == ()
    assert AgentRules.allow_all("robots.txt returned 404").sitemaps == ()
