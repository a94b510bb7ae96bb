"""The end-of-crawl report: per origin, what robots.txt said and what became of the requests."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from scrapy_robots_rep import Decision
from scrapy_robots_rep.policy.cache import CacheRecord


@dataclass
class OriginReport:
    """What happened at one origin during the crawl."""

    robots: list[CacheRecord] = field(default_factory=list)
    allowed: int = 0
    disallowed: list[tuple[str, Decision]] = field(default_factory=list)
    deferred: int = 0
    dropped: int = 0


@dataclass(frozen=True)
class DemoNote:
    """What a demo origin is there to show, and the statuses its server gave robots.txt requests."""

    name: str
    shows: str
    robots_statuses: tuple[int, ...]
    page_gaps: tuple[float, ...]


@dataclass
class CrawlReport:
    """Counts per origin, filled from the middleware's signals and the requests' outcomes."""

    agent: str
    matching: str
    status_policy: str
    origins: dict[str, OriginReport] = field(default_factory=dict)

    def origin(self, origin: str) -> OriginReport:
        return self.origins.setdefault(origin, OriginReport())

    def render(self, notes: Mapping[str, DemoNote]) -> str:
        """The report as text; ``notes`` describe the demo site's origins (none for real sites)."""
        lines = [
            f"robots.txt report: agent {self.agent!r}, matching {self.matching}, "
            f"status policy {self.status_policy}",
            "(deferred: held until the origin's robots.txt was obtained, then decided)",
        ]
        demo_order = [origin for origin in notes if origin in self.origins]
        others = sorted(origin for origin in self.origins if origin not in notes)
        for origin in demo_order + others:
            lines.append("")
            lines.extend(_origin_lines(origin, notes.get(origin), self.origins[origin]))
        reports = self.origins.values()
        lines.append("")
        lines.append("total: " + _counts(
            sum(report.allowed for report in reports),
            sum(len(report.disallowed) for report in reports),
            sum(report.deferred for report in reports),
            sum(report.dropped for report in reports),
        ))
        return "\n".join(lines)


def _origin_lines(origin: str, note: DemoNote | None, report: OriginReport) -> list[str]:
    lines = [origin if note is None else f"{note.name}  {origin}"]
    if note is not None:
        lines.append(f"  shows:      {note.shows}")
    robots = _robots_text(report.robots)
    if note is not None:
        robots += f"  (server answered {', '.join(map(str, note.robots_statuses)) or 'nothing'})"
    lines.append(f"  robots.txt: {robots}")
    if report.robots:
        rules = report.robots[-1].rules
        if rules.crawl_delay is not None:
            lines.append(f"  delay:      Crawl-delay {rules.crawl_delay:g} s")
            if note is not None:
                gaps = ", ".join(f"{gap:.1f}" for gap in note.page_gaps)
                lines.append(f"  spacing:    pages were requested {gaps} s apart")
        lines.extend(f"  sitemap:    {sitemap}" for sitemap in rules.sitemaps)
    lines.append("  requests:   " + _counts(
        report.allowed, len(report.disallowed), report.deferred, report.dropped
    ))
    for url, decision in report.disallowed:
        rule = decision.rule
        why = f"line {rule.line}: {rule.text}" if rule is not None else decision.reason
        lines.append(f"    disallowed {url}  <- {why}")
    return lines


def _counts(allowed: int, disallowed: int, deferred: int, dropped: int) -> str:
    return f"{allowed} allowed, {disallowed} disallowed, {deferred} deferred, {dropped} dropped"


def _robots_text(records: list[CacheRecord]) -> str:
    """Every resolved fetch in turn, e.g. ``HTTP 503 -> unreachable, then HTTP 200 -> rules``."""
    if not records:
        return "not fetched"
    return ", then ".join(
        f"{'no answer' if record.status is None else f'HTTP {record.status}'} -> {record.outcome.value}"
        for record in records
    )
