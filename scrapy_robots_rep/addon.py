"""``Addon``: the whole set-up in one line, ``ADDONS = {"scrapy_robots_rep.Addon": 0}``.

It enables the robots middleware at priority 100 (unless the project placed it itself), keeps
Scrapy's own robots.txt middleware from running, also when the project keeps the
``ROBOTSTXT_OBEY = True`` that ``scrapy startproject`` writes, enables the page-level spider
middleware, and wraps the HTTP cache policy so that ``noarchive`` pages are never stored
(``docs/behaviour.md`` §7, §10). A ``ROBOTSTXT_OBEY = False`` the user set (at any priority above
Scrapy's default) turns the whole plugin off: it is the switch every Scrapy user knows.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.settings import SETTINGS_PRIORITIES

from scrapy_robots_rep.crawl.scrapy_compat import require_scrapy
from scrapy_robots_rep.downloader.middleware import RobotsMiddleware
from scrapy_robots_rep.page.cache_policy import wrap_cache_policy
from scrapy_robots_rep.page.middleware import PageDirectivesMiddleware

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

SCRAPY_ROBOTS_MIDDLEWARE = f"{RobotsTxtMiddleware.__module__}.{RobotsTxtMiddleware.__name__}"
"""The import path of Scrapy's own robots.txt middleware, as ``DOWNLOADER_MIDDLEWARES_BASE`` names it."""
MIDDLEWARE_PRIORITY = 100
"""After Scrapy's ``OffsiteMiddleware`` (50), before ``HttpCacheMiddleware`` (900)."""
PAGE_PRIORITY = 950
"""Spider middleware closest to the spider: it sees what the callback yields first."""

logger = logging.getLogger("scrapy_robots_rep")


class Addon:
    """Scrapy add-on enabling scrapy_robots_rep."""

    def update_settings(self, settings: BaseSettings) -> None:
        require_scrapy()
        if obey_turned_off(settings):
            logger.info(
                "scrapy_robots_rep is off (ROBOTSTXT_OBEY = False): robots.txt and page directives are not obeyed"
            )
            return
        settings.setdefault_in_component_priority_dict("DOWNLOADER_MIDDLEWARES", RobotsMiddleware, MIDDLEWARE_PRIORITY)
        _disable_scrapy_robots_middleware(settings)
        settings.setdefault_in_component_priority_dict("SPIDER_MIDDLEWARES", PageDirectivesMiddleware, PAGE_PRIORITY)
        if settings.getbool("HTTPCACHE_ENABLED"):
            wrap_cache_policy(settings)


def obey_turned_off(settings: BaseSettings) -> bool:
    """Whether the user set ``ROBOTSTXT_OBEY = False`` (Scrapy's own default, False, does not count)."""
    priority = settings.getpriority("ROBOTSTXT_OBEY") or 0
    return priority > SETTINGS_PRIORITIES["default"] and not settings.getbool("ROBOTSTXT_OBEY")


def _disable_scrapy_robots_middleware(settings: BaseSettings) -> None:
    """Disable Scrapy's ``RobotsTxtMiddleware`` under the import path its base setting uses: before
    Scrapy 2.15 a class key and an import-path key of the same class are two components."""
    middlewares = settings.getdict("DOWNLOADER_MIDDLEWARES")
    for key in [key for key in middlewares if key is RobotsTxtMiddleware or key == SCRAPY_ROBOTS_MIDDLEWARE]:
        del middlewares[key]
    middlewares[SCRAPY_ROBOTS_MIDDLEWARE] = None
    settings.set("DOWNLOADER_MIDDLEWARES", middlewares, settings.getpriority("DOWNLOADER_MIDDLEWARES") or 0)
