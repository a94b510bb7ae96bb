"""The core robots.txt parser and matcher (pure Python, no Scrapy)."""

from scrapy_robots_rep.core.agent_rules import AgentRules
from scrapy_robots_rep.core.decision import Decision, Rule
from scrapy_robots_rep.core.modes import MATCHING_MODES
from scrapy_robots_rep.core.robots import RobotsTxt

__all__ = ["MATCHING_MODES", "AgentRules", "Decision", "RobotsTxt", "Rule"]
