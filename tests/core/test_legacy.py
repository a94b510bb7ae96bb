"""legacy mode: the 1996 draft as taught in HTTP: The Definitive Guide, ch. 9."""

from __future__ import annotations

import pytest

from scrapy_robots_rep.core import RobotsTxt
from tests.core.helpers import allowed


def legacy(rule: str, path: str) -> bool:
    return allowed(f"User-agent: *\nDisallow: {rule}\n", "mybot", "http://a.com" + path, "legacy")


@pytest.mark.parametrize(
    ("rule", "path", "disallowed"),
    [
        ("/tmp", "/tmp", True),
        ("/tmp", "/tmpfile.html", True),
        ("/tmp", "/tmp/a.html", True),
        ("/tmp/", "/tmp", False),
        ("/tmp/", "/tmp/", True),
        ("/tmp/", "/tmp/a.html", True),
        ("/~fred/hi.html", "/%7Efred/hi.html", True),
        ("/%7Efred/hi.html", "/~fred/hi.html", True),
        ("/%7efred/hi.html", "/%7Efred/hi.html", True),
        ("/%7Efred/hi.html", "/%7efred/hi.html", True),
        ("/~fred%2Fhi.html", "/~fred/hi.html", False),
        ("/~fred/hi.html", "/~fred%2Fhi.html", False),
        ("/~fred%2fhi.html", "/~fred%2Fhi.html", True),
        ("/Tmp", "/tmp", False),
    ],
)
def test_classic_path_examples(rule, path, disallowed):
    assert legacy(rule, path) is not disallowed


def test_wildcards_and_anchor_are_literal():
    assert legacy("/*.php", "/index.php")
    assert not legacy("/*.php", "/*.php/x")
    assert legacy("/a$", "/a")
    assert not legacy("/a$", "/a$")


def test_empty_disallow_disallows_everything():
    assert not legacy("", "/anything")


def test_non_ascii_matches_its_escaped_form():
    assert not legacy("/caf%C3%A9", "/café")
    assert not legacy("/café", "/caf%c3%a9")


@pytest.mark.parametrize("name", ["Bot", "Robot", "Bottom-Feeder", "Spambot", "Dont-Bother-Me"])
def test_user_agent_value_is_searched_in_the_robot_name(name):
    body = "User-Agent: bot\nDisallow: /\n"
    assert not allowed(body, name, "http://a.com/x", "legacy")


def test_robot_name_not_containing_the_value_is_not_matched():
    assert allowed("User-Agent: bot\nDisallow: /\n", "Crawler", "http://a.com/x", "legacy")


def test_first_matching_record_wins_and_records_are_not_merged():
    body = (
        "User-agent: *\nDisallow: /star\n\n"
        "User-agent: spambot\nDisallow: /first\n\n"
        "User-agent: bot\nDisallow: /second\n"
    )
    assert not allowed(body, "Spambot/2.0", "http://a.com/first", "legacy")
    assert allowed(body, "Spambot/2.0", "http://a.com/second", "legacy")
    assert allowed(body, "Spambot/2.0", "http://a.com/star", "legacy")
    assert not allowed(body, "Robot", "http://a.com/second", "legacy")


def test_star_record_when_no_record_names_the_robot():
    body = "User-agent: other\nDisallow: /\n\nUser-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n"
    assert not allowed(body, "mybot", "http://a.com/a", "legacy")
    assert allowed(body, "mybot", "http://a.com/b", "legacy")


def test_no_record_and_no_star_record_allows_everything():
    assert allowed("User-agent: other\nDisallow: /\n", "mybot", "http://a.com/x", "legacy")


def test_rules_in_file_order_first_match_wins():
    body = "User-agent: *\nAllow: /a\nDisallow: /a/b\nDisallow: /c\nAllow: /c/d\n"
    assert allowed(body, "mybot", "http://a.com/a/b", "legacy")
    assert not allowed(body, "mybot", "http://a.com/c/d", "legacy")
    assert not allowed(body, "mybot", "http://a.com/a/b", "rfc9309")
    assert allowed(body, "mybot", "http://a.com/c/d", "rfc9309")


def test_blank_line_ends_a_record():
    body = "User-agent: *\nDisallow: /a\n\nDisallow: /b\n"
    assert not allowed(body, "mybot", "http://a.com/a", "legacy")
    assert allowed(body, "mybot", "http://a.com/b", "legacy")
    assert not allowed(body, "mybot", "http://a.com/b", "rfc9309")


def test_comment_line_does_not_end_a_record():
    body = "User-agent: *\nDisallow: /a\n# note\nDisallow: /b\n"
    assert not allowed(body, "mybot", "http://a.com/b", "legacy")


def test_user_agent_after_rules_starts_a_new_record():
    body = "User-agent: a\nDisallow: /a\nUser-agent: b\nDisallow: /b\n"
    assert allowed(body, "a", "http://a.com/b", "legacy")
    assert not allowed(body, "b", "http://a.com/b", "legacy")


def test_record_without_rules_is_ignored():
    body = "User-agent: mybot\n\nUser-agent: *\nDisallow: /\n"
    assert not allowed(body, "mybot", "http://a.com/x", "legacy")


def test_misspelled_fields_and_missing_colons_are_not_read():
    assert allowed("User-agent: *\nDisalow: /\n", "mybot", "http://a.com/x", "legacy")
    assert allowed("User-agent *\nDisallow /\n", "mybot", "http://a.com/x", "legacy")


def test_robots_txt_follows_the_rules():
    body = "User-agent: *\nDisallow: /\n"
    assert not allowed(body, "mybot", "http://a.com/robots.txt", "legacy")


def test_legacy_explain_names_the_first_match():
    decision = RobotsTxt.parse("User-agent: *\nAllow: /a\nDisallow: /\n", "legacy").explain("http://a.com/a/b", "mybot")
    assert decision.allowed
    assert decision.reason == "first match"
    assert decision.rule is not None
    assert (decision.rule.line, decision.rule.pattern) == (2, "/a")
