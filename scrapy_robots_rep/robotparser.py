"""``RepRobotParser``: Scrapy's ``RobotParser`` interface over the core parser.

Keep Scrapy's built-in ``RobotsTxtMiddleware`` and set
``ROBOTSTXT_PARSER = "scrapy_robots_rep.RepRobotParser"``; ``REP_MATCHING``
and ``REP_MAX_SIZE`` apply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from scrapy.robotstxt import RobotParser

from scrapy_robots_rep.core import AgentRules, RobotsTxt
from scrapy_robots_rep.core.agent_rules import ActiveRules
from scrapy_robots_rep.policy.settings import rep_settings

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

_ACTIVE_RULES: WeakKeyDictionary[Crawler, ActiveRules] = WeakKeyDictionary()
"""Each crawler's ``ActiveRules``. Scrapy's middleware keeps a parser per domain for the whole
crawl and gives ``from_crawler`` only the crawler, so the parsers of one crawler find their
shared set by it (what the add-on's cache owns as ``MemoryCache.active``)."""


class RepRobotParser(RobotParser):
    """A parsed robots.txt answering Scrapy's ``allowed`` and ``crawl_delay`` questions."""

    def __init__(self, robots: RobotsTxt, active: ActiveRules | None = None) -> None:
        """``active``: the set the rules count in (those read longest ago drop their compiled
        form); without one, the rules keep it as long as the parser lives."""
        self.robots = robots
        self._active = active
        self._by_agent: dict[str, AgentRules] = {}

    @classmethod
    def from_crawler(cls, crawler: Crawler, robotstxt_body: bytes) -> RepRobotParser:
        settings = rep_settings(crawler.settings)
        active = _ACTIVE_RULES.get(crawler)
        if active is None:
            active = _ACTIVE_RULES[crawler] = ActiveRules()
        return cls(RobotsTxt.parse(robotstxt_body, settings.matching, max_size=settings.max_size), active)

    def allowed(self, url: str | bytes, user_agent: str | bytes) -> bool:
        return self._rules(user_agent).allowed(_text(url))

    def crawl_delay(self, user_agent: str | bytes) -> float | None:
        return self._rules(user_agent).crawl_delay

    def _rules(self, user_agent: str | bytes) -> AgentRules:
        """The rules for an agent.

        The core reduces a whole User-Agent header as the middleware does (its
        product token in ``rfc9309`` matching, the robot's whole name in
        ``legacy`` matching); a header without a usable name gets the ``*``
        group, like any unknown agent.
        """
        agent = _text(user_agent)
        rules = self._by_agent.get(agent)
        if rules is None:
            try:
                rules = self.robots.for_agent(agent)
            except ValueError:
                rules = self.robots.for_agent("*")
            if self._active is not None:
                self._active.adopt(rules)
            self._by_agent[agent] = rules
        return rules


def _text(value: str | bytes) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else value
