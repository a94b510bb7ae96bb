"""Every row of the status table (docs/behaviour.md §5), both policies, in one crawl each.

Each row is a site whose robots.txt answers as the row says; the spider asks
for ``/page`` and ``/private`` on every site. The same crawls check that the
robots.txt request is never retried or redirected behind the middleware's
back (server logs), that deferral is bounded by ``REP_DEFER_MAX_TIME`` with
drops counted once, and that the request accounting adds up at spider close.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
import pytest_twisted

from scrapy_robots_rep.exceptions import RobotsDisallowed, RobotsUnreachable
from tests.crawling import CrawlResult, crawl
from tests.sites import Reply, Route, Site, Sites, closed_port_url, redirect, text

RULES = "User-agent: *\nDisallow: /private\n"
OK, NO, DROP = "downloaded", "disallowed", "dropped"

SETTINGS = {
    "REP_DEFER_MAX_TIME": 2.5,
    "REP_FETCH_TIMEOUT": 1,
    "RETRY_ENABLED": True,
    "REDIRECT_ENABLED": True,
}


@dataclass(frozen=True)
class Row:
    """One status-table row: how robots.txt answers, and what /page and /private become."""

    name: str
    routes: dict[str, Route] = field(default_factory=dict)
    rfc9309: tuple[str, str] = (OK, NO)
    legacy: tuple[str, str] = (OK, NO)
    robots_hits: int | None = 1  # requests the server sees for robots paths; None: retried with backoff
    refused: bool = False
    redirect_to_other_origin: bool = False


ALLOW_ALL, DISALLOW_ALL, DROPPED = (OK, OK), (NO, NO), (DROP, DROP)

ROWS = [
    Row("200", {"/robots.txt": text(RULES)}),
    Row("301 to 200 same origin", {"/robots.txt": redirect("/moved.txt"), "/moved.txt": text(RULES)}, robots_hits=2),
    Row("301 to other origin", redirect_to_other_origin=True),
    Row(
        "redirect loop",
        {"/robots.txt": redirect("/loop.txt"), "/loop.txt": redirect("/robots.txt")},
        ALLOW_ALL,
        ALLOW_ALL,
        robots_hits=6,
    ),
    Row("redirect to ftp", {"/robots.txt": redirect("ftp://127.0.0.1/robots.txt")}, ALLOW_ALL, ALLOW_ALL),
    Row(
        "redirect with credentials",
        {"/robots.txt": redirect("http://user:pw@127.0.0.1:1/robots.txt")},
        ALLOW_ALL,
        ALLOW_ALL,
    ),
    Row("401", {"/robots.txt": text(RULES, status=401)}, ALLOW_ALL, DISALLOW_ALL),
    Row("403", {"/robots.txt": text(RULES, status=403)}, ALLOW_ALL, DISALLOW_ALL),
    Row("404", {"/robots.txt": text(RULES, status=404)}, ALLOW_ALL, ALLOW_ALL),
    Row("410", {"/robots.txt": text(RULES, status=410)}, ALLOW_ALL, ALLOW_ALL),
    Row("429", {"/robots.txt": text(RULES, status=429)}, DROPPED, DROPPED, robots_hits=None),
    Row("500", {"/robots.txt": text(RULES, status=500)}, DROPPED, DROPPED, robots_hits=None),
    Row("503", {"/robots.txt": text(RULES, status=503)}, DROPPED, DROPPED, robots_hits=None),
    Row("503 then 200", {"/robots.txt": [text("", status=503), text(RULES)]}, robots_hits=2),
    Row("timeout", {"/robots.txt": Reply(hang=True)}, DROPPED, DROPPED, robots_hits=None),
    Row("connection refused", refused=True, rfc9309=DROPPED, legacy=DROPPED, robots_hits=None),
]


def start_rows(sites: Sites) -> dict[str, Site | None]:
    """Start one site per row (None for the refused connection)."""
    started: dict[str, Site | None] = {}
    for row in ROWS:
        if row.refused:
            started[row.name] = None
            continue
        routes = dict(row.routes)
        if row.redirect_to_other_origin:
            other = sites.start({"/robots.txt": text(RULES)})
            routes["/robots.txt"] = redirect(f"{other.url}/robots.txt")
        started[row.name] = sites.start(routes)
    return started


def expected(row: Row, policy: str) -> tuple[str, str]:
    return row.rfc9309 if policy == "rfc9309" else row.legacy


def seen_as(result: CrawlResult, url: str) -> str:
    outcome = result.by_url()[url]
    if outcome.response is not None:
        return OK
    if isinstance(outcome.error, RobotsDisallowed):
        return NO
    assert isinstance(outcome.error, RobotsUnreachable), outcome.error
    return DROP


@pytest.mark.parametrize("policy", ["rfc9309", "legacy"])
@pytest_twisted.ensureDeferred
async def test_status_table(policy: str, sites: Sites) -> None:
    started = start_rows(sites)
    refused = closed_port_url()
    bases = {name: site.url if site is not None else refused for name, site in started.items()}
    urls = [f"{bases[row.name]}{path}" for row in ROWS for path in ("/page", "/private")]
    result = await crawl(urls, settings={**SETTINGS, "REP_STATUS_POLICY": policy})

    got = {
        row.name: (seen_as(result, f"{bases[row.name]}/page"), seen_as(result, f"{bases[row.name]}/private"))
        for row in ROWS
    }
    assert got == {row.name: expected(row, policy) for row in ROWS}

    for row in ROWS:
        site = started[row.name]
        if site is None:
            continue
        robots_paths = [path for path in site.paths() if path.endswith(".txt")]
        if row.robots_hits is not None:
            assert len(robots_paths) == row.robots_hits, (row.name, robots_paths)
        else:
            # fetches at about 0 s, 1 s and 2.5 s: backoff, not Scrapy's retries
            assert 2 <= len(robots_paths) <= 4, (row.name, robots_paths)
        page_paths = [path for path in site.paths() if not path.endswith(".txt")]
        assert sorted(page_paths) == sorted(
            path for path, seen in zip(("/page", "/private"), got[row.name], strict=True) if seen == OK
        ), row.name

    stats = result.stats
    failed = "unreachable" if policy == "rfc9309" else "deferred"
    other = "deferred" if policy == "rfc9309" else "unreachable"
    assert stats[f"rep/robots/outcome/{failed}"] >= 5 * 2 + 1
    assert f"rep/robots/outcome/{other}" not in stats
    assert stats["rep/robots/outcome/rules"] == 4
    assert stats["rep/robots/outcome/allow_all"] == (7 if policy == "rfc9309" else 5)
    assert stats.get("rep/robots/outcome/disallow_all", 0) == (0 if policy == "rfc9309" else 2)
    for status in (200, 301, 401, 403, 404, 410, 429, 500, 503):
        assert stats[f"rep/robots/status/{status}"] >= 1

    every = list(got.values())
    flat = [seen for pair in every for seen in pair]
    assert stats["rep/requests/allowed"] == flat.count(OK)
    assert stats["rep/requests/disallowed"] == flat.count(NO)
    assert stats["rep/requests/dropped_unreachable"] == flat.count(DROP) == 10
    assert stats["rep/requests/deferred"] >= len(urls)

    accounting = result.middleware.accounting
    assert accounting.unbalanced() == {}
    assert sum(counts.seen for counts in accounting.origins.values()) == len(urls)
    assert all(counts.parked == 0 for counts in accounting.origins.values())
