"""The core robots.txt parser and matcher (pure Python, no Scrapy)."""

from scrapy_robots_rep.core.agent_rules import AgentRules
from scrapy_robots_rep.core.decision import Decision, Rule, SourceLine
from scrapy_robots_rep.core.fields import ExtensionField
from scrapy_robots_rep.core.modes import MATCHING_MODES, MatchingMode, matching_mode
from scrapy_robots_rep.core.robots import RobotsTxt

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
