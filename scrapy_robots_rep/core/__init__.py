"""The core robots.txt parser and matcher (pure Python, no Scrapy).

``Decision``, ``Rule`` and ``SourceLine`` are imported on first use: a crawl decides by the rules'
index and makes one only to explain a refusal (docs/performance.md, "Process start");
``ExtensionField`` too, which only a crawl with ``REP_EXTENSION_FIELDS`` makes.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from scrapy_robots_rep.core.agent_rules import AgentRules
from scrapy_robots_rep.core.modes import MATCHING_MODES, MatchingMode, matching_mode
from scrapy_robots_rep.core.robots import RobotsTxt

if TYPE_CHECKING:
    from scrapy_robots_rep.core.decision import Decision, Rule, SourceLine
    from scrapy_robots_rep.core.extension_field import ExtensionField

__all__ = [
    "MATCHING_MODES",
    "AgentRules",
    "Decision",
    "ExtensionField",
    "MatchingMode",
    "RobotsTxt",
    "Rule",
    "SourceLine",
    "matching_mode",
]

_ON_FIRST_USE = {
    "Decision": "scrapy_robots_rep.core.decision",
    "Rule": "scrapy_robots_rep.core.decision",
    "SourceLine": "scrapy_robots_rep.core.decision",
    "ExtensionField": "scrapy_robots_rep.core.extension_field",
}


def __getattr__(name: str) -> Any:
    if name in _ON_FIRST_USE:
        return getattr(import_module(_ON_FIRST_USE[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
