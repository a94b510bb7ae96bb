"""Arguments, crawl delays, size limit and the plain-data form of AgentRules."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scrapy_robots_rep import AgentRules as ExportedAgentRules
from scrapy_robots_rep import RobotsTxt as ExportedRobotsTxt
from scrapy_robots_rep.core import MATCHING_MODES, AgentRules, RobotsTxt, matching_mode
from scrapy_robots_rep.core.modes import LEGACY, RFC9309


def test_package_exports_the_core_objects():
    assert ExportedRobotsTxt is RobotsTxt
    assert ExportedAgentRules is AgentRules
    assert tuple(MATCHING_MODES) == ("rfc9309", "legacy")
    assert (MATCHING_MODES["rfc9309"], MATCHING_MODES["legacy"]) == (RFC9309, LEGACY)
    assert all(mode.name == name for name, mode in MATCHING_MODES.items())


@pytest.mark.parametrize("name", ["google", "RFC9309", "", None, ["rfc9309"]])
def test_unknown_matching_mode_is_named(name):
    with pytest.raises(ValueError, match=f"'rfc9309', 'legacy'.*{name!r}"):
        RobotsTxt.parse(b"", name)
    with pytest.raises(ValueError, match="'rfc9309', 'legacy'"):
        matching_mode(name)
    with pytest.raises(ValueError, match="'rfc9309', 'legacy'"):
        AgentRules.allow_all("x", matching=name)


@pytest.mark.parametrize("name", ["rfc9309", "legacy"])
def test_objects_report_the_name_of_their_mode(name):
    assert matching_mode(name).name == name
    robots = RobotsTxt.parse(b"User-agent: *\nDisallow: /\n", name)
    assert robots.matching == robots.for_agent("mybot").matching == name
    assert AgentRules.disallow_all("closed", matching=name).matching == name


@pytest.mark.parametrize("body", [None, 12, ["User-agent: *"]])
def test_body_must_be_bytes_or_str(body):
    with pytest.raises(TypeError, match="body must be bytes or str"):
        RobotsTxt.parse(body)


@pytest.mark.parametrize("max_size", [-1, 1.5, "10", True])
def test_bad_max_size(max_size):
    with pytest.raises(ValueError, match="max_size"):
        RobotsTxt.parse(b"", max_size=max_size)


def test_agent_must_be_a_non_empty_str():
    robots = RobotsTxt.parse(b"User-agent: *\nDisallow: /\n")
    with pytest.raises(TypeError, match="agent must be a str"):
        robots.for_agent(b"mybot")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="non-empty"):
        robots.allowed("https://a.com/", "  ")


def test_url_must_be_a_str():
    rules = RobotsTxt.parse(b"User-agent: *\nDisallow: /\n").for_agent("mybot")
    with pytest.raises(TypeError, match="url must be a str"):
        rules.allowed(b"https://a.com/")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="url must be a str"):
        rules.explain(None)  # type: ignore[arg-type]


def test_str_and_bytes_bodies_agree():
    text = "User-agent: *\nDisallow: /caf\u00e9\n"
    for body in (text, text.encode()):
        assert not RobotsTxt.parse(body).allowed("https://a.com/caf%C3%A9", "mybot")


def test_only_the_first_max_size_bytes_are_parsed_and_a_cut_line_is_dropped():
    body = b"User-agent: *\nDisallow: /a\nDisallow: /bbbbbbbb\n"
    cut_in_line = RobotsTxt.parse(body, max_size=len(body) - 3)
    assert not cut_in_line.allowed("https://a.com/a", "mybot")
    assert cut_in_line.allowed("https://a.com/b", "mybot")
    cut_at_line_end = RobotsTxt.parse(body, max_size=len(body) - 1)
    assert not cut_at_line_end.allowed("https://a.com/bbbbbbbb", "mybot")


def test_default_size_limit_is_500_kib():
    padding = b"# " + b"x" * 511_990 + b"\n"
    body = b"User-agent: *\n" + padding + b"Disallow: /\n"
    assert len(body) > 512_000
    assert RobotsTxt.parse(body).allowed("https://a.com/x", "mybot")
    assert not RobotsTxt.parse(body, max_size=len(body)).allowed("https://a.com/x", "mybot")


@pytest.mark.parametrize(
    ("lines", "delay"),
    [
        ("Crawl-delay: 2.5", 2.5),
        ("Crawl-delay: 2\nCrawl-delay: 7", 7.0),
        ("Crawl-delay: soon", None),
        ("Crawl-delay: -3", None),
        ("Crawl-delay: nan", None),
        ("Request-rate: 1/10", 10.0),
        ("Request-rate: 2/1m", 30.0),
        ("Request-rate: 1/2h 0100-0400", 7200.0),
        ("Request-rate: 0/5", None),
        ("Request-rate: fast", None),
        ("Crawl-delay: 3\nRequest-rate: 1/5s", 5.0),
        ("", None),
    ],
)
def test_crawl_delay_and_request_rate(lines, delay):
    body = f"User-agent: *\nDisallow: /x\n{lines}\n"
    for matching in MATCHING_MODES:
        assert RobotsTxt.parse(body, matching).for_agent("mybot").crawl_delay == delay


def test_merged_groups_take_the_largest_delay():
    body = (
        "User-agent: mybot\nCrawl-delay: 4\nDisallow: /a\n\n"
        "User-agent: *\nCrawl-delay: 60\nDisallow: /b\n\n"
        "User-agent: mybot\nCrawl-delay: 9\nDisallow: /c\n"
    )
    assert RobotsTxt.parse(body).for_agent("mybot").crawl_delay == 9.0
    assert RobotsTxt.parse(body, "legacy").for_agent("mybot").crawl_delay == 4.0
    assert RobotsTxt.parse(body).for_agent("other").crawl_delay == 60.0


def test_groups_without_rules_are_one_run_of_user_agent_lines():
    body = "User-agent: mybot\nCrawl-delay: 4\n\nUser-agent: *\nCrawl-delay: 60\n\nUser-agent: mybot\nCrawl-delay: 9\n"
    for agent in ("mybot", "other"):
        assert RobotsTxt.parse(body).for_agent(agent).crawl_delay == 60.0
    assert RobotsTxt.parse(body, "legacy").for_agent("mybot").crawl_delay == 4.0


@pytest.mark.parametrize(
    "between",
    [
        "Crawl-delay: 5",
        "Request-rate: 1/5",
        "Content-Signal: ai-train=no",
        "Sitemap: https://a.com/s.xml",
        "Foo: bar",
        "",
    ],
)
def test_only_a_rule_ends_the_user_agent_run(between):
    """docs/behaviour.md §2 (RFC 9309 §2.2.4): only allow/disallow ends a run of user-agent lines."""
    body = f"User-agent: a\n{between}\nUser-agent: b\nDisallow: /\n"
    robots = RobotsTxt.parse(body)
    for agent in ("a", "b"):
        rules = robots.for_agent(agent)
        assert rules.group == ("a", "b")
        assert not rules.allowed("https://a.com/x")
    assert robots.for_agent("a").crawl_delay == robots.for_agent("b").crawl_delay
    assert robots.for_agent("other").allowed("https://a.com/x")


def test_legacy_records_still_end_at_a_blank_line_only():
    body = "User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /\n"
    robots = RobotsTxt.parse(body, "legacy")
    assert robots.allowed("https://a.com/x", "a")
    assert robots.for_agent("a").crawl_delay == 5.0
    assert not robots.allowed("https://a.com/x", "b")


BODY = (
    "Sitemap: https://a.com/s.xml\n"
    "User-agent: mybot\n"
    "Disallow: /private  # no\n"
    "Allow: /private/caf%c3%a9/index.html\n"
    "Disallow: /*.pdf$\n"
    "Disallow:\n"
    "Crawl-delay: 1.5\n"
)


@pytest.mark.parametrize("matching", MATCHING_MODES)
def test_to_dict_round_trips_through_json(matching):
    rules = RobotsTxt.parse(BODY, matching).for_agent("mybot")
    data = json.loads(json.dumps(rules.to_dict()))
    copy = AgentRules.from_dict(data)
    assert copy.to_dict() == rules.to_dict()
    assert (copy.matching, copy.group, copy.crawl_delay, copy.sitemaps) == (
        matching,
        ("mybot",),
        1.5,
        ("https://a.com/s.xml",),
    )
    for path in ("/private/x", "/private/caf%C3%A9/", "/a.pdf", "/a.pdf?x", "/", "/robots.txt"):
        url = "https://a.com" + path
        assert copy.explain(url) == rules.explain(url)


def test_fixed_decision_round_trips():
    closed = AgentRules.disallow_all("robots.txt returned 403")
    copy = AgentRules.from_dict(closed.to_dict())
    assert not copy.allowed("https://a.com/")
    assert copy.explain("https://a.com/").reason == "robots.txt returned 403"


def _valid() -> dict[str, Any]:
    return RobotsTxt.parse(BODY).for_agent("mybot").to_dict()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda data: data.update(v=1), "version"),
        (lambda data: data.update(v=4), "version"),
        (lambda data: data.pop("rules"), "keys"),
        (lambda data: data.update(extra=1), "keys"),
        (lambda data: data.update(matching="google"), "matching"),
        (lambda data: data.update(group="mybot"), "group"),
        (lambda data: data.update(sitemaps=[1]), "sitemaps"),
        (lambda data: data.update(crawl_delay="1"), "crawl_delay"),
        (lambda data: data.update(crawl_delay=-1), "crawl_delay"),
        (lambda data: data.update(matching=["rfc9309"]), "matching"),
        (lambda data: data.update(fixed="yes"), "fixed"),
        (lambda data: data.update(fixed=True), "reason"),
        (lambda data: data.update(fixed=True, reason="x"), "no rules"),
        (lambda data: data.update(content_signals={}), "content_signals"),
        (lambda data: data["content_signals"].append([3]), "content_signals"),
        (lambda data: data["content_signals"].append([0, "Content-Signal: ai-train=no"]), "content_signals"),
        (lambda data: data["content_signals"].append([True, "Content-Signal: ai-train=no"]), "content_signals"),
        (lambda data: data["content_signals"].append([3, "Disallow: /x"]), "Content-Signal"),
        (lambda data: data["content_signals"].append([3, "Content-Signal: ai-train=maybe"]), "Content-Signal"),
        (lambda data: data["content_signals"].append([3, "Content-Signal: a=no\nDisallow: /"]), "one line"),
        (lambda data: data.update(rules={}), "list"),
        (lambda data: data["rules"].append([True, "/x", 0, "Allow: /x"]), "each rule"),
        (lambda data: data["rules"].append([1, "/x", 3, "Allow: /x"]), "each rule"),
        (lambda data: data["rules"].append([True, "/x", 3]), "each rule"),
        (lambda data: data["rules"].append([True, "/x", 3, "Disallow: /x"]), "does not say"),
        (lambda data: data["rules"].append([False, "/y", 3, "Disallow: /x"]), "does not say"),
        (lambda data: data["rules"].append([False, "/x", 1 << 32, "Disallow: /x"]), "each rule"),
        (lambda data: data["rules"].append([False, "/x\nb", 3, "Disallow : /x\nb"]), "one line"),
        (lambda data: data.update(sitemaps=["https://a.com/a.xml\nhttps://a.com/b.xml"]), "line breaks"),
        (lambda data: data.update(sitemaps=[""]), "non-empty"),
    ],
)
def test_from_dict_rejects_malformed_data(change, message):
    data = _valid()
    change(data)
    with pytest.raises(ValueError, match=message):
        AgentRules.from_dict(data)


def test_from_dict_rejects_a_non_dict():
    with pytest.raises(ValueError, match="must be a dict"):
        AgentRules.from_dict([])  # type: ignore[arg-type]
