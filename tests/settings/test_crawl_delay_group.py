"""A Crawl-delay line does not end a user-agent run (RFC 9309 §2.2.4; docs/behaviour.md §3): the
www.congress.gov robots.txt disallows /search/ for every agent."""

from __future__ import annotations

import pytest_twisted

from scrapy_robots_rep.exceptions import RobotsDisallowed
from tests.crawling import crawl
from tests.sites import Sites, text

CONGRESS = "User-agent: *\nCrawl-delay: 2\nUser-Agent: Googlebot\nDisallow: /search/\n"


@pytest_twisted.ensureDeferred
async def test_search_is_never_fetched_by_mybot(sites: Sites) -> None:
    site = sites.start({"/robots.txt": text(CONGRESS)})
    result = await crawl(
        [f"{site.url}/search/?q=bill", f"{site.url}/bill/1", f"{site.url}/search/advanced"],
        settings={"USER_AGENT": "mybot/1.0 (+http://example.test/bot)", "REP_CRAWL_DELAY_MAX": 0.1},
    )
    assert sorted(site.paths()) == ["/bill/1", "/robots.txt"]
    assert result.by_url()[f"{site.url}/search/advanced"].error_type is RobotsDisallowed
    assert result.stat("rep/requests/disallowed") == 2
