"""The end-of-crawl report: per origin, what robots.txt said and what became of the requests; per
page carrying robots directives, what it said and what became of its item and links."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from scrapy_robots_rep import Decision, PageDirectives
from scrapy_robots_rep.core.page import Directive, Source
from scrapy_robots_rep.policy.record_cache import CacheRecord


@dataclass(frozen=True)
class PageReport:
    """One HTML page: the directives the page-level middleware read, and the links the spider yielded."""

    url: str
    directives: PageDirectives | None
    links: tuple[str, ...]

    @property
    def says_something(self) -> bool:
        page = self.directives
        return page is not None and bool(page.directives or page.ignored or page.nofollow_hrefs)


@dataclass
class OriginReport:
    """What happened at one origin during the crawl."""

    robots: list[CacheRecord] = field(default_factory=list)
    allowed: int = 0
    disallowed: list[tuple[str, Decision]] = field(default_factory=list)
    deferred: int = 0
    dropped: int = 0
    pages: list[PageReport] = field(default_factory=list)


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
    purposes: tuple[str, ...] = ()
    """``REP_PURPOSES``: the uses robots.txt ``Content-Signal`` and ``Content-Usage`` are enforced for."""
    origins: dict[str, OriginReport] = field(default_factory=dict)
    reached: set[str] = field(default_factory=set)
    """URLs whose request got a response or failed: the requests that were not dropped before."""
    scraped: set[str] = field(default_factory=set)
    """Pages whose item was scraped (not dropped by the page-level middleware)."""

    def origin(self, origin: str) -> OriginReport:
        return self.origins.setdefault(origin, OriginReport())

    def render(self, notes: Mapping[str, DemoNote]) -> str:
        """The report as text; ``notes`` describe the demo site's origins (none for real sites)."""
        lines = [
            f"robots.txt report: agent {self.agent!r}, matching {self.matching}, status policy {self.status_policy}"
        ]
        demo_order = [origin for origin in notes if origin in self.origins]
        others = sorted(origin for origin in self.origins if origin not in notes)
        for origin in demo_order + others:
            lines.append("")
            lines.extend(_origin_lines(origin, notes.get(origin), self.origins[origin], self.purposes))
            lines.extend(self._page_lines(self.origins[origin].pages))
        reports = self.origins.values()
        lines.append("")
        lines.append(
            "total: "
            + _counts(
                sum(report.allowed for report in reports),
                sum(len(report.disallowed) for report in reports),
                sum(report.deferred for report in reports),
                sum(report.dropped for report in reports),
            )
        )
        return "\n".join(lines)

    def audit_lines(self, directory: str) -> str:
        """Where the audit trail (``REP_AUDIT_DIR``) is, and how to ask it about a URL the crawl decided: a
        command that works as printed from any folder and any shell (absolute paths, this environment's
        ``scrapy-robots``)."""
        dropped = sorted(url for report in self.origins.values() for url, _ in report.disallowed)
        example = dropped[0] if dropped else "URL"
        where = Path(directory).resolve()
        return (
            f"audit trail: {where}/ (REP_AUDIT_DIR): each robots.txt as received, each fetch, decision and page\n"
            f"  ask about a URL: {shlex.join([*_command_line(), 'audit', str(where), example])}"
        )

    def _page_lines(self, pages: list[PageReport]) -> list[str]:
        """Items kept and dropped, then each page that carried directives: what it said -> what was done."""
        listed = [page for page in pages if page.says_something]
        if not listed:
            return []
        dropped = sum(page.url not in self.scraped for page in pages)
        lines = [f"  items:      {len(pages) - dropped} kept, {dropped} dropped"]
        lines.append("  pages:      what each page said, and what the crawl did")
        for page in sorted(listed, key=lambda page: page.url):
            assert page.directives is not None
            lines.append(f"    {urlsplit(page.url).path}: {_said(page.directives)}")
            lines.append(f"      -> {self._done(page)}")
        return lines

    def _done(self, page: PageReport) -> str:
        done = ["item dropped" if page.url not in self.scraped else "item kept"]
        if page.directives is not None and page.directives.noarchive and page.url in self.scraped:
            done[0] += ", marked archive: no"
        unfollowed = sum(link not in self.reached for link in page.links)
        followed = len(page.links) - unfollowed
        if unfollowed:
            done.append(f"{_links(unfollowed)} not followed")
        if followed:
            done.append(f"{_links(followed) if not unfollowed else followed} followed")
        return ", ".join(done)


