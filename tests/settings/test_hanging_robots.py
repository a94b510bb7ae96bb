"""robots.txt fetches never starve page downloads (docs/behaviour.md §5), and REP_FETCH_TIMEOUT
defaults to 30 s rather than DOWNLOAD_TIMEOUT's 180 s."""

from __future__ import annotations

import pytest_twisted
from scrapy.settings import Settings

from scrapy_robots_rep.policy.settings import RepSettings
from tests.crawling import crawl
from tests.sites import Gate, Sites, text

HANGING = 16
PAGES = [f"/h{index}" for index in range(4)]
SETTINGS = {"CONCURRENT_REQUESTS": HANGING, "REP_DEFER_MAX_TIME": 2, "RETRY_ENABLED": False}


@pytest_twisted.ensureDeferred
async def test_sixteen_hanging_robots_txt_do_not_starve_a_healthy_origin(sites: Sites) -> None:
    """As many hanging robots.txt fetches as CONCURRENT_REQUESTS: they hang, unanswered, until the
    healthy origin's pages were all served, then answer 503. Had the fetches taken the crawl's download
    slots, those pages would have waited for them, and the gate's timeout would tell."""
    healthy_served = Gate(needed=len(PAGES))
    hanging = [sites.start({"/robots.txt": healthy_served.hold(text("", status=503))}) for _ in range(HANGING)]
    healthy = sites.start(
        {"/robots.txt": text("User-agent: *\nAllow: /\n")} | {p: healthy_served.opening() for p in PAGES}
    )
    urls = [f"{site.url}/page" for site in hanging] + [f"{healthy.url}{path}" for path in PAGES]

    result = await crawl(urls, settings=SETTINGS)

    assert sorted(result.pages) == sorted(f"{healthy.url}{path}" for path in PAGES)
    assert all(set(site.paths()) == {"/robots.txt"} for site in hanging)
    assert healthy_served.kept_order, "the healthy origin waited for the hanging robots.txt fetches"


def test_the_fetch_timeout_defaults_to_thirty_seconds() -> None:
    assert RepSettings.from_mapping(Settings()).fetch_timeout == 30
