"""Requests Scrapy's OffsiteMiddleware filters never reach the robots machinery (docs/behaviour.md §7)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest_twisted
from scrapy import Request
from scrapy.http import Response

from tests.crawling import CrawlingSpider, PageHook, crawl
from tests.sites import Reply, Sites, closed_port_url, text

DEFER_MAX_TIME = 10
"""Had the spider waited for an offsite host's robots.txt, it would have waited this long."""


def links_to(*urls: str) -> PageHook:
    """A page hook following ``urls`` from the start page, as links found on it would be."""

    def follow(response: Response, spider: CrawlingSpider) -> Iterator[Request]:
        if response.url.endswith("/start"):
            yield from (Request(url) for url in urls)

    return follow


@pytest_twisted.ensureDeferred
async def test_offsite_links_fetch_no_robots_txt_and_do_not_hold_the_spider(sites: Sites) -> None:
    home = sites.start({"/robots.txt": text("User-agent: *\nDisallow: /private\n")})
    offsite = sites.start({"/robots.txt": text("User-agent: *\nAllow: /\n")})
    hanging = sites.start({"/robots.txt": Reply(hang=True)})
    dead = closed_port_url(sites.start().host)
    offsite_urls = [f"{offsite.url}/x", f"{hanging.url}/y", f"{dead}/z"]
    home_urls = [f"{home.url}/a", f"{home.url}/private"]
    settings = {"REP_DEFER_MAX_TIME": DEFER_MAX_TIME, "REP_FETCH_TIMEOUT": 1}
    spider_args = {"allowed_domains": [home.host]}
    hook = links_to(*offsite_urls, *home_urls)

    without = await crawl(
        [f"{home.url}/start"], settings={**settings, "DOWNLOADER_MIDDLEWARES": {}}, page=hook, spider_args=spider_args
    )
    for site in (home, offsite, hanging):
        site.log.clear()
    result = await crawl([f"{home.url}/start"], settings=settings, page=hook, spider_args=spider_args)

    assert offsite.hits() == [] and hanging.hits() == []
    assert sorted(home.paths()) == ["/a", "/robots.txt", "/start"]
    assert result.stat("offsite/filtered") == without.stat("offsite/filtered") == len(offsite_urls)
    assert result.stat("rep/robots/fetches") == 1
    assert result.stat("rep/requests/deferred") <= len(home_urls) + 1
    assert result.seconds < DEFER_MAX_TIME, "the spider waited for an offsite host"
