"""Robots Exclusion Protocol for Scrapy, with its own parser.

The core parsers (``RobotsTxt``, ``PageDirectives``) need no Scrapy; the Scrapy-facing
names (and ``RedisStore``, which needs the ``redis`` client) are imported on first use so
that ``from scrapy_robots_rep import RobotsTxt`` works in a process without them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy_robots_rep.core import AgentRules, Decision, RobotsTxt, Rule
from scrapy_robots_rep.core.page import PageDirectives

if TYPE_CHECKING:
    from scrapy_robots_rep.addon import Addon
    from scrapy_robots_rep.downloader.middleware import RobotsMiddleware
    from scrapy_robots_rep.exceptions import RobotsDisallowed, RobotsUnreachable
    from scrapy_robots_rep.page.cache_policy import RobotsCachePolicy
    from scrapy_robots_rep.page.middleware import PageDirectivesMiddleware
    from scrapy_robots_rep.robotparser import RepRobotParser
    from scrapy_robots_rep.spiders import RobotsSitemapSpider
    from scrapy_robots_rep.stores import MemoryStore, RedisStore, SharedStore

__all__ = [
    "Addon",
    "AgentRules",
    "Decision",
    "MemoryStore",
    "PageDirectives",
    "PageDirectivesMiddleware",
    "RedisStore",
    "RepRobotParser",
    "RobotsCachePolicy",
    "RobotsDisallowed",
    "RobotsMiddleware",
    "RobotsSitemapSpider",
    "RobotsTxt",
    "RobotsUnreachable",
    "Rule",
    "SharedStore",
]

_LAZY_NAMES = {
    "Addon": "scrapy_robots_rep.addon",
    "MemoryStore": "scrapy_robots_rep.stores",
    "PageDirectivesMiddleware": "scrapy_robots_rep.page.middleware",
    "RedisStore": "scrapy_robots_rep.stores",
    "RepRobotParser": "scrapy_robots_rep.robotparser",
    "RobotsCachePolicy": "scrapy_robots_rep.page.cache_policy",
    "RobotsDisallowed": "scrapy_robots_rep.exceptions",
    "RobotsMiddleware": "scrapy_robots_rep.downloader.middleware",
    "RobotsSitemapSpider": "scrapy_robots_rep.spiders",
    "RobotsUnreachable": "scrapy_robots_rep.exceptions",
    "SharedStore": "scrapy_robots_rep.stores",
}


def __getattr__(name: str) -> Any:
    module_name = _LAZY_NAMES.get(name)
    if module_name is None:
        raise AttributeError(f"module 'scrapy_robots_rep' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module_name), name)
