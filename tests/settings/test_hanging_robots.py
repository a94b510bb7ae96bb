"""robots.txt fetches never starve page downloads (docs/behaviour.md §5), and REP_FETCH_TIMEOUT
defaults to 30 s rather than DOWNLOAD_TIMEOUT's 180 s."""

from __future__ import annotations

import pytest_twisted
from scrapy.settings import Settings

from scrapy_robots_rep.policy.settings import RepSettings
from tests.crawling import crawl
from tests.settings.measure import first_page_after
from tests.sites import PAGE, Reply, Site, Sites

HANGING = 16
SETTINGS = {"CONCURRENT_REQUESTS": 16, "REP_FETCH_TIMEOUT": 3, "REP_DEFER_MAX_TIME": 2, "RETRY_ENABLED": False}


def healthy_site(sites: Sites) -> Site:
    """An origin whose robots.txt takes 0.5 s, so that its first page comes at a measurable time."""
    robots = Reply(body=b"User-agent: *\nAllow: /\n", headers={"Content-Type": "text/plain"}, delay=0.5)
    return sites.start({"/robots.txt": robots, **{f"/h{index}": Reply(body=PAGE) for index in range(4)}})


@pytest_twisted.ensureDeferred
async def test_sixteen_hanging_robots_txt_do_not_starve_a_healthy_origin(sites: Sites) -> None:
    alone_site = healthy_site(sites)
    alone = await crawl([f"{alone_site.url}/h{index}" for index in range(4)], settings=SETTINGS)
    alone_time = first_page_after(alone_site, alone.started)

    hanging = [sites.start({"/robots.txt": Reply(hang=True)}) for _ in range(HANGING)]
    healthy = healthy_site(sites)
    urls = [f"{site.url}/page" for site in hanging] + [f"{healthy.url}/h{index}" for index in range(4)]
    beside = await crawl(urls, settings=SETTINGS)
    beside_time = first_page_after(healthy, beside.started)

    print(f"\nhealthy origin's first page: {alone_time:.2f} s alone, {beside_time:.2f} s beside {HANGING} hanging")
    assert len(beside.pages) == 4
    assert all(site.paths() == ["/robots.txt"] for site in hanging)
    assert beside_time < 2 * alone_time


def test_the_fetch_timeout_defaults_to_thirty_seconds() -> None:
    assert RepSettings.from_mapping(Settings()).fetch_timeout == 30
