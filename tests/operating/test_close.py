"""The close message (``docs/behaviour.md`` §11): a crawl stopped while requests wait for robots.txt
names each origin they waited for, with its count, and ``rep/requests/still_deferred`` agrees."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest_twisted

from tests.crawling import crawl
from tests.sites import Sites, text

CLOSE_AFTER = 3.0
"""Long enough for the healthy origin's two requests to be decided on a loaded machine."""


@pytest_twisted.ensureDeferred
async def test_the_close_message_names_the_origins_still_waiting(sites: Sites, tmp_path: Path) -> None:
    first = sites.start({"/robots.txt": text("down", status=503)})
    second = sites.start({"/robots.txt": text("down", status=503)})
    healthy = sites.start({"/robots.txt": text("User-agent: *\nDisallow: /private\n")})
    waiting = {first.url: 3, second.url: 2}
    urls = [f"{site.url}/w{number}" for site in (first, second) for number in range(waiting[site.url])]
    report = tmp_path / "report.json"
    result = await crawl(
        [*urls, f"{healthy.url}/a", f"{healthy.url}/private"],
        settings={
            "CLOSESPIDER_TIMEOUT": CLOSE_AFTER,
            "REP_DEFER_MAX_TIME": 60,
            "LOGSTATS_INTERVAL": 0.5,
            "RETRY_ENABLED": False,
            "JOBDIR": str(tmp_path / "job"),
            "REP_REPORT": str(report),
        },
    )

    assert result.stats["finish_reason"] == "closespider_timeout"
    assert result.stat("rep/requests/still_deferred") == 5
    named = ", ".join(f"{origin} ({count})" for origin, count in sorted(waiting.items()))
    closing = result.messages(logging.WARNING, "still waiting for robots.txt")
    assert closing == [
        f"Spider closed (closespider_timeout) with 5 requests still waiting for robots.txt of {named}; "
        "saved in JOBDIR, they are crawled when the crawl resumes"
    ]
    assert healthy.url not in closing[0]
    # While they waited, the progress line counted them.
    assert result.messages(logging.INFO, "5 requests of 2 origins wait for robots.txt")
    # The waiting requests never reached their servers; the summary and the report count them as waiting.
    assert set(first.paths()) == set(second.paths()) == {"/robots.txt"}
    assert (
        "robots.txt report: 3 origins, 2 requests decided: 1 allowed, 1 disallowed, 0 dropped as unreachable, "
        "5 still waiting"
    ) in result.messages(logging.INFO)
    not_obtained = [
        message for message in result.messages(logging.WARNING) if "robots.txt could not be obtained" in message
    ]
    assert not_obtained == [
        f"{origin}: robots.txt could not be obtained (unreachable, HTTP 503): 0 requests dropped, {count} still waiting"
        for origin, count in sorted(waiting.items())
    ]
    entries = {entry["origin"]: entry for entry in json.loads(report.read_text())["origins"]}
    assert {origin: entry["still_waiting"] for origin, entry in entries.items()} == {**waiting, healthy.url: 0}
    assert sum(entry["still_waiting"] for entry in entries.values()) == result.stat("rep/requests/still_deferred")


@pytest_twisted.ensureDeferred
async def test_no_close_message_when_nothing_waits(sites: Sites) -> None:
    site = sites.start({"/robots.txt": text("User-agent: *\nDisallow: /private\n")})
    result = await crawl([f"{site.url}/a", f"{site.url}/private"], settings={"RETRY_ENABLED": False})

    assert result.stats["finish_reason"] == "finished"
    assert "rep/requests/still_deferred" not in result.stats
    assert result.messages(logging.DEBUG, "still waiting for robots.txt") == []
