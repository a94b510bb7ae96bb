"""``AgentRules`` keeps rules packed (the group's lines as one string, compiled
on the first decision, packed again once the origin is no longer active;
sitemaps as one string): what it gives back must not change."""

from __future__ import annotations

import pytest

from scrapy_robots_rep.core import MATCHING_MODES, AgentRules, RobotsTxt, Rule
from scrapy_robots_rep.core.agent_rules import ActiveRules

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


def test_rules_whose_index_was_dropped_decide_and_explain_as_before():
    long_group = "".join(f"Disallow: /private/{index}/\n" for index in range(200))
    body = f"User-agent: *\n# {'x' * 2000}\n{long_group}Allow: /private/7/open\n"
    active = ActiveRules(2)
    first = RobotsTxt.parse(body).for_agent("mybot")
    active.adopt(first)
    before = [
        (first.allowed(f"{HOST}{path}"), first.explain(f"{HOST}{path}")) for path in ("/private/7/", "/private/7/open")
    ]
    # Reading more origins than the ring holds drops the first one's table and packs its lines.
    for index in range(2):
        other = RobotsTxt.parse(f"User-agent: *\nDisallow: /{index}\n").for_agent("mybot")
        active.adopt(other)
        other.allowed(f"{HOST}/")
    assert first._table is None and first._index is None
    assert isinstance(first._source, bytes)
    after = [
        (first.allowed(f"{HOST}{path}"), first.explain(f"{HOST}{path}")) for path in ("/private/7/", "/private/7/open")
    ]
    assert after == before
    assert before[0][1].rule == Rule(False, "/private/7/", 10, "Disallow: /private/7/")
    assert before[1][1].rule == Rule(True, "/private/7/open", 203, "Allow: /private/7/open")
    assert AgentRules.from_dict(first.to_dict()).rules() == first.rules()
