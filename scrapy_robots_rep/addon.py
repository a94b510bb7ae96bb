"""``Addon``: the whole set-up in one line, ``ADDONS = {"scrapy_robots_rep.Addon": 0}``.

It enables the robots middleware at priority 100 (unless the project placed it itself), keeps
Scrapy's own robots.txt middleware from running, also when the project keeps the
``ROBOTSTXT_OBEY = True`` that ``scrapy startproject`` writes, enables the page-level spider
middleware, and wraps the HTTP cache policy so that ``noarchive`` pages are never stored
(``docs/behaviour.md`` §7, §10).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware

from scrapy_robots_rep.downloader.middleware import RobotsMiddleware
from scrapy_robots_rep.page.cache_policy import wrap_cache_policy
from scrapy_robots_rep.page.middleware import PageDirectivesMiddleware

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

MIDDLEWARE_PRIORITY = 100
"""After Scrapy's ``OffsiteMiddleware`` (50), before ``HttpCacheMiddleware`` (900)."""
PAGE_PRIORITY = 950
"""Spider middleware closest to the spider: it sees what the callback yields first."""


class Addon:
    """Scrapy add-on enabling scrapy_robots_rep."""

    def update_settings(self, settings: BaseSettings) -> None:
        settings.setdefault_in_component_priority_dict("DOWNLOADER_MIDDLEWARES", RobotsMiddleware, MIDDLEWARE_PRIORITY)
        settings.set_in_component_priority_dict("DOWNLOADER_MIDDLEWARES", RobotsTxtMiddleware, None)
        settings.setdefault_in_component_priority_dict("SPIDER_MIDDLEWARES", PageDirectivesMiddleware, PAGE_PRIORITY)
        if settings.getbool("HTTPCACHE_ENABLED"):
            wrap_cache_policy(settings)
