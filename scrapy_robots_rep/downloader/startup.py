"""Start-up checks and messages of the robots middleware, and where it meets other Scrapy components.

The middleware must see a request after Scrapy's ``OffsiteMiddleware`` filtered it and
before ``HttpCacheMiddleware`` can answer it; one line tells what is in use
(``docs/behaviour.md`` §7).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any
from urllib.request import getproxies

from scrapy.downloadermiddlewares.httpcache import HttpCacheMiddleware
from scrapy.downloadermiddlewares.httpproxy import HttpProxyMiddleware
from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.utils.misc import build_from_crawler, load_object

from scrapy_robots_rep.core.agents import read_agent
from scrapy_robots_rep.core.modes import matching_mode
from scrapy_robots_rep.downloader.said_once import said_once
from scrapy_robots_rep.policy.setting_names import unknown_setting_warnings
from scrapy_robots_rep.policy.settings import SettingsError

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings

    from scrapy_robots_rep.policy.settings import RepSettings
    from scrapy_robots_rep.stores.base import SharedStore

logger = logging.getLogger("scrapy_robots_rep")


@contextmanager
def start_up_errors() -> Iterator[None]:
    """A setting the package cannot use is logged as one ERROR line naming it, and nothing after it.

    The error still ends the crawl (``scrapy crawl`` exits with status 1); it is only kept from being
    printed a second time, with a traceback, by what runs the crawl (:func:`said_once`).
    """
    try:
        yield
    except SettingsError as error:
        logger.error("scrapy_robots_rep cannot start: %s", error)
        said_once(error)
        raise


def warn_unknown_settings(settings: BaseSettings) -> None:
    """One warning per ``REP_*`` name that is not a setting, naming the closest real one."""
    for warning in unknown_setting_warnings(settings):
        logger.warning("%s", warning)


def load_store(crawler: Crawler, path: str | None) -> SharedStore | None:
    """The shared store ``REP_CACHE_BACKEND`` names, or None; a start-up error naming the setting
    when it cannot be loaded."""
    if not path:
        return None
    try:
        cls = load_object(path)
    except (ImportError, AttributeError, NameError, ValueError) as error:
        message = str(error).replace("\n", " ")
        raise SettingsError(f"REP_CACHE_BACKEND {path!r} cannot be loaded: {message}") from error
    store: SharedStore = build_from_crawler(cls, crawler)
    return store


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


def log_start(settings: RepSettings, store: object | None, behind_proxy: bool) -> None:
    """One INFO line with the agent (which setting it came from, how it was read), the modes, the
    cache and, behind a proxy, how addresses are checked; a warning for an agent that cannot match
    or names no robot."""
    mode = matching_mode(settings.matching)
    agent = mode.agent_token(settings.user_agent)
    exempt = ", ".join(settings.exempt_domains) or "none"
    cache = f"memory ({settings.cache_max_origins} origins)"
    if store is not None:
        cache += f" + {getattr(store, 'description', type(store).__name__)}"
    logger.info(
        "Obeying robots.txt as agent %(agent)r (%(source)s %(configured)r, read as %(reading)s), matching "
        "%(matching)s, status policy %(policy)s, cache %(cache)s, exempt domains: %(exempt)s%(proxy)s",
        {
            "agent": agent,
            "source": settings.source("user_agent") or "the default",
            "configured": settings.user_agent,
            "reading": read_agent(settings.user_agent).reading.value,
            "matching": settings.matching,
            "policy": settings.status_policy,
            "cache": cache,
            "exempt": exempt,
            "proxy": PROXY_NOTE if behind_proxy else "",
        },
    )
    problem = mode.agent_problem(settings.user_agent)
    if problem is not None:
        logger.warning("Agent %r: %s", agent, problem)


PROXY_NOTE = (
    "; behind the HTTP proxy, redirects into internal addresses are checked by name and literal only "
    "(the proxy resolves names, and the address an answer came from is the proxy's)"
)
"""The end of the start-up line when a proxy is configured (``docs/behaviour.md`` §5, the address rule)."""


def proxy_configured(settings: BaseSettings) -> bool:
    """Whether ``HttpProxyMiddleware`` is on and the environment names an HTTP(S) proxy.

    A proxy set per request (the ``proxy`` meta key) is seen only when that request is made; the
    fetcher then judges its redirects the same way.
    """
    enabled = settings.getbool("HTTPPROXY_ENABLED") and _priorities(settings).get(HttpProxyMiddleware) is not None
    return enabled and any(scheme in getproxies() for scheme in ("http", "https"))


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
