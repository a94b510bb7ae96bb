"""Shorthands for the core tests."""

from __future__ import annotations

from scrapy_robots_rep.core import RobotsTxt


def allowed(body: str | bytes, agent: str, url: str, matching: str = "rfc9309") -> bool:
    """Whether ``agent`` may fetch ``url`` under ``body``, asked both ways."""
    robots = RobotsTxt.parse(body, matching)
    whole = robots.allowed(url, agent)
    compact = robots.for_agent(agent).allowed(url)
    assert whole == compact == robots.explain(url, agent).allowed
    return whole
