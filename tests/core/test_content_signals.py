"""``Content-Signal`` lines in robots.txt (docs/behaviour.md §2, §10)."""

from __future__ import annotations

import json

import pytest

from scrapy_robots_rep.core import AgentRules, RobotsTxt, SourceLine
from scrapy_robots_rep.core.content_signals import merge_signals, read_signals

MODES = ("rfc9309", "legacy")


@pytest.mark.parametrize(
    ("value", "signals"),
    [
        ("search=yes, ai-input=no, ai-train=no", {"search": True, "ai-input": False, "ai-train": False}),
        ("AI-Train = NO ,search=Yes", {"ai-train": False, "search": True}),
        ("ai-train=no, ai-train=yes", {"ai-train": False}),
        ("future-use=no", {"future-use": False}),
        ("search=maybe, =no, ai-input, ,ai-train=no", {"ai-train": False}),
        ("", {}),
        ("1/5", {}),
    ],
)
def test_read_signals(value, signals):
    assert read_signals(value) == signals


def test_merging_lets_any_no_win():
    assert merge_signals(["search=yes, ai-train=yes", "ai-train=no, ai-input=yes", "search=yes"]) == {
        "search": True,
        "ai-train": False,
        "ai-input": True,
    }


@pytest.mark.parametrize("matching", MODES)
def test_signals_of_the_chosen_group_with_their_lines(matching):
    body = (
        "User-agent: *\n"
        "Content-Signal: search=yes, ai-input=no, ai-train=no  # our policy\n"
        "Disallow: /private\n"
        "\n"
        "User-agent: mybot\n"
        "Disallow: /x\n"
    )
    robots = RobotsTxt.parse(body, matching)
    rules = robots.for_agent("otherbot")
    assert dict(rules.content_signals) == {"search": True, "ai-input": False, "ai-train": False}
    assert rules.content_signal_lines() == (
        SourceLine(2, "Content-Signal: search=yes, ai-input=no, ai-train=no  # our policy"),
    )
    specific = robots.for_agent("mybot")
    assert dict(specific.content_signals) == {}
    assert specific.content_signal_lines() == ()


def test_merged_groups_combine_signals_conservatively():
    body = (
        "User-agent: mybot\nContent-Signal: search=yes, ai-train=yes\nDisallow: /a\n\n"
        "User-agent: *\nContent-Signal: ai-train=no\nDisallow: /b\n\n"
        "User-agent: mybot\ncontent-signal: ai-train=no, ai-input=yes\nDisallow: /c\n"
    )
    rules = RobotsTxt.parse(body).for_agent("mybot")
    assert dict(rules.content_signals) == {"search": True, "ai-train": False, "ai-input": True}
    assert [source.line for source in rules.content_signal_lines()] == [2, 10]


@pytest.mark.parametrize("matching", MODES)
def test_no_signal_lines_give_an_empty_mapping(matching):
    rules = RobotsTxt.parse("User-agent: *\nContent-Signal: nonsense\nDisallow: /\n", matching).for_agent("mybot")
    assert dict(rules.content_signals) == {}
    assert rules.content_signal_lines() == ()
    assert dict(AgentRules.allow_all("robots.txt returned 404").content_signals) == {}


def test_signals_are_read_only():
    rules = RobotsTxt.parse("User-agent: *\nContent-Signal: ai-train=no\n").for_agent("mybot")
    with pytest.raises(TypeError):
        rules.content_signals["ai-train"] = True  # type: ignore[index]


def test_a_signal_before_any_group_is_ignored():
    rules = RobotsTxt.parse("Content-Signal: ai-train=no\nUser-agent: *\nDisallow: /x\n").for_agent("mybot")
    assert dict(rules.content_signals) == {}


def test_a_signal_between_user_agent_lines_belongs_to_the_whole_group():
    body = "User-agent: a\nContent-Signal: ai-train=no\nUser-agent: b\nDisallow: /\n"
    robots = RobotsTxt.parse(body)
    for agent in ("a", "b"):
        assert dict(robots.for_agent(agent).content_signals) == {"ai-train": False}
        assert not robots.allowed("https://a.com/", agent)


def test_a_signal_value_never_becomes_a_delay():
    rules = RobotsTxt.parse("User-agent: *\nContent-Signal: 1/5\nDisallow: /x\n").for_agent("mybot")
    assert rules.crawl_delay is None


@pytest.mark.parametrize("matching", MODES)
def test_signals_round_trip_through_json(matching):
    body = "User-agent: *\nCONTENT-SIGNAL :  ai-train=no, search=yes\nContent-Signal: future=no\nDisallow: /x\n"
    rules = RobotsTxt.parse(body, matching).for_agent("mybot")
    copy = AgentRules.from_dict(json.loads(json.dumps(rules.to_dict())))
    assert copy.content_signals == rules.content_signals == {"ai-train": False, "search": True, "future": False}
    assert copy.content_signal_lines() == rules.content_signal_lines()
    assert copy.to_dict() == rules.to_dict()
