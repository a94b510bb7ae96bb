"""Matching modes are objects, and group members are dispatched through one table."""

from __future__ import annotations

import re
from pathlib import Path

from scrapy_robots_rep.core import MATCHING_MODES, RobotsTxt
from scrapy_robots_rep.core.fields import MEMBER_FIELDS, RULE_FIELDS
from scrapy_robots_rep.core.lines import KNOWN_FIELDS, LICENSE, SITEMAP, USER_AGENT

CORE = Path(__file__).resolve().parents[2] / "scrapy_robots_rep" / "core"
# The parser and matcher; the linter and page-level directives are checked by their own tests.
PARSER_MODULES = [path for path in sorted(CORE.glob("*.py")) if path.name not in ("lint.py", "page_directives.py")]


def test_no_core_module_compares_mode_names():
    """A mode's behaviour comes from its object: adding a mode must not mean editing comparisons."""
    comparison = re.compile(r"""(==|!=|\bin)\s*\(?["'](rfc9309|legacy)["']|["'](rfc9309|legacy)["']\s*(==|!=)""")
    offenders = [
        f"{path.name}:{number}"
        for path in PARSER_MODULES
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if comparison.search(line)
    ]
    assert len(PARSER_MODULES) > 10
    assert offenders == []


def test_every_mode_gives_what_parsing_and_matching_need():
    for name, mode in MATCHING_MODES.items():
        robots = RobotsTxt.parse("User-agent: *\nDisallow: /x\n", name)
        decision = robots.explain("https://a.com/x", mode.agent_token("mybot/1.0"))
        assert (decision.allowed, decision.reason) == (False, mode.rule_reason)


def test_member_fields_are_the_known_group_fields_only():
    assert MEMBER_FIELDS <= KNOWN_FIELDS
    assert KNOWN_FIELDS - {USER_AGENT, SITEMAP, LICENSE} == MEMBER_FIELDS
    assert MEMBER_FIELDS >= RULE_FIELDS


def test_unknown_fields_are_ignored_by_grouping_and_matching():
    body = "User-agent: *\nHost: a.com\nNoindex: /x\nCrawl-delay: 2\nDisallow: /y\n"
    rules = RobotsTxt.parse(body).for_agent("mybot")
    assert [rule.line for rule in rules.rules()] == [5]
    assert rules.allowed("https://a.com/x")
    assert rules.crawl_delay == 2.0
