"""Every real file of the corpus parses in both modes; a few decisions checked by hand.

The corpus is the full one next to the repository when present, else the sample shipped with
the tests (``tests/corpus.py``); a test about a site the corpus in use lacks is skipped.
"""

from __future__ import annotations

import pytest

from scrapy_robots_rep.core import MATCHING_MODES, AgentRules, RobotsTxt
from tests.corpus import FULL, corpus_dir

CORPUS_DIR = corpus_dir()
CORPUS = CORPUS_DIR / "robots"

needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"corpus not found at {CORPUS}")


def corpus_file(site: str) -> bytes:
    path = CORPUS / f"{site}.txt"
    if not path.is_file():
        pytest.skip(f"{site} is not in the corpus at {CORPUS}")
    return path.read_bytes()


@needs_corpus
@pytest.mark.parametrize("matching", list(MATCHING_MODES))
def test_every_corpus_file_parses_and_decides(matching):
    paths = sorted(CORPUS.glob("*.txt"))
    assert len(paths) > (1000 if CORPUS_DIR == FULL else 0)
    for path in paths:
        robots = RobotsTxt.parse(path.read_bytes(), matching)
        rules = robots.for_agent("mybot")
        for url in ("https://example.com/", "https://example.com/a/b?c=%7e%2F%E3%83", "https://example.com/caf\u00e9"):
            assert rules.explain(url).allowed == rules.allowed(url)
        assert AgentRulesRoundTrip.same(rules)


class AgentRulesRoundTrip:
    @staticmethod
    def same(rules: AgentRules) -> bool:
        return AgentRules.from_dict(rules.to_dict()).to_dict() == rules.to_dict()


@needs_corpus
@pytest.mark.parametrize(
    ("site", "agent", "path", "rfc9309", "legacy"),
    [
        ("4chan.org", "mybot", "/b/", True, False),
        ("4chan.org", "ia_archiver", "/b/", False, False),
        ("twitter.com", "mybot", "/search?q=%23scrapy", True, True),
        ("twitter.com", "mybot", "/home?lang=en", True, True),
        ("twitter.com", "mybot", "/home?x=1", False, True),
        ("twitter.com", "mybot", "/jack/followers", False, True),
        ("twitter.com", "mybot", "/search/realtime", False, False),
        ("github.com", "mybot", "/humans.txt", True, True),
        ("github.com", "mybot", "/scrapy/scrapy", False, False),
        ("github.com", "CCBot", "/scrapy/scrapy/tree/master", True, True),
        ("github.com", "CCBot", "/scrapy/scrapy/tree/2.11", False, True),
        ("99designs.com", "mybot", "/logo-design/contests/x-123/brief", False, True),
        ("99designs.com", "mybot", "/logo-design/contests", True, True),
    ],
)
def test_hand_checked_decisions(site, agent, path, rfc9309, legacy):
    body = corpus_file(site)
    assert RobotsTxt.parse(body).allowed("https://" + site + path, agent) is rfc9309
    assert RobotsTxt.parse(body, "legacy").allowed("https://" + site + path, agent) is legacy


@needs_corpus
def test_twitter_crawl_delay_and_sitemap():
    robots = RobotsTxt.parse(corpus_file("twitter.com"))
    assert robots.for_agent("mybot").crawl_delay == 1.0
    assert robots.sitemaps == ["https://twitter.com/sitemap.xml"]


@needs_corpus
@pytest.mark.parametrize("agent", ["mybot", "Googlebot", "Googlebot/2.1 (+http://www.google.com/bot.html)"])
def test_congress_gov_delay_between_user_agent_lines_keeps_one_group(agent):
    """``User-agent: *`` / ``Crawl-delay: 2`` / ``User-Agent: Googlebot`` / ``Disallow: /search/``
    is one group for both agents (docs/behaviour.md §2). In legacy matching a user-agent line
    after a member line starts a new record, so only Googlebot's record has the rule."""
    body = corpus_file("www.congress.gov")
    rules = RobotsTxt.parse(body).for_agent(agent)
    assert rules.group == ("*", "Googlebot")
    assert not rules.allowed("https://www.congress.gov/search/?q=x")
    assert rules.allowed("https://www.congress.gov/bill/118th-congress")
    assert rules.crawl_delay == 2.0
    legacy = RobotsTxt.parse(body, "legacy").for_agent(agent)
    googlebot = agent.startswith("Googlebot")
    assert legacy.group == (("Googlebot",) if googlebot else ("*",))
    assert legacy.allowed("https://www.congress.gov/search/?q=x") is not googlebot
