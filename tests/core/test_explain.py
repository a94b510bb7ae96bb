"""Decisions explained: rule text, 1-based line, group and reason."""

from __future__ import annotations

from scrapy_robots_rep.core import AgentRules, Decision, RobotsTxt, Rule

BODY = (
    "# robots for a.com\n"
    "User-agent: other\n"
    "Disallow: /\n"
    "\n"
    "User-agent: MyBot/2.0\n"
    "User-agent: helper\n"
    "Disallow: /private   # keep out\n"
    "allow: /private/open\n"
    "\n"
    "User-agent: mybot\n"
    "Disallow: /*.pdf$\n"
)


def test_longest_match_explained_with_rule_line_and_merged_group():
    decision = RobotsTxt.parse(BODY).explain("https://a.com/private/x", "mybot")
    assert decision == Decision(
        allowed=False,
        rule=Rule(allow=False, pattern="/private", line=7, text="Disallow: /private   # keep out"),
        group=("MyBot/2.0", "helper", "mybot"),
        reason="longest match",
    )


def test_allow_rule_explained():
    decision = RobotsTxt.parse(BODY).explain("https://a.com/private/open/1", "mybot")
    assert decision.allowed
    assert decision.rule == Rule(True, "/private/open", 8, "allow: /private/open")


def test_wildcard_rule_from_a_later_group_explained():
    decision = RobotsTxt.parse(BODY).explain("https://a.com/doc.pdf", "mybot")
    assert decision.rule is not None
    assert (decision.allowed, decision.rule.line, decision.rule.pattern) == (False, 11, "/*.pdf$")


def test_no_rule_matched():
    decision = RobotsTxt.parse(BODY).explain("https://a.com/public", "mybot")
    assert decision == Decision(True, None, ("MyBot/2.0", "helper", "mybot"), "no rule matched")


def test_no_group_and_no_star_group():
    decision = RobotsTxt.parse(BODY).explain("https://a.com/", "stranger")
    assert decision == Decision(True, None, (), "no group for agent, no '*' group")


def test_star_group_named_in_decision():
    decision = RobotsTxt.parse("User-agent: *\nDisallow: /x\n").explain("https://a.com/x", "mybot")
    assert decision.group == ("*",)
    assert decision.rule is not None
    assert decision.rule.text == "Disallow: /x"


def test_index_html_directory_decision_names_the_written_rule():
    robots = RobotsTxt.parse("User-agent: *\nAllow: /d/index.html\nDisallow: /\n")
    decision = robots.explain("https://a.com/d/", "mybot")
    assert decision.allowed
    assert decision.rule == Rule(True, "/d/index.html", 2, "Allow: /d/index.html")


def test_fixed_verdicts_carry_their_reason():
    assert AgentRules.allow_all("robots.txt returned 404").explain("https://a.com/x") == Decision(
        True, None, (), "robots.txt returned 404"
    )
    closed = AgentRules.disallow_all("robots.txt returned 401", matching="legacy")
    assert closed.explain("https://a.com/x") == Decision(False, None, (), "robots.txt returned 401")
    assert not closed.allowed("https://a.com/robots.txt")
    assert closed.matching == "legacy"


def test_rules_kept_for_the_agent_in_file_order():
    rules = RobotsTxt.parse(BODY).for_agent("mybot").rules()
    assert [rule.line for rule in rules] == [7, 8, 11]
