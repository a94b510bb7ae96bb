"""The end-of-crawl summary in the log and the ``REP_REPORT`` JSON file (``docs/behaviour.md`` §11).

One crawl of six origins, each ending differently, checked from the log lines, the report file,
the crawl's stats and what each server saw.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
import pytest_twisted
from scrapy import Request
from scrapy.crawler import Crawler
from twisted.internet import defer

from scrapy_robots_rep import signals
from scrapy_robots_rep.policy.report import REPORT_VERSION
from tests.crawling import CrawlResult, crawl
from tests.sites import HeldReply, Site, Sites, closed_port_url, text

ASKED_DELAY = 2
DELAY_MAX = 0.3
ROBOTS = {
    "blocked": "# closed to every robot\nUser-agent: *\nDisallow: /\n",
    "one door open": "User-agent: *\nDisallow: /\nAllow: /open\n",
    "home page only": "User-agent: *\nDisallow: /$\n",
    "delayed": f"User-agent: *\nCrawl-delay: {ASKED_DELAY}\nDisallow: /private\n",
}
PATHS = {
    "blocked": ["/a", "/b", "/c"],
    "one door open": ["/open/a", "/shut"],
    "home page only": ["/", "/page"],
    "delayed": ["/d1", "/d2", "/d3", "/private"],
    "down": ["/x", "/y"],
    "refused": ["/z"],
}
ALLOWED = {"one door open": 1, "home page only": 1, "delayed": 3}
DISALLOWED = {"blocked": 3, "one door open": 1, "home page only": 1, "delayed": 1}
DROPPED = {"down": 2, "refused": 1}
TOTALS = re.compile(
    r"robots\.txt report: (?P<origins>\d+) origins, (?P<decided>\d+) requests decided: (?P<allowed>\d+) allowed, "
    r"(?P<disallowed>\d+) disallowed, (?P<dropped>\d+) dropped as unreachable, (?P<waiting>\d+) still waiting"
)
REPORT_KEYS = {
    "origin",
    "robots",
    "allowed",
    "disallowed",
    "dropped_unreachable",
    "deferred",
    "still_waiting",
    "crawl_delay",
    "delay_applied",
    "refusals",
    "page_drops",
    "robots_changed",
}


@dataclass
class ReportedCrawl:
    sites: dict[str, Site]
    origins: dict[str, str]
    result: CrawlResult
    path: Path

    def report(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.path.read_text(encoding="utf-8"))
        return data

    def entry(self, name: str) -> dict[str, Any]:
        entries = {entry["origin"]: entry for entry in self.report()["origins"]}
        found: dict[str, Any] = entries[self.origins[name]]
        return found


@pytest.fixture(scope="module")
def reported(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ReportedCrawl]:
    path = tmp_path_factory.mktemp("operating") / "reports" / "crawl.json"
    with Sites() as sites:
        # Each robots.txt answers once its origin's last request waits for it, so every request is
        # deferred first on every Scrapy (2.13 schedules a spider's start requests one by one).
        gates = {name: HeldReply(text(body)) for name, body in ROBOTS.items()}
        gates["down"] = HeldReply(text("down", status=503))
        started = {name: sites.start({"/robots.txt": gate}) for name, gate in gates.items()}
        origins = {name: site.url for name, site in started.items()}
        origins["refused"] = closed_port_url()
        urls = [origins[name] + page for name, pages in PATHS.items() for page in pages]
        last_requests = {origins[name] + PATHS[name][-1]: gate for name, gate in gates.items()}

        def open_gates(crawler: Crawler) -> None:
            def on_deferred(request: Request, **kwargs: Any) -> None:
                if request.url in last_requests:
                    last_requests[request.url].open()

            crawler.signals.connect(on_deferred, signals.request_deferred, weak=False)

        settings = {
            "REP_DEFER_MAX_TIME": 1,
            "REP_CRAWL_DELAY_MAX": DELAY_MAX,
            "REP_FETCH_TIMEOUT": 1,
            "RETRY_ENABLED": False,
            "REP_REPORT": str(path),
        }
        result = pytest_twisted.blockon(defer.ensureDeferred(crawl(urls, settings=settings, on_crawler=open_gates)))
        yield ReportedCrawl(started, origins, result, path)


def test_a_fully_disallowed_origin_gets_a_loud_line_naming_the_rule(reported: ReportedCrawl) -> None:
    blocked = reported.origins["blocked"]
    loud = reported.result.messages(logging.WARNING, "blocks this crawler entirely")
    assert loud == [
        f"{blocked}: blocks this crawler entirely ('Disallow: /' at line 3, group *): 3 requests disallowed"
    ]
    assert {entry.levelno for entry in reported.result.logs if "blocks this crawler" in entry.message} == {
        logging.WARNING
    }
    assert reported.sites["blocked"].paths() == ["/robots.txt"]


def test_origins_that_allow_something_are_not_called_blocked(reported: ReportedCrawl) -> None:
    """``Disallow: /`` with ``Allow: /open``, and ``Disallow: /$`` (the home page only), leave pages open."""
    for name in ("one door open", "home page only"):
        assert not any(reported.origins[name] in message for message in reported.result.messages(logging.WARNING))
        assert reported.entry(name)["robots"]["blocks_everything"] is False
    assert "/open/a" in reported.sites["one door open"].paths()
    assert "/page" in reported.sites["home page only"].paths()


def test_unreachable_origins_are_named_with_their_dropped_requests(reported: ReportedCrawl) -> None:
    down, refused = reported.origins["down"], reported.origins["refused"]
    assert sorted(reported.result.messages(logging.WARNING, "could not be obtained")) == sorted(
        [
            f"{down}: robots.txt could not be obtained (unreachable, HTTP 503): 2 requests dropped, 0 still waiting",
            f"{refused}: robots.txt could not be obtained (unreachable): 1 request dropped, 0 still waiting",
        ]
    )


def test_the_most_disallowed_origins_are_named_with_their_deciding_rules(reported: ReportedCrawl) -> None:
    lines = reported.result.messages(logging.INFO, "disallowed, by line")
    assert sorted(lines) == sorted(
        [
            f"{reported.origins['one door open']}: 1 request disallowed, by line 2 'Disallow: /' (1)",
            f"{reported.origins['home page only']}: 1 request disallowed, by line 2 'Disallow: /$' (1)",
            f"{reported.origins['delayed']}: 1 request disallowed, by line 3 'Disallow: /private' (1)",
        ]
    )
    assert reported.entry("blocked")["refusals"] == [{"line": 3, "rule": "Disallow: /", "reason": None, "refused": 3}]


def test_the_crawl_delay_is_reported_as_applied_and_capped(reported: ReportedCrawl) -> None:
    delayed = reported.origins["delayed"]
    assert reported.result.messages(logging.INFO, "Crawl-delay applied") == [
        f"Crawl-delay applied to 1 origin: {delayed} {DELAY_MAX:g}s (asked {ASKED_DELAY}s)"
    ]
    assert reported.result.stat("rep/crawl_delay/applied") == reported.result.stat("rep/crawl_delay/capped") == 1
    times = [hit.time for hit in reported.sites["delayed"].hits() if hit.path.startswith("/d")]
    assert len(times) == 3
    assert all(later - earlier >= DELAY_MAX * 0.9 for earlier, later in pairwise(times)), times


def test_the_totals_line_adds_up_with_the_stats(reported: ReportedCrawl) -> None:
    result = reported.result
    lines = [match for message in result.messages(logging.INFO) if (match := TOTALS.fullmatch(message))]
    assert len(lines) == 1
    totals = {name: int(value) for name, value in lines[0].groupdict().items()}
    assert totals == {
        "origins": len(PATHS),
        "decided": sum(len(pages) for pages in PATHS.values()),
        "allowed": result.stat("rep/requests/allowed"),
        "disallowed": result.stat("rep/requests/disallowed"),
        "dropped": result.stat("rep/requests/dropped_unreachable"),
        "waiting": 0,
    }
    assert (totals["allowed"], totals["disallowed"], totals["dropped"]) == (
        sum(ALLOWED.values()),
        sum(DISALLOWED.values()),
        sum(DROPPED.values()),
    )


def test_the_report_file_has_every_origin_with_its_outcome_and_counts(reported: ReportedCrawl) -> None:
    report = reported.report()
    assert report["v"] == REPORT_VERSION
    origins = [entry["origin"] for entry in report["origins"]]
    assert origins == sorted(reported.origins.values())
    assert all(set(entry) == REPORT_KEYS for entry in report["origins"])
    assert f"robots.txt report written to {reported.path}" in reported.result.messages(logging.INFO)
    for name in PATHS:
        entry = reported.entry(name)
        counts = (entry["allowed"], entry["disallowed"], entry["dropped_unreachable"], entry["still_waiting"])
        assert counts == (ALLOWED.get(name, 0), DISALLOWED.get(name, 0), DROPPED.get(name, 0), 0), name
        # Every request waited once for its origin's first robots.txt.
        assert entry["deferred"] == len(PATHS[name]), name


def test_the_report_file_agrees_with_the_stats_and_the_servers(reported: ReportedCrawl) -> None:
    result, entries = reported.result, reported.report()["origins"]
    for field, stat in (
        ("allowed", "rep/requests/allowed"),
        ("disallowed", "rep/requests/disallowed"),
        ("dropped_unreachable", "rep/requests/dropped_unreachable"),
        ("deferred", "rep/requests/deferred"),
    ):
        assert sum(entry[field] for entry in entries) == result.stat(stat), field
    for name, site in reported.sites.items():
        pages = [path for path in site.paths() if path != "/robots.txt"]
        assert len(pages) == reported.entry(name)["allowed"], name
    outcomes: dict[str, int] = {}
    for entry in entries:
        outcomes[entry["robots"]["outcome"]] = outcomes.get(entry["robots"]["outcome"], 0) + 1
    assert outcomes == {"rules": 4, "unreachable": 2}
    assert outcomes["rules"] == result.stat("rep/robots/outcome/rules")


def test_the_report_file_says_what_each_robots_txt_answered(reported: ReportedCrawl) -> None:
    assert reported.entry("blocked")["robots"] == {
        "outcome": "rules",
        "status": 200,
        "reason": "'Disallow: /' at line 3, group *",
        "blocks_everything": True,
        "licenses": [],
    }
    assert reported.entry("down")["robots"] == {
        "outcome": "unreachable",
        "status": 503,
        "reason": "robots.txt returned 503",
        "blocks_everything": False,
        "licenses": [],
    }
    refused = reported.entry("refused")["robots"]
    assert (refused["outcome"], refused["status"], refused["blocks_everything"]) == ("unreachable", None, False)
    delayed = reported.entry("delayed")
    assert (delayed["crawl_delay"], delayed["delay_applied"]) == (ASKED_DELAY, DELAY_MAX)
    for name in PATHS:
        if name != "delayed":
            assert (reported.entry(name)["crawl_delay"], reported.entry(name)["delay_applied"]) == (None, None)
