"""``read_report``: an audit directory summed up for people, read in one streaming pass.

What the HTML report (:mod:`scrapy_robots_rep.audit.html`) shows, gathered without holding the
decisions in memory: counts by origin, outcome and minute, the refusing rules counted, the pages'
drops and sayings counted, and only the last :data:`URLS_KEPT` decisions of each origin for the
URL table. robots.txt fetches (a few per origin) are kept whole: each version in force is read
from its stored body for the agent's group, with line numbers.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict, deque
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from sys import intern
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from scrapy_robots_rep.audit.bodies import numbered_lines
from scrapy_robots_rep.audit.files import ROBOTS_DIR
from scrapy_robots_rep.audit.reader import AuditDirectory
from scrapy_robots_rep.core.lines import CONTENT_SIGNAL, CONTENT_USAGE, LICENSE, decode, read_directives
from scrapy_robots_rep.core.modes import matching_mode
from scrapy_robots_rep.core.robots import DEFAULT_MAX_SIZE, RobotsTxt

URLS_KEPT = 200
"""URL-table rows kept per origin: its last decisions (the counts cover every decision)."""
SAYINGS_KEPT = 50
"""Distinct page sayings (directive sources) counted per origin; more are counted together."""
BODY_LINES_SHOWN = 400
"""robots.txt lines shown per version (the rest is in the stored copy)."""
BUCKET_WIDTHS = (1, 10, 60, 600, 3600, 86400)
"""Seconds a time bucket of the chart spans: the narrowest that keeps an origin in :data:`BUCKETS_KEPT`."""
BUCKETS_KEPT = 240
OUTCOMES = ("allowed", "disallowed", "dropped_unreachable", "refused_purposes", "exempt", "not_checked")
_USAGE_FIELDS = frozenset({CONTENT_SIGNAL, CONTENT_USAGE, LICENSE})
"""The fields that say how content may be used, marked ``usage`` in a version's lines."""


class UrlRow(NamedTuple):
    """One row of the URL table: a decision, its repeated texts shared (interned)."""

    time: str
    url: str
    decision: str
    sha256: str | None
    rule_line: int | None
    rule_text: str | None
    reason: str


@dataclass(frozen=True)
class BodyLine:
    number: int
    text: str
    in_group: bool
    kind: str
    """``allow``/``disallow`` for the agent's rules, ``usage`` for Content-Signal/Content-Usage/License, else ``""``."""


@dataclass
class Version:
    """One robots.txt body of an origin, as fetched (once or more)."""

    sha256: str
    first_fetched: str
    last_fetched: str
    statuses: list[int | None]
    fetches: int = 1
    group: list[str] = field(default_factory=list)
    lines: list[BodyLine] = field(default_factory=list)
    truncated: int = 0
    """Lines of the body not shown."""
    usage_lines: list[BodyLine] = field(default_factory=list)
    missing: bool = False
    """The stored body is missing."""
    changed: dict[str, Any] | None = None
    """What changed for the agent from the version before (the fetch line's ``changed``)."""


@dataclass
class OriginReport:
    origin: str
    fetches: list[dict[str, Any]] = field(default_factory=list)
    versions: list[Version] = field(default_factory=list)
    outcomes: Counter[str] = field(default_factory=Counter)
    by_time: dict[int, Counter[str]] = field(default_factory=dict)
    """Decisions by outcome per time bucket (its start, seconds since the epoch), ``width`` seconds wide."""
    width: int = BUCKET_WIDTHS[0]
    refusing: Counter[tuple[str, int, str]] = field(default_factory=Counter)
    """(robots sha256, line, text) of each rule that refused, counted."""
    urls: deque[UrlRow] = field(default_factory=lambda: deque(maxlen=URLS_KEPT))
    pages: int = 0
    page_flags: Counter[str] = field(default_factory=Counter)
    dropped: Counter[str] = field(default_factory=Counter)
    sayings: Counter[str] = field(default_factory=Counter)

    @property
    def decisions(self) -> int:
        return sum(self.outcomes.values())

    def count(self, second: int, outcome: str) -> None:
        """One decision at ``second``: counted in its bucket, buckets made wider when too many."""
        key = second - second % self.width
        counts = self.by_time.get(key)
        if counts is None:
            if len(self.by_time) >= BUCKETS_KEPT and self.width < BUCKET_WIDTHS[-1]:
                self.width = BUCKET_WIDTHS[BUCKET_WIDTHS.index(self.width) + 1]
                self.by_time = rebucket(self.by_time, self.width)
                key = second - second % self.width
            counts = self.by_time.setdefault(key, Counter())
        counts[outcome] += 1


