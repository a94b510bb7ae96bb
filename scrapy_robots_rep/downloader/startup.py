"""Start-up checks and messages of the robots middleware, and where it meets other Scrapy components.

The middleware must see a request after Scrapy's ``OffsiteMiddleware`` filtered it and
before ``HttpCacheMiddleware`` can answer it; one line tells what is in use
(``docs/behaviour.md`` §7).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from scrapy.downloadermiddlewares.httpcache import HttpCacheMiddleware
from scrapy.downloadermiddlewares.offsite import OffsiteMiddleware
from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.utils.misc import load_object

from scrapy_robots_rep.core.modes import matching_mode
from scrapy_robots_rep.policy.settings import SettingsError

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings

    from scrapy_robots_rep.policy.settings import RepSettings

logger = logging.getLogger("scrapy_robots_rep")

AGENT_SETTINGS = ("REP_USER_AGENT", "ROBOTSTXT_USER_AGENT", "USER_AGENT")


def check_order(settings: BaseSettings, middleware: type) -> None:
    """A start-up error when the HTTP cache could answer before robots.txt is checked."""
    priorities = _priorities(settings)
    ours = priorities.get(middleware)
    cache = priorities.get(HttpCacheMiddleware)
    if settings.getbool("HTTPCACHE_ENABLED") and ours is not None and cache is not None and ours >= cache:
        raise SettingsError(
            f"{middleware.__name__} is at priority {ours} in DOWNLOADER_MIDDLEWARES, at or after "
            f"HttpCacheMiddleware ({cache}): cached pages would skip the robots.txt check. "
            f"Give it a priority below {cache} (the add-on uses 100)."
        )
    if settings.getbool("ROBOTSTXT_OBEY") and priorities.get(RobotsTxtMiddleware) is not None:
        logger.warning(
            "ROBOTSTXT_OBEY is True and Scrapy's RobotsTxtMiddleware is enabled beside "
            "%s: robots.txt will be fetched and obeyed twice; set ROBOTSTXT_OBEY = False "
            "or use the add-on, which turns Scrapy's off",
            middleware.__name__,
        )


def log_start(crawler: Crawler, settings: RepSettings, store: object | None) -> None:
    """One INFO line with the agent, the modes and the cache; a warning for an agent that cannot match."""
    mode = matching_mode(settings.matching)
    agent = mode.agent_token(settings.user_agent)
    source = next((name for name in AGENT_SETTINGS if crawler.settings.get(name)), "default")
    exempt = ", ".join(settings.exempt_domains) or "none"
    cache = f"memory ({settings.cache_max_origins} origins)"
    if store is not None:
        cache += f" + {type(store).__name__}"
    logger.info(
        "Obeying robots.txt as agent %(agent)r (from %(source)s), matching %(matching)s, status policy "
        "%(policy)s, cache %(cache)s, exempt domains: %(exempt)s",
        {
            "agent": agent,
            "source": source,
            "matching": settings.matching,
            "policy": settings.status_policy,
            "cache": cache,
            "exempt": exempt,
        },
    )
    problem = mode.agent_problem(settings.user_agent)
    if problem is not None:
        logger.warning("Agent %r: %s", agent, problem)


def offsite_filter(crawler: Crawler) -> Callable[[Request], bool] | None:
    """Whether Scrapy's ``OffsiteMiddleware`` rejects a request (it does so as requests are
    scheduled, and the other handlers of that signal still run), or None when it is not enabled."""
    engine = crawler.engine
    assert engine is not None
    offsite = next(
        (mw for mw in engine.downloader.middleware.middlewares if isinstance(mw, OffsiteMiddleware)),
        None,
    )
    if offsite is None:
        return None
    spider = crawler.spider
    assert spider is not None

    def rejects(request: Request) -> bool:
        return not (request.dont_filter or request.meta.get("allow_offsite") or offsite.should_follow(request, spider))

    return rejects


def _priorities(settings: BaseSettings) -> dict[Any, int | None]:
    """Downloader middleware classes and their priorities (``None`` when disabled)."""
    priorities: dict[Any, int | None] = {}
    for component, priority in settings.getwithbase("DOWNLOADER_MIDDLEWARES").items():
        try:
            cls = load_object(component) if isinstance(component, str) else component
        except (ImportError, NameError, ValueError):
            continue
        priorities[cls] = priority
    return priorities
