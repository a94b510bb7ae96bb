"""``RobotsCachePolicy``: an ``HTTPCACHE_POLICY`` that never stores ``noarchive``/``nocache`` pages.

It wraps the policy named by ``REP_HTTPCACHE_POLICY`` (default Scrapy's ``DummyPolicy``) and
defers every decision to it, except that a response whose ``X-Robots-Tag`` or robots meta tags
say ``noarchive`` (or Bing's ``nocache``) for this agent is never stored, and a copy stored
before the wrapper was in place is never served as fresh (docs/behaviour.md §10).
:func:`wrap_cache_policy` installs it over whatever policy a project configured.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from scrapy.settings import SETTINGS_PRIORITIES
from scrapy.utils.misc import load_object

from scrapy_robots_rep.core.page import PageDirectives
from scrapy_robots_rep.crawl.settings import rep_settings
from scrapy_robots_rep.policy.settings import DEFAULT_HTTPCACHE_POLICY, SettingsError, configured_source
from scrapy_robots_rep.policy.settings_table import SETTING_FOR

if TYPE_CHECKING:
    from scrapy.http import Request, Response
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)

POLICY_PATH = "scrapy_robots_rep.page.cache_policy.RobotsCachePolicy"


class RobotsCachePolicy:
    """Scrapy's cache-policy interface, delegating to ``REP_HTTPCACHE_POLICY`` (see module docstring)."""

    def __init__(self, settings: BaseSettings) -> None:
        rep = rep_settings(settings)
        wrapped_class = load_object(rep.httpcache_policy)
        if isinstance(wrapped_class, type) and issubclass(wrapped_class, RobotsCachePolicy):
            raise SettingsError(
                "REP_HTTPCACHE_POLICY names RobotsCachePolicy itself; set it to the policy to wrap, "
                f"e.g. {DEFAULT_HTTPCACHE_POLICY!r} or 'scrapy.extensions.httpcache.RFC2616Policy'"
            )
        self.wrapped: Any = wrapped_class(settings)
        self.enabled = rep.page_directives
        self.agent = rep.user_agent

    def should_cache_request(self, request: Request) -> bool:
        return bool(self.wrapped.should_cache_request(request))

    def should_cache_response(self, response: Response, request: Request) -> bool:
        if self._forbids_archiving(response):
            return False
        return bool(self.wrapped.should_cache_response(response, request))

    def is_cached_response_fresh(self, cachedresponse: Response, request: Request) -> bool:
        if self._forbids_archiving(cachedresponse):
            return False
        return bool(self.wrapped.is_cached_response_fresh(cachedresponse, request))

    def is_cached_response_valid(self, cachedresponse: Response, response: Response, request: Request) -> bool:
        # A 304 carries no body: only the stored copy can answer it (and it is then not stored again).
        if response.status != 304 and (self._forbids_archiving(cachedresponse) or self._forbids_archiving(response)):
            return False
        return bool(self.wrapped.is_cached_response_valid(cachedresponse, response, request))

    def _forbids_archiving(self, response: Response) -> bool:
        if not self.enabled:
            return False
        page = PageDirectives.from_response(response, agent=self.agent)
        if page.noarchive:
            logger.debug("Keeping %s out of the HTTP cache: %s", response.url, page.why("noarchive"))
        return page.noarchive


def wrap_cache_policy(settings: BaseSettings) -> None:
    """Make :class:`RobotsCachePolicy` the ``HTTPCACHE_POLICY``, wrapping the one configured.

    For an add-on's ``update_settings``: the configured policy moves to ``REP_HTTPCACHE_POLICY``
    (unless that is set already) and the wrapper takes its place at the same priority, so a
    project's own ``HTTPCACHE_POLICY`` keeps deciding everything but ``noarchive``.
    """
    configured = settings.get("HTTPCACHE_POLICY") or DEFAULT_HTTPCACHE_POLICY
    policy_class = load_object(configured)
    if isinstance(policy_class, type) and issubclass(policy_class, RobotsCachePolicy):
        return
    priority = max(settings.getpriority("HTTPCACHE_POLICY") or 0, SETTINGS_PRIORITIES["addon"])
    if configured_source(settings, "httpcache_policy") is None:
        settings.set(SETTING_FOR["httpcache_policy"].name, configured, priority=priority)
    settings.set("HTTPCACHE_POLICY", POLICY_PATH, priority=priority)
