"""The one invariant every robots.txt must satisfy: all the API's ways of answering agree."""

from __future__ import annotations

import json

from scrapy_robots_rep.core import AgentRules, RobotsTxt


def all_answers(robots: RobotsTxt, url: str, agent: str) -> tuple[bool, ...]:
    """Every way the API can answer "is this URL allowed?", including after a strict JSON round trip."""
    rules = robots.for_agent(agent)
    restored = AgentRules.from_dict(json.loads(json.dumps(rules.to_dict(), allow_nan=False)))
    return (
        robots.allowed(url, agent),
        robots.allowed(url, agent),
        robots.explain(url, agent).allowed,
        rules.allowed(url),
        rules.explain(url).allowed,
        restored.allowed(url),
    )
