"""RepRobotParser behind Scrapy's built-in RobotsTxtMiddleware (ROBOTSTXT_PARSER)."""

from __future__ import annotations

import pytest
import pytest_twisted
from scrapy.utils.test import get_crawler

from scrapy_robots_rep import RepRobotParser
from tests.crawling import crawl
from tests.sites import Sites, text

ROBOTS = "User-agent: bot\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\nCrawl-delay: 2\n"
BUILT_IN = {
    "DOWNLOADER_MIDDLEWARES": {},
    "ROBOTSTXT_OBEY": True,
    "ROBOTSTXT_PARSER": "scrapy_robots_rep.RepRobotParser",
    "USER_AGENT": "Robot/1.0",
}


@pytest.mark.parametrize(("matching", "disallowed"), [("rfc9309", "/b"), ("legacy", "/a")])
@pytest_twisted.ensureDeferred
async def test_built_in_middleware_with_rep_robot_parser(matching: str, disallowed: str, sites: Sites) -> None:
    site = sites.start({"/robots.txt": text(ROBOTS)})
    result = await crawl([f"{site.url}/a", f"{site.url}/b"], settings={**BUILT_IN, "REP_MATCHING": matching})
    allowed = "/a" if disallowed == "/b" else "/b"
    assert sorted(site.paths()) == sorted(["/robots.txt", allowed])
    assert result.stats["robotstxt/forbidden"] == 1
    assert not any(key.startswith("rep/") for key in result.stats)


@pytest.mark.parametrize(("matching", "delay"), [("rfc9309", 2.0), ("legacy", None)])
def test_parser_interface(matching: str, delay: float | None) -> None:
    crawler = get_crawler(settings_dict={"REP_MATCHING": matching})
    parser = RepRobotParser.from_crawler(crawler, ROBOTS.encode())
    assert parser.allowed(b"http://h/a", b"Robot/1.0") is (matching == "rfc9309")
    assert parser.allowed("http://h/b", "Robot/1.0") is (matching == "legacy")
    assert parser.crawl_delay("Robot/1.0") == delay
    assert parser.robots.matching == matching


def test_the_parsers_of_one_crawler_share_one_set_of_active_rules() -> None:
    """Two crawlers of one process never drop each other's compiled rules."""
    crawlers = [get_crawler(), get_crawler()]
    parsers = [RepRobotParser.from_crawler(crawler, ROBOTS.encode()) for crawler in crawlers for _ in range(2)]
    for parser in parsers:
        assert not parser.allowed("http://h/b", "Robot/1.0")
    actives = [parser._by_agent["Robot/1.0"]._active for parser in parsers]
    assert actives[0] is not None and actives[2] is not None
    assert actives[0] is actives[1] and actives[2] is actives[3] and actives[0] is not actives[2]
