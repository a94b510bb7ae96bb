"""The core robots.txt parser and matcher (pure Python, no Scrapy).

``Decision``, ``Rule`` and ``SourceLine`` are imported on first use: a crawl decides by the rules'
index and makes one only to explain a refusal (docs/performance.md, "Process start").
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from scrapy_robots_rep.core.agent_rules import AgentRules
from scrapy_robots_rep.core.fields import ExtensionField
from scrapy_robots_rep.core.modes import MATCHING_MODES, MatchingMode, matching_mode
from scrapy_robots_rep.core.robots import RobotsTxt

if TYPE_CHECKING:
    from scrapy_robots_rep.core.decision import Decision, Rule, SourceLine

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

_ON_FIRST_USE = frozenset({"Decision", "Rule", "SourceLine"})


def __getattr__(name: str) -> Any:
    if name in _ON_FIRST_USE:
        return getattr(import_module("scrapy_robots_rep.core.decision"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
