"""The end-of-crawl report: per origin, what robots.txt said and what became of its requests.

Plain data built from the crawl's accounting (``docs/behaviour.md`` §11): written to the log
in short, and whole as JSON with ``REP_REPORT``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from scrapy_robots_rep.core import AgentRules
from scrapy_robots_rep.policy.accounting import OriginCounts

REPORT_VERSION = 1
LISTED_IN_LOG = 10
"""Origins named per line of the log summary; the JSON report has them all."""
_EVERY_PATH = re.compile(r"/?(\*+\$?)?")
"""Rule patterns that match every path: ``/``, ``/*``, ``*``, ``/*$`` (and ``""``, legacy ``Disallow:``)."""


@dataclass(slots=True)
class RobotsSeen:
    """The last robots.txt answer of one origin."""

    outcome: str
    status: int | None
    reason: str
    blocks_everything: bool
    """The rules disallow every path for the agent (e.g. ``Disallow: /``, or a legacy 401/403)."""
    licenses: tuple[str, ...] = ()
    """The file's RSL ``License:`` URLs (reported, never enforced)."""


@dataclass(frozen=True, slots=True)
class OriginSummary:
    """One origin's line of the report."""

    origin: str
    robots: RobotsSeen | None
    allowed: int
    disallowed: int
    dropped_unreachable: int
    deferred: int
    still_waiting: int
    crawl_delay: float | None = None
    """The delay robots.txt asked for, in seconds."""
    delay_applied: float | None = None
    """The delay applied to the origin's downloader slot (capped at ``REP_CRAWL_DELAY_MAX``)."""
    refused_purposes: dict[str, int] = field(default_factory=dict)
    """Of ``disallowed``: requests refused for ``REP_PURPOSES``, by the robots.txt line that refused
    them (a ``Content-Usage`` rule, or ``Content-Signal``)."""


@dataclass(frozen=True, slots=True)
class CrawlReport:
    """Every origin the crawl checked."""

    origins: list[OriginSummary] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"v": REPORT_VERSION, "origins": [asdict(summary) for summary in self.origins]}

    def lines(self) -> list[tuple[bool, str]]:
        """The short log summary, as (loud, text): loud lines say an origin is closed to the crawl."""
        lines: list[tuple[bool, str]] = []
        blocked = [s for s in self.origins if s.robots is not None and s.robots.blocks_everything]
        unreachable = [s for s in self.origins if s.dropped_unreachable or s.still_waiting]
        delayed = [s for s in self.origins if s.delay_applied]
        licensed = [s for s in self.origins if s.robots is not None and s.robots.licenses]
        refusing = [s for s in self.origins if s.refused_purposes]
        total = sum(s.allowed + s.disallowed + s.dropped_unreachable for s in self.origins)
        lines.append(
            (
                False,
                f"robots.txt report: {len(self.origins)} origins, {total} requests decided: "
                f"{sum(s.allowed for s in self.origins)} allowed, {sum(s.disallowed for s in self.origins)} "
                f"disallowed, {sum(s.dropped_unreachable for s in self.origins)} dropped as unreachable, "
                f"{sum(s.still_waiting for s in self.origins)} still waiting",
            )
        )
        for summary in blocked:
            why = summary.robots.reason if summary.robots else ""
            text = f"{summary.origin} blocks this crawler entirely ({why}): {summary.disallowed} requests disallowed"
            lines.append((True, text))
        if unreachable:
            named = ", ".join(
                f"{s.origin} ({s.dropped_unreachable} dropped, {s.still_waiting} waiting)"
                for s in unreachable[:LISTED_IN_LOG]
            )
            more = f" and {len(unreachable) - LISTED_IN_LOG} more" if len(unreachable) > LISTED_IN_LOG else ""
            lines.append((True, f"robots.txt could not be obtained for {len(unreachable)} origins: {named}{more}"))
        if delayed:
            named = ", ".join(_delay_text(s) for s in delayed[:LISTED_IN_LOG])
            more = f" and {len(delayed) - LISTED_IN_LOG} more" if len(delayed) > LISTED_IN_LOG else ""
            lines.append((False, f"Crawl-delay applied to {len(delayed)} origins: {named}{more}"))
        if refusing:
            named = ", ".join(_refusals_text(s) for s in refusing[:LISTED_IN_LOG])
            more = f" and {len(refusing) - LISTED_IN_LOG} more" if len(refusing) > LISTED_IN_LOG else ""
            count = sum(sum(s.refused_purposes.values()) for s in refusing)
            lines.append((False, f"REP_PURPOSES refused {_count(count, 'request')} before download: {named}{more}"))
        if licensed:
            named = ", ".join(
                f"{s.origin} ({', '.join(s.robots.licenses)})" for s in licensed[:LISTED_IN_LOG] if s.robots
            )
            more = f" and {len(licensed) - LISTED_IN_LOG} more" if len(licensed) > LISTED_IN_LOG else ""
            lines.append((False, f"RSL licences declared by {_count(len(licensed), 'origin')}: {named}{more}"))
        return lines


def _refusals_text(summary: OriginSummary) -> str:
    by_line = ", ".join(f"{count} by {source}" for source, count in summary.refused_purposes.items())
    return f"{summary.origin} ({by_line})"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _delay_text(summary: OriginSummary) -> str:
    asked = f" (asked {summary.crawl_delay:g}s)" if summary.crawl_delay != summary.delay_applied else ""
    return f"{summary.origin} {summary.delay_applied:g}s{asked}"


def summarise(
    counts: Mapping[str, OriginCounts],
    robots: Mapping[str, RobotsSeen],
    delays: Mapping[str, tuple[float, float]],
    waiting: Mapping[str, int],
) -> CrawlReport:
    """The report from the per-origin counters, robots.txt answers, delays (asked, applied) and waiting requests."""
    origins = sorted(set(counts) | set(robots) | set(waiting))
    summaries = []
    for origin in origins:
        origin_counts = counts.get(origin) or OriginCounts()
        asked, applied = delays.get(origin, (None, None))
        summaries.append(
            OriginSummary(
                origin=origin,
                robots=robots.get(origin),
                allowed=origin_counts.allowed,
                disallowed=origin_counts.disallowed,
                dropped_unreachable=origin_counts.dropped_unreachable,
                deferred=origin_counts.deferred,
                still_waiting=waiting.get(origin, 0),
                crawl_delay=asked,
                delay_applied=applied,
                refused_purposes=dict(origin_counts.refused_purposes),
            )
        )
    return CrawlReport(summaries)


def blocks_everything(rules: AgentRules, origin: str) -> bool:
    """Whether ``rules`` disallow every path of ``origin``: no allow rule and a disallow rule
    matching every path (``Disallow: /``, ``/*``), or a record that disallows all (legacy 401/403).

    ``Disallow: /$`` (rfc9309) disallows the home page only: the origin is not blocked.
    """
    if rules.allowed(origin + "/"):
        return False
    found = rules.rules()
    if any(rule.allow for rule in found):
        return False
    return not found or any(_EVERY_PATH.fullmatch(rule.pattern) for rule in found)
