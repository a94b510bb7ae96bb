"""Robots Exclusion Protocol for Scrapy, with its own parser.

The core parser (``RobotsTxt``) needs no Scrapy; the Scrapy-facing names (and
``RedisCache``, which needs the ``redis`` extra) are imported on first use so
that ``from scrapy_robots_rep import RobotsTxt`` works in a process without them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy_robots_rep.core import AgentRules, Decision, Rule, RobotsTxt

if TYPE_CHECKING:
    from scrapy_robots_rep.exceptions import RobotsDisallowed, RobotsUnreachable
    from scrapy_robots_rep.middleware import RobotsMiddleware
    from scrapy_robots_rep.redis_cache import RedisCache
    from scrapy_robots_rep.robotparser import RepRobotParser

__all__ = [
    "AgentRules",
    "Decision",
    "RedisCache",
    "RepRobotParser",
    "RobotsDisallowed",
    "RobotsMiddleware",
    "RobotsTxt",
    "RobotsUnreachable",
    "Rule",
]

_LAZY_NAMES = {
    "RobotsMiddleware": "scrapy_robots_rep.middleware",
    "RobotsDisallowed": "scrapy_robots_rep.exceptions",
    "RobotsUnreachable": "scrapy_robots_rep.exceptions",
    "RepRobotParser": "scrapy_robots_rep.robotparser",
    "RedisCache": "scrapy_robots_rep.redis_cache",
}


def __getattr__(name: str) -> Any:
    module_name = _LAZY_NAMES.get(name)
    if module_name is None:
        raise AttributeError(f"module 'scrapy_robots_rep' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module_name), name)
