"""The configured agent is reduced one way everywhere (docs/behaviour.md §3, §7)."""

from __future__ import annotations

import pytest

from scrapy_robots_rep.core import RobotsTxt, matching_mode
from scrapy_robots_rep.core.agents import product_token, token_problem, value_token

BODY = "User-agent: mybot\nDisallow: /private\n\nUser-agent: *\nDisallow: /\n"


@pytest.mark.parametrize(
    ("user_agent", "token"),
    [
        ("mybot", "mybot"),
        ("mybot/1.0 (+https://example.com/bot)", "mybot"),
        ("  MyBot/2  ", "MyBot"),
        ("mybot (compatible)", "mybot"),
        ("my_bot-x\tmore", "my_bot-x"),
        ("MJ12bot/v1.4.8", "MJ12bot"),
        ("/1.0", ""),
        ("   ", ""),
    ],
)
def test_product_token(user_agent, token):
    assert product_token(user_agent) == token


@pytest.mark.parametrize(
    ("value", "token"), [("MyBot/1.2", "mybot"), ("mybot*", "mybot"), ("MJ12bot", "mj"), ("*", "")]
)
def test_value_token(value, token):
    assert value_token(value) == token


def test_token_problem_names_the_characters_and_what_groups_are_read_as():
    assert token_problem("mybot") is None
    assert token_problem("my_bot-X") is None
    problem = token_problem("MJ12bot")
    assert problem is not None and "'12'" in problem and "'MJ'" in problem
    assert token_problem("") is not None


def test_a_token_with_digits_never_matches_its_own_group():
    robots = RobotsTxt.parse("User-agent: MJ12bot\nDisallow: /\n")
    assert robots.allowed("https://a.com/x", "MJ12bot")
    assert matching_mode("rfc9309").agent_problem("MJ12bot/v1.4") is not None
    assert matching_mode("rfc9309").agent_problem("mybot/1.0 (+https://x)") is None
    assert matching_mode("legacy").agent_problem("MJ12bot/v1.4") is None


@pytest.mark.parametrize("configured", ["mybot/1.0 (+https://example.com/bot)", "MyBot", " mybot ", "mybot (x)"])
def test_rfc9309_reduces_the_configured_agent_to_its_product_token(configured):
    robots = RobotsTxt.parse(BODY)
    assert robots.for_agent(configured).to_dict() == robots.for_agent("mybot").to_dict()
    assert not robots.allowed("https://a.com/private/x", configured)
    assert robots.allowed("https://a.com/public", configured)


def test_legacy_searches_record_values_in_the_whole_configured_name():
    body = "User-agent: example.com\nDisallow: /\n\nUser-agent: *\nDisallow: /nothing\n"
    robots = RobotsTxt.parse(body, "legacy")
    assert not robots.allowed("https://a.com/x", "mybot/1.0 (+https://example.com/bot)")
    assert robots.allowed("https://a.com/x", "mybot")


@pytest.mark.parametrize("matching", ["rfc9309", "legacy"])
@pytest.mark.parametrize("agent", ["", "  ", "\t"])
def test_an_agent_without_a_name_is_an_error_saying_what_to_give(matching, agent):
    robots = RobotsTxt.parse(BODY, matching)
    with pytest.raises(ValueError, match=r"non-empty robot name.*e\.g\. 'mybot'"):
        robots.for_agent(agent)


def test_an_rfc9309_agent_without_a_product_token_is_an_error():
    with pytest.raises(ValueError, match=r"non-empty robot name, got '/1\.0'"):
        RobotsTxt.parse(BODY).for_agent("/1.0")
    assert RobotsTxt.parse(BODY, "legacy").allowed("https://a.com/x", "/1.0") is False
