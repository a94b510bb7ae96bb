"""``AgentRules``: one agent's compiled rules for one origin, small and fast.

This is what a per-origin cache holds: the chosen group(s) compiled for
matching, the crawl delay and the sitemaps, not the whole file. Rules are kept
as parallel sequences (see ``rule_index``) rather than one object per rule.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from typing import Any

from scrapy_robots_rep.core.decision import Decision, Rule
from scrapy_robots_rep.core.lines import parse_line
from scrapy_robots_rep.core.modes import FORMAT_VERSION, check_matching
from scrapy_robots_rep.core.paths import normalise_legacy, normalise_rfc9309, plain_url_path, url_path
from scrapy_robots_rep.core.patterns import matches_wildcards, pattern_text
from scrapy_robots_rep.core.rule_index import LINE_STARTS, TEXT_KEPT, RuleRow, build_index
from scrapy_robots_rep.core.serialised import read_agent_rules

REASON_LONGEST_MATCH = "longest match"
REASON_FIRST_MATCH = "first match"
REASON_NO_MATCH = "no rule matched"
REASON_NO_GROUP = "no group for agent, no '*' group"
REASON_ROBOTS_TXT = "robots.txt is always allowed"

_ROBOTS_TXT_PATH = "/robots.txt"
_ROBOTS_TXT_QUERY = _ROBOTS_TXT_PATH + "?"
_GLOBAL_GROUP = ("*",)


class AgentRules:
    """The rules one agent obeys on one origin."""

    __slots__ = (
        "matching",
        "group",
        "crawl_delay",
        "_sitemaps",
        "_verdict",
        "_reason",
        "_patterns",
        "_allow_bits",
        "_ranks",
        "_lines",
        "_text_codes",
        "_texts",
        "_bucket_chars",
        "_bucket_starts",
    )

    matching: str
    group: tuple[str, ...]
    crawl_delay: float | None

    def __init__(
        self,
        matching: str,
        group: tuple[str, ...],
        rules: Iterable[RuleRow],
        *,
        crawl_delay: float | None = None,
        sitemaps: tuple[str, ...] = (),
        verdict: bool | None = None,
        reason: str | None = None,
    ) -> None:
        check_matching(matching)
        self.matching = matching
        # Most origins' group is "*": share one tuple instead of one each.
        self.group = _GLOBAL_GROUP if group == _GLOBAL_GROUP else group
        self.crawl_delay = crawl_delay
        self._sitemaps = "\n".join(sitemaps)
        self._verdict = verdict
        self._reason = reason
        index = build_index(matching, rules)
        self._patterns = index.patterns
        self._allow_bits = index.allow_bits
        self._ranks = index.ranks
        self._lines = index.lines
        self._text_codes = index.text_codes
        self._texts = index.texts
        self._bucket_chars = index.bucket_chars
        self._bucket_starts = index.bucket_starts

    @property
    def sitemaps(self) -> tuple[str, ...]:
        """The file's ``Sitemap:`` URLs, in order (kept as one str, one per line)."""
        return tuple(self._sitemaps.split("\n")) if self._sitemaps else ()

    @classmethod
    def allow_all(cls, reason: str, *, matching: str = "rfc9309") -> AgentRules:
        """Everything is allowed (e.g. robots.txt returned 404)."""
        return cls(matching, (), (), verdict=True, reason=reason)

    @classmethod
    def disallow_all(cls, reason: str, *, matching: str = "rfc9309") -> AgentRules:
        """Nothing is allowed (e.g. a legacy-policy 401/403: site closed to robots)."""
        return cls(matching, (), (), verdict=False, reason=reason)

    def allowed(self, url: str) -> bool:
        """Whether ``url`` (absolute) may be fetched."""
        if self._verdict is not None:
            return self._verdict
        position = self._deciding_entry(url)
        return position < 0 or bool(self._allow_bits >> position & 1)

    def explain(self, url: str) -> Decision:
        """The decision for ``url`` with the deciding rule and the reason."""
        if not isinstance(url, str):
            raise TypeError(f"url must be a str, got {type(url).__name__}")
        if self._verdict is not None:
            return Decision(self._verdict, None, self.group, self._reason)
        position = self._deciding_entry(url)
        if position == -2:
            return Decision(True, None, self.group, REASON_ROBOTS_TXT)
        if position < 0:
            return Decision(True, None, self.group, REASON_NO_MATCH)
        rule = self._rule(position)
        reason = REASON_LONGEST_MATCH if self.matching == "rfc9309" else REASON_FIRST_MATCH
        return Decision(rule.allow, rule, self.group, reason)

    def rules(self) -> tuple[Rule, ...]:
        """The rules kept for this agent, in file order."""
        by_line = {self._lines[position]: position for position in range(len(self._patterns))}
        return tuple(self._rule(by_line[line]) for line in sorted(by_line))

    def _deciding_entry(self, url: str) -> int:
        """Storage position of the deciding entry; -1 when none matches, -2
        when a disallow rule matches /robots.txt itself (always allowed)."""
        try:
            match = plain_url_path(url)
        except TypeError:
            raise TypeError(f"url must be a str, got {type(url).__name__}") from None
        rfc9309 = self.matching == "rfc9309"
        if match is not None:
            path = match[1]
        elif rfc9309:
            path = normalise_rfc9309(url_path(url))
        else:
            path = normalise_legacy(url_path(url))
        patterns = self._patterns
        starts = self._bucket_starts
        found = -1
        second = path[1:2]
        bucket = self._bucket_chars.find(second) if second else -1
        if bucket >= 0:
            for position in range(starts[bucket], starts[bucket + 1]):
                pattern = patterns[position]
                if pattern.__class__ is str:
                    if path.startswith(pattern):
                        found = position
                        break
                elif pattern[-1] in path and matches_wildcards(pattern, path):
                    found = position
                    break
        tried_everywhere = starts[0]
        if found >= 0 and tried_everywhere:
            tried_everywhere = bisect_left(self._ranks, self._ranks[found], 0, tried_everywhere)
        for position in range(tried_everywhere):
            pattern = patterns[position]
            if pattern.__class__ is str:
                if path.startswith(pattern):
                    found = position
                    break
            elif pattern[-1] in path and matches_wildcards(pattern, path):
                found = position
                break
        if (
            rfc9309
            and found >= 0
            and not self._allow_bits >> found & 1
            and (path == _ROBOTS_TXT_PATH or path.startswith(_ROBOTS_TXT_QUERY))
        ):
            return -2
        return found

    def _rule(self, position: int) -> Rule:
        allow = bool(self._allow_bits >> position & 1)
        code = self._text_codes[position]
        if code == TEXT_KEPT:
            text = self._texts.split("\n")[self._text_codes.count(TEXT_KEPT, 0, position)]
            return Rule(allow, parse_line(text, self.matching == "rfc9309")[1], self._lines[position], text)
        pattern = pattern_text(self._patterns[position])
        return Rule(allow, pattern, self._lines[position], LINE_STARTS[code][allow] + pattern)

    def __repr__(self) -> str:
        return f"<AgentRules {self.matching} group={self.group!r} rules={len(self._patterns)}>"

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe plain data; ``from_dict`` rebuilds an equal object."""
        return {
            "v": FORMAT_VERSION,
            "matching": self.matching,
            "group": list(self.group),
            "crawl_delay": self.crawl_delay,
            "sitemaps": list(self.sitemaps),
            "verdict": self._verdict,
            "reason": self._reason,
            "rules": [[rule.allow, rule.pattern, rule.line, rule.text] for rule in self.rules()],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AgentRules:
        """Rebuild from ``to_dict`` output; ValueError when ``data`` is malformed."""
        return read_agent_rules(cls, data)
