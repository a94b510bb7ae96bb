"""``RobotsSitemapSpider``: Scrapy's ``SitemapSpider``, reading robots.txt sitemaps from the middleware.

A ``SitemapSpider`` with ``<origin>/robots.txt`` in ``sitemap_urls`` requests that robots.txt
itself: a second fetch beside the one the robots middleware makes, which also waits for the
origin's Crawl-delay. This subclass asks the middleware instead (``RobotsMiddleware.sitemaps``),
so each robots.txt is fetched once and its ``Sitemap:`` URLs go straight to the sitemap parser
(``docs/behaviour.md`` §11). Every other entry of ``sitemap_urls`` is requested as usual.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

from scrapy import Request
from scrapy.spiders import SitemapSpider

from scrapy_robots_rep.downloader.middleware import RobotsMiddleware
from scrapy_robots_rep.policy.origin import origin_of


class RobotsSitemapSpider(SitemapSpider):
    """``SitemapSpider`` whose robots.txt entries are answered by the robots middleware's own fetch."""

    async def start(self) -> AsyncIterator[Any]:
        middleware = self.crawler.get_downloader_middleware(RobotsMiddleware)
        for url in self.sitemap_urls:
            origin = origin_of(url)
            if middleware is None or origin is None or urlsplit(url).path != "/robots.txt":
                yield Request(url, self._parse_sitemap)
                continue
            for sitemap in await middleware.sitemaps(origin):
                yield Request(sitemap, self._parse_sitemap)