def _command_line() -> list[str]:
    """``scrapy-robots`` of the Python running the crawl (its virtualenv's), else ``python -m``."""
    script = Path(sys.executable).parent / "scrapy-robots"
    return [str(script)] if script.exists() else [sys.executable, "-m", "scrapy_robots_rep"]


def _said(page: PageDirectives) -> str:
    """Each tag or header with the directives read from it; the ones scoped to another robot; rel=nofollow."""
    said = [f"{_texts(directives)} ({source})" for source, directives in _by_source(page.directives).items()]
    said += [
        f"{_texts(directives)} ({source}): ignored, for another robot"
        for source, directives in _by_source(page.ignored).items()
    ]
    said += [f'rel="nofollow" link to {href}' for href in page.nofollow_hrefs]
    return "; ".join(said)


def _by_source(directives: tuple[Directive, ...]) -> dict[Source, list[Directive]]:
    grouped: dict[Source, list[Directive]] = {}
    for directive in directives:
        grouped.setdefault(directive.source, []).append(directive)
    return grouped


def _texts(directives: list[Directive]) -> str:
    return ", ".join(directive.text for directive in directives)


def _links(count: int) -> str:
    return f"{count} link{'s' if count != 1 else ''}"


def _origin_lines(origin: str, note: DemoNote | None, report: OriginReport, purposes: tuple[str, ...]) -> list[str]:
    lines = [origin if note is None else f"{note.name}  {origin}"]
    if note is not None:
        lines.append(f"  shows:      {note.shows}")
    redirects = [status for status in note.robots_statuses if 300 <= status < 400] if note is not None else []
    followed = [f"HTTP {status} -> redirect followed" for status in redirects]
    lines.append(f"  robots.txt: {', then '.join([*followed, _robots_text(report.robots)])}")
    if report.robots:
        rules = report.robots[-1].rules
        if rules.crawl_delay is not None:
            lines.append(f"  delay:      Crawl-delay {rules.crawl_delay:g} s")
            if note is not None:
                gaps = ", ".join(f"{gap:.1f}" for gap in note.page_gaps)
                lines.append(f"  spacing:    pages were requested {gaps} s apart")
        lines.extend(f"  sitemap:    {sitemap}" for sitemap in rules.sitemaps)
        if rules.content_signals:
            signals = ", ".join(f"{name}={'yes' if yes else 'no'}" for name, yes in rules.content_signals.items())
            enforced = f"enforced for {', '.join(purposes)}" if purposes else "REP_PURPOSES empty: not enforced"
            lines.append(f"  signals:    Content-Signal {signals} ({enforced})")
        lines.extend(f"  usage:      line {rule.line}: {rule.text.strip()}" for rule in rules.content_usage_rules)
        lines.extend(f"  license:    {license_url} (RSL, not enforced)" for license_url in rules.licenses)
    lines.append("  requests:   " + _counts(report.allowed, len(report.disallowed), report.deferred, report.dropped))
    # By rule, then URL: the order requests were decided in varies from run to run.
    for url, decision in sorted(report.disallowed, key=_by_rule):
        rule = decision.rule
        why = f"line {rule.line}: {rule.text}" if rule is not None else decision.reason
        lines.append(f"    disallowed {url}  <- {why}")
    return lines


def _by_rule(disallowed: tuple[str, Decision]) -> tuple[int, str]:
    url, decision = disallowed
    return (decision.rule.line if decision.rule is not None else 0), url


def _counts(allowed: int, disallowed: int, deferred: int, dropped: int) -> str:
    """How the requests ended (each in one of three ways), and how many waited for robots.txt first."""
    return (
        f"{allowed} allowed, {disallowed} disallowed, {dropped} dropped as unreachable "
        f"({deferred} waited for robots.txt before being decided)"
    )


OUTCOME_WORDS = {
    "rules": "rules",
    "allow_all": "everything allowed",
    "disallow_all": "everything disallowed",
    "unreachable": "unreachable",
    "deferred": "deferred",
}
"""What each robots.txt outcome means, in words."""


def _robots_text(records: list[CacheRecord]) -> str:
    """Every resolved fetch in turn, e.g. ``HTTP 503 -> unreachable, then HTTP 200 -> rules``."""
    if not records:
        return "not fetched"
    return ", then ".join(
        f"{'no answer' if record.status is None else f'HTTP {record.status}'} -> {OUTCOME_WORDS[record.outcome.value]}"
        for record in records
    )
