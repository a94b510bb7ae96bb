"""An origin's robots.txt sitemaps reach the spider without a second robots.txt fetch (docs/behaviour.md §11)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest_twisted
from scrapy import Request
from scrapy.http import Response
from scrapy.spiders import SitemapSpider

from scrapy_robots_rep import RobotsMiddleware, RobotsSitemapSpider
from tests.crawling import CrawlingSpider, crawl
from tests.sites import Site, Sites, text


def sitemap_site(sites: Sites, robots: str = "User-agent: *\nDisallow: /private\nCrawl-delay: 1\n") -> Site:
    site = sites.start()
    urlset = "".join(f"<url><loc>{site.url}{path}</loc></url>" for path in ("/a", "/b", "/private"))
    site.routes.update(
        {
            "/robots.txt": text(f"{robots}Sitemap: {site.url}/sitemap.xml\n"),
            "/sitemap.xml": text(
                f'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{urlset}</urlset>',
                Content_Type="application/xml",
            ),
        }
    )
    return site


class PagesSpider(RobotsSitemapSpider):
    name = "sitemap_pages"
    sitemap_urls = ()

    def parse(self, response: Response) -> Any:
        yield {"url": response.url}


class PlainPagesSpider(SitemapSpider):
    name = "plain_sitemap_pages"
    sitemap_urls = ()

    def parse(self, response: Response) -> Any:
        yield {"url": response.url}


@pytest_twisted.ensureDeferred
async def test_robots_sitemap_spider_reads_the_sitemaps_from_the_one_robots_txt_fetch(sites: Sites) -> None:
    site = sitemap_site(sites)
    result = await crawl(spider=PagesSpider, spider_args={"sitemap_urls": [f"{site.url}/robots.txt"]})
    assert sorted(item["url"] for item in result.items) == [f"{site.url}/a", f"{site.url}/b"]
    assert site.paths().count("/robots.txt") == 1
    assert result.stat("rep/requests/disallowed") == 1
    # Scrapy's own SitemapSpider fetches robots.txt a second time for the same crawl.
    plain = sitemap_site(sites)
    await crawl(spider=PlainPagesSpider, spider_args={"sitemap_urls": [f"{plain.url}/robots.txt"]})
    assert plain.paths().count("/robots.txt") == 2


@pytest_twisted.ensureDeferred
async def test_any_spider_can_ask_the_middleware_for_an_origins_sitemaps(sites: Sites) -> None:
    site = sitemap_site(sites, robots="User-agent: *\nAllow: /\n")
    unreachable = sites.start({"/robots.txt": text("", status=503)})
    found: dict[str, tuple[str, ...]] = {}

    async def ask(response: Response, spider: CrawlingSpider) -> AsyncIterator[Request]:
        middleware = spider.crawler.get_downloader_middleware(RobotsMiddleware)
        assert middleware is not None
        for origin in (site.url, unreachable.url):
            found[origin] = await middleware.sitemaps(origin)
        for url in found[site.url]:
            yield Request(url)

    start = sites.start()
    await crawl([f"{start.url}/"], settings={"REP_DEFER_MAX_TIME": 0}, page=ask)
    assert found == {site.url: (f"{site.url}/sitemap.xml",), unreachable.url: ()}
    assert site.paths() == ["/robots.txt", "/sitemap.xml"]
