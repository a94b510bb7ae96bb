"""``RobotsTxt``: a parsed robots.txt file in one matching mode."""

from __future__ import annotations

from scrapy_robots_rep.core.agent_rules import REASON_NO_GROUP, AgentRules
from scrapy_robots_rep.core.decision import Decision
from scrapy_robots_rep.core.delays import crawl_delay_seconds, request_rate_seconds
from scrapy_robots_rep.core.groups import Group, group_legacy, group_rfc9309, select_legacy, select_rfc9309
from scrapy_robots_rep.core.lines import ALLOW, CRAWL_DELAY, DISALLOW, SITEMAP, decode, read_directives
from scrapy_robots_rep.core.modes import check_matching

DEFAULT_MAX_SIZE = 512_000

# A RobotsTxt is usually asked about one agent; keep the last few compiled.
_COMPILED_AGENTS_KEPT = 8


class RobotsTxt:
    """A robots.txt body parsed in ``rfc9309`` or ``legacy`` matching mode."""

    __slots__ = ("matching", "sitemaps", "_lines", "_groups", "_compiled")

    matching: str
    sitemaps: list[str]

    def __init__(self, matching: str, lines: list[str], groups: list[Group], sitemaps: list[str]) -> None:
        self.matching = matching
        self.sitemaps = sitemaps
        self._lines = lines
        self._groups = groups
        self._compiled: dict[str, AgentRules] = {}

    @classmethod
    def parse(cls, body: bytes | str, matching: str = "rfc9309", *, max_size: int = DEFAULT_MAX_SIZE) -> RobotsTxt:
        """Parse ``body`` (bytes, or an already decoded str)."""
        if not isinstance(body, (bytes, bytearray, memoryview, str)):
            raise TypeError(f"robots.txt body must be bytes or str, got {type(body).__name__}")
        check_matching(matching)
        if isinstance(max_size, bool) or not isinstance(max_size, int) or max_size < 0:
            raise ValueError(f"max_size must be an int >= 0, got {max_size!r}")
        if not isinstance(body, str):
            body = bytes(body)
        lenient = matching == "rfc9309"
        lines, directives = read_directives(decode(body, max_size), lenient)
        sitemaps = [value for _, field, value in directives if field == SITEMAP and value]
        groups = group_rfc9309(directives) if lenient else group_legacy(directives)
        return cls(matching, lines, groups, sitemaps)

    def allowed(self, url: str, agent: str) -> bool:
        """Whether ``agent`` may fetch ``url`` (absolute)."""
        return self.for_agent(agent).allowed(url)

    def explain(self, url: str, agent: str) -> Decision:
        """The decision for ``agent`` on ``url``, with the group, rule and reason."""
        return self.for_agent(agent).explain(url)

    def for_agent(self, agent: str) -> AgentRules:
        """The compact compiled rules ``agent`` obeys (what a cache keeps)."""
        if not isinstance(agent, str):
            raise TypeError(f"agent must be a str, got {type(agent).__name__}")
        compiled = self._compiled.get(agent)
        if compiled is None:
            compiled = self._compile(agent)
            if len(self._compiled) >= _COMPILED_AGENTS_KEPT:
                self._compiled.clear()
            self._compiled[agent] = compiled
        return compiled

    def _compile(self, agent: str) -> AgentRules:
        if not agent.strip():
            raise ValueError("agent must be a non-empty robot name")
        select = select_rfc9309 if self.matching == "rfc9309" else select_legacy
        groups = select(self._groups, agent)
        sitemaps = tuple(self.sitemaps)
        if not groups:
            return AgentRules(self.matching, (), (), sitemaps=sitemaps, verdict=True, reason=REASON_NO_GROUP)
        rules = []
        delays = []
        for group in groups:
            for number, field, value in group.members:
                if field == ALLOW or field == DISALLOW:
                    rules.append((field == ALLOW, value, number, self._lines[number - 1]))
                else:
                    delay = crawl_delay_seconds(value) if field == CRAWL_DELAY else request_rate_seconds(value)
                    if delay is not None:
                        delays.append(delay)
        agents = tuple(value for group in groups for value in group.agents)
        return AgentRules(
            self.matching,
            agents,
            rules,
            crawl_delay=max(delays, default=None),
            sitemaps=sitemaps,
        )

    def __repr__(self) -> str:
        return f"<RobotsTxt {self.matching} groups={len(self._groups)} sitemaps={len(self.sitemaps)}>"
