"""Every real file of the shared corpus parses in both modes; a few decisions checked by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from scrapy_robots_rep.core import MATCHING_MODES, RobotsTxt

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "robots"

needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"corpus not found at {CORPUS}")


def corpus_file(site: str) -> bytes:
    return (CORPUS / f"{site}.txt").read_bytes()


@needs_corpus
@pytest.mark.parametrize("matching", MATCHING_MODES)
def test_every_corpus_file_parses_and_decides(matching):
    paths = sorted(CORPUS.glob("*.txt"))
    assert len(paths) > 1000
    for path in paths:
        robots = RobotsTxt.parse(path.read_bytes(), matching)
        rules = robots.for_agent("mybot")
        for url in ("https://example.com/", "https://example.com/a/b?c=%7e%2F%E3%83", "https://example.com/caf\u00e9"):
            assert rules.explain(url).allowed == rules.allowed(url)
        assert AgentRulesRoundTrip.same(rules)


class AgentRulesRoundTrip:
    @staticmethod
    def same(rules) -> bool:
        return type(rules).from_dict(rules.to_dict()).to_dict() == rules.to_dict()


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