def rebucket(by_time: dict[int, Counter[str]], width: int) -> dict[int, Counter[str]]:
    """``by_time`` counted again in buckets ``width`` seconds wide."""
    wider: dict[int, Counter[str]] = defaultdict(Counter)
    for start, counts in by_time.items():
        wider[start - start % width].update(counts)
    return dict(wider)


@dataclass
class TrailReport:
    """What :func:`read_report` gathered."""

    directory: Path
    processes: list[dict[str, Any]]
    origins: dict[str, OriginReport]
    first: str | None
    last: str | None
    origin_filter: str | None = None
    since: str | None = None
    until: str | None = None

    @property
    def outcomes(self) -> Counter[str]:
        total: Counter[str] = Counter()
        for origin in self.origins.values():
            total.update(origin.outcomes)
        return total

    @property
    def width(self) -> int:
        return max((origin.width for origin in self.origins.values()), default=BUCKET_WIDTHS[0])

    @property
    def by_time(self) -> dict[int, Counter[str]]:
        """Every origin's decisions by outcome, in buckets :attr:`width` seconds wide."""
        total: dict[int, Counter[str]] = defaultdict(Counter)
        width = self.width
        for origin in self.origins.values():
            for start, counts in origin.by_time.items():
                total[start - start % width].update(counts)
        return dict(total)


def read_report(
    directory: str | Path, origin: str | None = None, since: str | None = None, until: str | None = None
) -> TrailReport:
    """Sum up the audit directory; ``origin`` keeps one origin, ``since``/``until`` (RFC 3339 UTC, as the
    lines write them) the lines of that time span."""
    trail = AuditDirectory(directory)
    origins: dict[str, OriginReport] = {}

    def of(name: str) -> OriginReport:
        report = origins.get(name)
        if report is None:
            report = origins[name] = OriginReport(name)
        return report

    def keep(line: dict[str, Any], line_origin: str | None) -> bool:
        when = line.get("time", "")
        return (
            (origin is None or line_origin == origin)
            and (since is None or when >= since)
            and (until is None or when <= until)
        )

    first: str | None = None
    last: str | None = None
    second_of = _Seconds()
    for line in trail.lines("fetches"):
        if keep(line, line.get("origin")):
            of(line["origin"]).fetches.append(line)
    for line in trail.lines("decisions"):
        line_origin = line.get("origin") or _origin_of(line.get("url", ""))
        if not keep(line, line_origin):
            continue
        report = of(line_origin)
        kind = line.get("decision", "")
        when = line.get("time", "")
        first = when if first is None or when < first else first
        last = when if last is None or when > last else last
        report.outcomes[kind] += 1
        report.count(second_of(when), kind)
        rule = line.get("rule")
        if kind == "disallowed" and rule is not None:
            report.refusing[(line.get("sha256") or "", rule.get("line", 0), rule.get("text", ""))] += 1
        sha256 = line.get("sha256")
        report.urls.append(
            UrlRow(
                when,
                line.get("url", ""),
                intern(kind),
                intern(sha256) if sha256 else None,
                rule.get("line") if rule else None,
                intern(rule.get("text", "")) if rule else None,
                intern(line.get("reason") or ""),
            )
        )
    for line in trail.lines("pages"):
        line_origin = _origin_of(line.get("url", ""))
        if not keep(line, line_origin):
            continue
        report = of(line_origin)
        report.pages += 1
        for flag in ("noindex", "nofollow", "noarchive"):
            if line.get(flag):
                report.page_flags[flag] += 1
        for purpose, allowed in (line.get("purposes") or {}).items():
            if not allowed:
                report.page_flags[f"{purpose} refused"] += 1
        report.dropped.update(line.get("dropped") or {})
        for source in line.get("sources") or ():
            if source in report.sayings or len(report.sayings) < SAYINGS_KEPT:
                report.sayings[source] += 1
            else:
                report.sayings["(other sayings)"] += 1
    for report in origins.values():
        report.versions = _versions(trail.directory / ROBOTS_DIR, report.fetches)
    return TrailReport(
        trail.directory,
        _processes(trail.directory),
        dict(sorted(origins.items())),
        first,
        last,
        origin,
        since,
        until,
    )


