"""``RobotsTxt``: a parsed robots.txt file in one matching mode.

Parsing decodes the body; the rest is read when asked. ``for_agent`` in
``rfc9309`` mode reads only what the agent needs (``scan``), which is what a
crawler asks per origin; the groups of the whole file are built only when
``legacy`` matching (or a text whose lower-casing moves characters) needs them.
"""

from __future__ import annotations

from collections.abc import Iterable

from scrapy_robots_rep.core.agent_rules import REASON_NO_GROUP, AgentRules, LineNumbers, line_numbers
from scrapy_robots_rep.core.decision import Decision
from scrapy_robots_rep.core.groups import Group
from scrapy_robots_rep.core.lines import LICENSE, SITEMAP, decode, read_directives
from scrapy_robots_rep.core.members import collect
from scrapy_robots_rep.core.modes import RFC9309, MatchingMode, matching_mode
from scrapy_robots_rep.core.scan import licenses as find_licenses
from scrapy_robots_rep.core.scan import lowered, scan_rfc9309
from scrapy_robots_rep.core.scan import sitemaps as find_sitemaps

DEFAULT_MAX_SIZE = 512_000

# A RobotsTxt is usually asked about one agent; keep the last few compiled.
_COMPILED_AGENTS_KEPT = 8


class RobotsTxt:
    """A robots.txt body parsed in ``rfc9309`` or ``legacy`` matching mode."""

    __slots__ = ("_compiled", "_grouped", "_licenses", "_low", "_mode", "_sitemaps", "_text")

    def __init__(self, mode: MatchingMode, text: str) -> None:
        self._mode = mode
        self._text = text
        self._low = lowered(text)
        self._sitemaps: list[str] | None = None
        self._licenses: list[str] | None = None
        self._grouped: tuple[list[str], list[Group]] | None = None
        self._compiled: dict[str, AgentRules] = {}

    @classmethod
    def parse(cls, body: bytes | str, matching: str = "rfc9309", *, max_size: int = DEFAULT_MAX_SIZE) -> RobotsTxt:
        """Parse ``body`` (bytes, or an already decoded str)."""
        if not isinstance(body, (bytes, bytearray, memoryview, str)):
            raise TypeError(f"robots.txt body must be bytes or str, got {type(body).__name__}")
        mode = matching_mode(matching)
        if isinstance(max_size, bool) or not isinstance(max_size, int) or max_size < 0:
            raise ValueError(f"max_size must be an int >= 0, got {max_size!r}")
        if not isinstance(body, str):
            body = bytes(body)
        return cls(mode, decode(body, max_size))

    @property
    def matching(self) -> str:
        """The matching mode's name (``rfc9309`` or ``legacy``)."""
        return self._mode.name

    @property
    def sitemaps(self) -> list[str]:
        """The file's ``Sitemap:`` URLs, in order, whatever group they sit in."""
        if self._sitemaps is None:
            if self._low is not None:
                self._sitemaps = find_sitemaps(self._text, self._low, self._mode.lenient)
            else:
                _, directives = read_directives(self._text, self._mode.lenient)
                self._sitemaps = [value for _, field, value in directives if field == SITEMAP and value]
        return self._sitemaps

    @property
    def licenses(self) -> list[str]:
        """The file's ``License:`` URLs (RSL 1.0), in order, whatever group they sit in."""
        if self._licenses is None:
            if self._low is not None:
                self._licenses = find_licenses(self._text, self._low, self._mode.lenient)
            else:
                _, directives = read_directives(self._text, self._mode.lenient)
                self._licenses = [value for _, field, value in directives if field == LICENSE and value]
        return self._licenses

    def allowed(self, url: str, agent: str) -> bool:
        """Whether ``agent`` may fetch ``url`` (absolute)."""
        return self.for_agent(agent).allowed(url)

    def explain(self, url: str, agent: str, purposes: Iterable[str] = ()) -> Decision:
        """The decision for ``agent`` on ``url``, with the group, rule and reason; with
        ``purposes`` declared, also refused when robots.txt ``Content-Signal`` and
        ``Content-Usage`` say no to every one of them (the Content-Usage rule named)."""
        return self.for_agent(agent).explain(url, purposes)

    def for_agent(self, agent: str) -> AgentRules:
        """The compact rules ``agent`` obeys (what a cache keeps).

        ``agent`` is the configured robot name, reduced as the mode says
        (``rfc9309``: ``mybot/1.0 (+https://x)`` is ``mybot``)."""
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
        mode = self._mode
        token = mode.agent_token(agent)
        if not token:
            raise ValueError(
                f"agent must be a non-empty robot name, got {agent!r}: give the robot's name first, "
                "e.g. 'mybot' or 'mybot/1.0 (+https://example.com/bot)'"
            )
        sitemaps = tuple(self.sitemaps)
        licenses = tuple(self.licenses)
        if mode is RFC9309 and self._low is not None:
            found = scan_rfc9309(self._text, self._low, token)
            if not found.spans:
                return AgentRules(
                    mode.name, (), sitemaps=sitemaps, licenses=licenses, fixed=True, reason=REASON_NO_GROUP
                )
            numbers: LineNumbers
            if len(found.spans) == 1:
                numbers, source = found.spans[0]
            else:
                numbers = line_numbers(
                    [first + offset for first, text in found.spans for offset in range(text.count("\n") + 1)]
                )
                source = "\n".join(text for _, text in found.spans)
            return AgentRules(
                mode.name,
                tuple(found.agents),
                source,
                numbers,
                crawl_delay=max(found.delays) if found.delays else None,
                sitemaps=sitemaps,
                content_signal_lines=tuple(found.signal_lines),
                content_usage_lines=tuple(found.usage_lines),
                licenses=licenses,
            )
        lines, groups = self._groups()
        chosen = mode.select(groups, token)
        if not chosen:
            return AgentRules(mode.name, (), sitemaps=sitemaps, licenses=licenses, fixed=True, reason=REASON_NO_GROUP)
        collected = collect([group.members for group in chosen], lines)
        return AgentRules.from_lines(
            mode.name,
            tuple(value for group in chosen for value in group.agents),
            collected.rule_lines,
            crawl_delay=max(collected.delays, default=None),
            sitemaps=sitemaps,
            content_signal_lines=tuple(collected.content_signal_lines),
            content_usage_lines=tuple(collected.content_usage_lines),
            licenses=licenses,
        )

    def _groups(self) -> tuple[list[str], list[Group]]:
        """The file's lines and all its groups (read once, when first needed)."""
        if self._grouped is None:
            lines, directives = read_directives(self._text, self._mode.lenient)
            self._grouped = lines, self._mode.group(directives)
        return self._grouped

    def __repr__(self) -> str:
        return f"<RobotsTxt {self.matching} groups={len(self._groups()[1])} sitemaps={len(self.sitemaps)}>"
