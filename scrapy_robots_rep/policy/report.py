"""The end-of-crawl report: per origin, what robots.txt said and what became of its requests.

Plain data built from the crawl's accounting (``docs/behaviour.md`` §11): written to the log
in short, and whole as JSON with ``REP_REPORT``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from scrapy_robots_rep.core import AgentRules
from scrapy_robots_rep.core.lazy_patterns import compiled_on_use
from scrapy_robots_rep.policy.accounting import OriginCounts

if TYPE_CHECKING:
    from scrapy_robots_rep.policy.refusal import Refusal

REPORT_VERSION = 2
LISTED_IN_LOG = 10
"""Origins named per line of the log summary; the JSON report has them all."""
_EVERY_PATH = compiled_on_use(r"/?(\*+\$?)?")
"""Rule patterns that match every path: ``/``, ``/*``, ``*``, ``/*$`` (and ``""``, legacy ``Disallow:``)."""


@dataclass(slots=True, eq=False)
class RobotsSeen:
    """The last robots.txt answer of one origin."""

    outcome: str
    status: int | None
    reason: str
    blocks_everything: bool
    """The rules disallow every path for the agent (e.g. ``Disallow: /``, or a legacy 401/403)."""
    licenses: tuple[str, ...] = ()
    """The file's RSL ``License:`` URLs (reported, never enforced)."""


class OriginSummary(NamedTuple):
    """One origin's entry of the report."""

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
    refusals: tuple[Refusal, ...] = ()
    """Every deciding rule of a disallowed request, the most refusing first."""
    page_drops: Mapping[str, int] = MappingProxyType({})
    """Requests and items of its pages dropped, per page-level directive."""
    robots_changed: int = 0
    """How many times a refreshed robots.txt gave the agent different rules."""

    @property
    def obtained(self) -> bool:
        """Whether robots.txt gave this origin rules (or allow/disallow all)."""
        return self.robots is not None and self.robots.outcome not in _NOT_OBTAINED

    @property
    def blocked(self) -> bool:
        return self.robots is not None and self.robots.blocks_everything

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe plain data: the fields in order, the robots.txt answer and the refusals as mappings."""
        return {
            **self._asdict(),
            "robots": None if self.robots is None else asdict(self.robots),
            "refusals": [asdict(refusal) for refusal in self.refusals],
            "page_drops": dict(self.page_drops),
        }


class CrawlReport(NamedTuple):
    """Every origin the crawl checked."""

    origins: Sequence[OriginSummary] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"v": REPORT_VERSION, "origins": [summary.to_dict() for summary in self.origins]}

    def lines(self) -> list[tuple[bool, str]]:
        """The short log summary, as (loud, text): the totals, then one line per origin that matters
        (closed to the crawl, robots.txt not obtained, the most disallowed) and the delays applied.
        Loud lines say an origin's pages were not crawled."""
        origins = self.origins
        total = sum(s.allowed + s.disallowed + s.dropped_unreachable for s in origins)
        lines = [
            (
                False,
                f"robots.txt report: {counted(len(origins), 'origin')}, {counted(total, 'request')} decided: "
                f"{sum(s.allowed for s in origins)} allowed, {sum(s.disallowed for s in origins)} "
                f"disallowed, {sum(s.dropped_unreachable for s in origins)} dropped as unreachable, "
                f"{sum(s.still_waiting for s in origins)} still waiting",
            )
        ]
        blocked = [s for s in origins if s.blocked]
        missing = [s for s in origins if not s.obtained and (s.dropped_unreachable or s.still_waiting)]
        waiting = [s for s in origins if s.obtained and s.still_waiting]
        refusing = sorted(
            (s for s in origins if s.disallowed and not s.blocked), key=lambda s: (-s.disallowed, s.origin)
        )[:MOST_DISALLOWED]
        lines += _listed(blocked, True, _blocked_text)
        lines += _listed(missing, True, _missing_text)
        lines += _listed(waiting, False, _waiting_text)
        lines += [(False, _refusing_text(summary)) for summary in refusing]
        delayed = [s for s in origins if s.delay_applied]
        if delayed:
            named = ", ".join(_delay_text(s) for s in delayed[:LISTED_IN_LOG])
            more = f" and {len(delayed) - LISTED_IN_LOG} more" if len(delayed) > LISTED_IN_LOG else ""
            lines.append((False, f"Crawl-delay applied to {counted(len(delayed), 'origin')}: {named}{more}"))
        changed = [s for s in origins if s.robots_changed]
        if changed:
            named = ", ".join(_changed_text(s) for s in changed[:LISTED_IN_LOG])
            more = f" and {len(changed) - LISTED_IN_LOG} more" if len(changed) > LISTED_IN_LOG else ""
            lines.append(
                (False, f"robots.txt changed during the crawl for {counted(len(changed), 'origin')}: {named}{more}")
            )
        lines += _page_drops_lines(origins)
        licensed = [s for s in origins if s.robots is not None and s.robots.licenses]
        if licensed:
            named = ", ".join(_licenses_text(s) for s in licensed[:LISTED_IN_LOG])
            more = f" and {len(licensed) - LISTED_IN_LOG} more" if len(licensed) > LISTED_IN_LOG else ""
            lines.append((False, f"RSL licences declared by {counted(len(licensed), 'origin')}: {named}{more}"))
        return lines


_NOT_OBTAINED = frozenset({"unreachable", "deferred"})
MOST_DISALLOWED = 5
"""Origins with the most disallowed requests named in the log summary."""
TOP_RULES = 3
"""Deciding rules named per origin in the log summary."""


def _listed(summaries: list[OriginSummary], loud: bool, text: Callable[[OriginSummary], str]) -> list[tuple[bool, str]]:
    """One line per origin, the first ``LISTED_IN_LOG`` of them, and how many more there are."""
    lines = [(loud, text(summary)) for summary in summaries[:LISTED_IN_LOG]]
    if len(summaries) > LISTED_IN_LOG:
        lines.append((loud, f"... and {counted(len(summaries) - LISTED_IN_LOG, 'more origin')} like these"))
    return lines


def _blocked_text(summary: OriginSummary) -> str:
    why = summary.robots.reason if summary.robots else ""
    refused = counted(summary.disallowed, "request")
    return f"{summary.origin}: blocks this crawler entirely ({why}): {refused} disallowed"


def _missing_text(summary: OriginSummary) -> str:
    robots = summary.robots
    if robots is None:
        how = "robots.txt not obtained before the crawl closed"
    else:
        status = f", HTTP {robots.status}" if robots.status is not None else ""
        how = f"robots.txt could not be obtained ({robots.outcome}{status})"
    return (
        f"{summary.origin}: {how}: {counted(summary.dropped_unreachable, 'request')} dropped, "
        f"{summary.still_waiting} still waiting"
    )


def _waiting_text(summary: OriginSummary) -> str:
    return f"{summary.origin}: rules obtained, {counted(summary.still_waiting, 'request')} still waiting at close"


def _refusing_text(summary: OriginSummary) -> str:
    rules = ", ".join(
        (f"line {refusal.line} {refusal.rule!r}" if refusal.line is not None else str(refusal.reason))
        + f" ({refusal.refused})"
        for refusal in summary.refusals[:TOP_RULES]
    )
    return f"{summary.origin}: {counted(summary.disallowed, 'request')} disallowed, by {rules}"


LINK_DIRECTIVES = frozenset({"nofollow", "rel_nofollow"})
"""Page-level drops that are requests (links) rather than items."""


def _page_drops_lines(origins: Sequence[OriginSummary]) -> list[tuple[bool, str]]:
    """One line: the items and links page-level directives dropped, by directive, per origin."""
    dropping = [s for s in origins if s.page_drops]
    if not dropping:
        return []
    links = sum(count for s in dropping for kind, count in s.page_drops.items() if kind in LINK_DIRECTIVES)
    items = sum(count for s in dropping for kind, count in s.page_drops.items() if kind not in LINK_DIRECTIVES)
    named = ", ".join(
        f"{s.origin} ({', '.join(f'{kind} {count}' for kind, count in s.page_drops.items())})"
        for s in dropping[:LISTED_IN_LOG]
    )
    more = f" and {len(dropping) - LISTED_IN_LOG} more" if len(dropping) > LISTED_IN_LOG else ""
    return [
        (
            False,
            f"Page-level directives dropped {counted(items, 'item')} and {counted(links, 'link')} of "
            f"{counted(len(dropping), 'origin')}: {named}{more}",
        )
    ]


def _licenses_text(summary: OriginSummary) -> str:
    licenses = summary.robots.licenses if summary.robots is not None else ()
    return f"{summary.origin} ({', '.join(licenses)})"


def _delay_text(summary: OriginSummary) -> str:
    asked = f" (asked {summary.crawl_delay:g}s)" if summary.crawl_delay != summary.delay_applied else ""
    return f"{summary.origin} {summary.delay_applied:g}s{asked}"


def _changed_text(summary: OriginSummary) -> str:
    times = summary.robots_changed
    return summary.origin if times == 1 else f"{summary.origin} ({times} times)"


def counted(number: int, noun: str) -> str:
    """``1 origin``, ``2 origins``."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


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
        refusals: tuple[Refusal, ...] = ()
        if origin_counts.refusals:
            from scrapy_robots_rep.policy.refusal import Refusal

            refusals = tuple(
                Refusal(line, text if line is not None else None, text if line is None else None, refused)
                for (line, text), refused in sorted(
                    origin_counts.refusals.items(), key=lambda item: (-item[1], item[0][0] or 0, item[0][1])
                )
            )
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
                refusals=refusals,
                page_drops=dict(sorted(origin_counts.page_drops.items())),
                robots_changed=origin_counts.robots_changed,
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
    return not found or any(_EVERY_PATH().fullmatch(rule.pattern) for rule in found)
