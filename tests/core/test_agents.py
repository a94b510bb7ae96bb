"""The configured agent is reduced one way everywhere (docs/behaviour.md §3, §7)."""

from __future__ import annotations

import pytest

from scrapy_robots_rep.core import RobotsTxt, matching_mode
from scrapy_robots_rep.core.agents import Reading, product_token, read_agent, token_problem, value_token

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


@pytest.mark.parametrize(
    ("configured", "token", "name", "reading"),
    [
        ("mybot/1.0 (+https://example.com/bot)", "mybot", "mybot/1.0 (+https://example.com/bot)", Reading.LEADING),
        ("Mozilla/5.0 (compatible; mybot/2.1; +https://example.com/bot)", "mybot", "mybot/2.1", Reading.COMPATIBLE),
        ("Mozilla/5.0 (compatible; MyBot; +https://example.com/bot)", "MyBot", "MyBot", Reading.COMPATIBLE),
        (
            "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"
            " Chrome/116.0 Safari/537.36",
            "bingbot",
            "bingbot/2.0",
            Reading.COMPATIBLE,
        ),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36",
            "Mozilla",
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36",
            Reading.BROWSER,
        ),
        (
            "Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1)",
            "Mozilla",
            "Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1)",
            Reading.BROWSER,
        ),
        ("mybot/1.0 (compatible; otherbot/1.0)", "mybot", "mybot/1.0 (compatible; otherbot/1.0)", Reading.LEADING),
    ],
)
def test_the_robot_is_read_as_a_person_means_it(configured, token, name, reading):
    robot = read_agent(configured)
    assert (robot.token, robot.name, robot.reading) == (token, name, reading)
    assert (robot.problem is not None) == (reading is Reading.BROWSER)


@pytest.mark.parametrize("matching", ["rfc9309", "legacy"])
def test_a_browser_compatible_agent_obeys_its_robots_group_never_mozillas(matching):
    body = "User-agent: Mozilla\nDisallow: /\n\nUser-agent: mybot\nDisallow: /private\n"
    robots = RobotsTxt.parse(body, matching)
    agent = "Mozilla/5.0 (compatible; mybot/2.1; +https://example.com/bot)"
    assert robots.allowed("https://a.com/page", agent)
    assert not robots.allowed("https://a.com/private", agent)
    assert matching_mode(matching).agent_problem(agent) is None


@pytest.mark.parametrize("matching", ["rfc9309", "legacy"])
def test_a_browser_agent_naming_no_robot_is_a_problem_asking_for_rep_user_agent(matching):
    problem = matching_mode(matching).agent_problem("Mozilla/5.0 (Windows NT 10.0; Win64; x64)")
    assert problem is not None and "REP_USER_AGENT" in problem