class _Seconds:
    """The whole second (since the epoch) of a line's time; the last one remembered (lines come in runs)."""

    def __init__(self) -> None:
        self._text = ""
        self._second = 0

    def __call__(self, when: str) -> int:
        text = when[:19]
        if text != self._text:
            self._text = text
            try:
                self._second = int(datetime.fromisoformat(text).replace(tzinfo=timezone.utc).timestamp())
            except ValueError:
                self._second = 0
        return self._second


def _origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.netloc else url


def _processes(directory: Path) -> list[dict[str, Any]]:
    """The processes that wrote the directory, from their manifests."""
    processes = []
    for path in sorted(directory.glob("manifest.*.json")):
        try:
            manifest = json.loads(path.read_bytes())["manifest"]
        except (ValueError, KeyError, TypeError):
            continue
        if isinstance(manifest, dict):
            processes.append(manifest)
    return processes


def _versions(robots: Path, fetches: list[dict[str, Any]]) -> list[Version]:
    """The bodies of an origin's fetches, each once, in the order they were first fetched."""
    versions: dict[str, Version] = {}
    for fetch in sorted(fetches, key=lambda line: line.get("time", "")):
        sha256 = fetch.get("sha256")
        if not sha256:
            continue
        version = versions.get(sha256)
        if version is not None:
            version.fetches += 1
            version.last_fetched = fetch["time"]
            version.statuses.append(fetch.get("status"))
            continue
        version = versions[sha256] = Version(sha256, fetch["time"], fetch["time"], [fetch.get("status")])
        version.changed = fetch.get("changed")
        _read_body(version, robots / f"{sha256}.txt", fetch.get("agent") or "*", fetch.get("matching") or "rfc9309")
    return list(versions.values())


def _read_body(version: Version, path: Path, agent: str, matching: str) -> None:
    """The body's lines, numbered as the parser numbers them, the agent's group marked."""
    if not path.is_file():
        version.missing = True
        return
    body = path.read_bytes()
    try:
        mode = matching_mode(matching)
    except ValueError:
        mode = matching_mode("rfc9309")
    rules = RobotsTxt.parse(body, mode.name).for_agent(agent)
    version.group = list(rules.group)
    kinds = {rule.line: "allow" if rule.allow else "disallow" for rule in rules.rules()}
    _, directives = read_directives(decode(body, DEFAULT_MAX_SIZE), mode.lenient)
    usage = {number for number, name, _ in directives if name in _USAGE_FIELDS}
    numbered = numbered_lines(body)
    if numbered and numbered[-1] == "":
        numbered.pop()
    for number, line in enumerate(numbered, 1):
        kind = kinds.get(number) or ("usage" if number in usage else "")
        body_line = BodyLine(number, line, number in kinds, kind)
        if kind == "usage":
            version.usage_lines.append(body_line)
        if number <= BODY_LINES_SHOWN:
            version.lines.append(body_line)
    version.truncated = max(len(numbered) - BODY_LINES_SHOWN, 0)
