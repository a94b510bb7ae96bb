"""A crawl that closes early keeps exact counts (``docs/behaviour.md`` §11): robots.txt responses
are not pages, and an origin whose rules were obtained is never reported as unreachable."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest_twisted

from tests.crawling import crawl
from tests.sites import Sites, text

PAGES = 4
ORIGINS = 3


@pytest_twisted.ensureDeferred
async def test_robots_txt_responses_do_not_count_toward_closespider_pagecount(sites: Sites, tmp_path: Path) -> None:
    """Three origins' robots.txt would be three of the four pages if they counted: one page at most."""
    started = [sites.start({"/robots.txt": text("User-agent: *\nDisallow: /private\n")}) for _ in range(ORIGINS)]
    urls = [f"{site.url}/page{number}" for site in started for number in range(4)]
    report = tmp_path / "report.json"
    result = await crawl(
        urls,
        settings={"CLOSESPIDER_PAGECOUNT": PAGES, "CONCURRENT_REQUESTS": 1, "REP_REPORT": str(report)},
    )

    pages = [path for site in started for path in site.paths() if path != "/robots.txt"]
    assert len(pages) >= PAGES
    assert result.stat("response_received_count") == len(pages)
    assert result.stat("robotstxt/response_count") == ORIGINS
    assert result.stats["finish_reason"] == "closespider_pagecount"
    # The requests waited for their origins' rules (on Scrapy 2.13, which schedules a callback's
    # requests one by one, a late one may find them already); the rules came: no origin is unreachable.
    entries = json.loads(report.read_text())["origins"]
    assert all(entry["robots"]["outcome"] == "rules" and entry["deferred"] >= 1 for entry in entries)
    assert sum(entry["allowed"] for entry in entries) == result.stat("rep/requests/allowed")
    assert not result.messages(logging.WARNING, "could not be obtained")
    waiting = [entry for entry in entries if entry["still_waiting"]]
    assert result.messages(logging.INFO, "rules obtained") == [
        f"{entry['origin']}: rules obtained, {entry['still_waiting']} request"
        f"{'' if entry['still_waiting'] == 1 else 's'} still waiting at close"
        for entry in waiting
    ]
