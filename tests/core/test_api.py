"""Arguments, crawl delays, size limit and the plain-data form of AgentRules."""

from __future__ import annotations

import json

import pytest

from scrapy_robots_rep import AgentRules as ExportedAgentRules
from scrapy_robots_rep import RobotsTxt as ExportedRobotsTxt
from scrapy_robots_rep.core import MATCHING_MODES, AgentRules, RobotsTxt


def test_package_exports_the_core_objects():
    assert ExportedRobotsTxt is RobotsTxt
    assert ExportedAgentRules is AgentRules
    assert MATCHING_MODES == ("rfc9309", "legacy")


def test_unknown_matching_mode_is_named():
    with pytest.raises(ValueError, match="'rfc9309', 'legacy'.*'google'"):
        RobotsTxt.parse(b"", "google")


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
        robots.for_agent(b"mybot")
    with pytest.raises(ValueError, match="non-empty"):
        robots.allowed("https://a.com/", "  ")


def test_url_must_be_a_str():
    rules = RobotsTxt.parse(b"User-agent: *\nDisallow: /\n").for_agent("mybot")
    with pytest.raises(TypeError, match="url must be a str"):
        rules.allowed(b"https://a.com/")
    with pytest.raises(TypeError, match="url must be a str"):
        rules.explain(None)


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
    body = "User-agent: mybot\nCrawl-delay: 4\n\nUser-agent: *\nCrawl-delay: 60\n\nUser-agent: mybot\nCrawl-delay: 9\n"
    assert RobotsTxt.parse(body).for_agent("mybot").crawl_delay == 9.0
    assert RobotsTxt.parse(body, "legacy").for_agent("mybot").crawl_delay == 4.0
    assert RobotsTxt.parse(body).for_agent("other").crawl_delay == 60.0


def test_crawl_delay_line_closes_the_user_agent_run():
    body = "User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /\n"
    robots = RobotsTxt.parse(body)
    assert robots.allowed("https://a.com/x", "a")
    assert robots.for_agent("a").crawl_delay == 5.0
    assert robots.for_agent("b").crawl_delay is None


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


def test_fixed_verdict_round_trips():
    closed = AgentRules.disallow_all("robots.txt returned 403")
    copy = AgentRules.from_dict(closed.to_dict())
    assert not copy.allowed("https://a.com/")
    assert copy.explain("https://a.com/").reason == "robots.txt returned 403"


def _valid() -> dict:
    return RobotsTxt.parse(BODY).for_agent("mybot").to_dict()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda data: data.update(v=2), "version"),
        (lambda data: data.pop("rules"), "keys"),
        (lambda data: data.update(extra=1), "keys"),
        (lambda data: data.update(matching="google"), "matching"),
        (lambda data: data.update(group="mybot"), "group"),
        (lambda data: data.update(sitemaps=[1]), "sitemaps"),
        (lambda data: data.update(crawl_delay="1"), "crawl_delay"),
        (lambda data: data.update(crawl_delay=-1), "crawl_delay"),
        (lambda data: data.update(verdict="yes"), "verdict"),
        (lambda data: data.update(verdict=True), "reason"),
        (lambda data: data.update(verdict=True, reason="x"), "no rules"),
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
        AgentRules.from_dict([])
