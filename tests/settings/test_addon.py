"""The add-on is the whole set-up (robots.txt, page directives, the HTTP cache policy), even beside the ROBOTSTXT_OBEY = True that `scrapy startproject`
writes; exempt domains are never checked; Scrapy's own robotstxt/* stats are kept
(docs/behaviour.md §7)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest_twisted
from scrapy import Request
from scrapy.http import Response

from scrapy_robots_rep.exceptions import RobotsDisallowed
from tests.crawling import CrawlingSpider, crawl
from tests.page.pages import html, links, meta
from tests.page.test_cache import cached_paths
from tests.sites import Sites, loopback_test_names, text

RULES = "User-agent: *\nDisallow: /private\n"
ADDON = {"DOWNLOADER_MIDDLEWARES": {}, "ADDONS": {"scrapy_robots_rep.Addon": 0}, "ROBOTSTXT_OBEY": True}


@pytest_twisted.ensureDeferred
async def test_the_addon_alone_enables_the_plugin_quietly_and_robots_txt_is_fetched_once(sites: Sites) -> None:
    site = sites.start({"/robots.txt": text(RULES)})
    urls = [f"{site.url}/page", f"{site.url}/private", f"{site.url}/other"]
    result = await crawl(urls, settings=ADDON, loggers=("scrapy_robots_rep", "scrapy"))
    assert sorted(site.paths()) == ["/other", "/page", "/robots.txt"]
    assert result.by_url()[f"{site.url}/private"].error_type is RobotsDisallowed
    assert result.stat("rep/requests/disallowed") == 1
    assert result.stat("rep/robots/fetches") == 1
    assert result.messages(logging.WARNING) == [], "a crawl that asks for nothing optional warns about nothing"


@pytest_twisted.ensureDeferred
async def test_exempt_domains_are_never_checked(sites: Sites) -> None:
    blocked = "User-agent: *\nDisallow: /\n"
    site = sites.start({"/robots.txt": text(blocked)}, host="127.0.0.1")
    exempt = [f"http://api.test:{site.port}/x", f"http://v2.api.test:{site.port}/y"]
    checked = f"http://www.test:{site.port}/z"
    with loopback_test_names():
        result = await crawl([*exempt, checked], settings={"REP_EXEMPT_DOMAINS": ["api.test"]})
    hosts = [(hit.headers["Host"].split(":")[0], hit.path) for hit in site.hits()]
    assert sorted(hosts) == [("api.test", "/x"), ("v2.api.test", "/y"), ("www.test", "/robots.txt")]
    assert sorted(result.pages) == sorted(exempt)
    assert result.by_url()[checked].error_type is RobotsDisallowed


@pytest_twisted.ensureDeferred
async def test_scrapy_robotstxt_stats_are_kept(sites: Sites) -> None:
    rules = sites.start({"/robots.txt": text(RULES)})
    missing = sites.start({"/robots.txt": text("", status=404)})
    urls = [f"{rules.url}/private/1", f"{rules.url}/private/2", f"{rules.url}/page", f"{missing.url}/page"]
    result = await crawl(urls)
    robotstxt = {key: value for key, value in result.stats.items() if key.startswith("robotstxt/")}
    assert robotstxt == {
        "robotstxt/request_count": 2,
        "robotstxt/response_count": 2,
        "robotstxt/response_status_count/200": 1,
        "robotstxt/response_status_count/404": 1,
        "robotstxt/forbidden": 2,
    }


@pytest_twisted.ensureDeferred
async def test_the_addon_also_obeys_page_directives_and_keeps_noarchive_pages_out_of_the_cache(
    sites: Sites, tmp_path: Path
) -> None:
    site = sites.start(
        {
            "/robots.txt": text(RULES),
            "/nofollow": html(meta("nofollow") + links("/linked"), Cache_Control="max-age=3600"),
            "/noarchive": html(meta("noarchive"), Cache_Control="max-age=3600"),
            "/linked": html(),
        }
    )
    settings = {**ADDON, "HTTPCACHE_ENABLED": True, "HTTPCACHE_DIR": str(tmp_path)}
    result = await crawl([f"{site.url}/nofollow", f"{site.url}/noarchive"], settings=settings, page=follow_links)
    assert "/linked" not in site.paths()
    assert result.stat("rep/page/requests_dropped/nofollow") == 1
    assert result.crawler.settings["HTTPCACHE_POLICY"] == "scrapy_robots_rep.page.cache_policy.RobotsCachePolicy"
    assert cached_paths(tmp_path, site.url) == {"/nofollow"}


def follow_links(response: Response, spider: CrawlingSpider) -> Iterator[Request]:
    for href in response.css("a::attr(href)").getall():
        yield response.follow(href)
