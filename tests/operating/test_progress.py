"""Progress while requests wait for robots.txt (``docs/behaviour.md`` §11), from real crawls.

At each ``LOGSTATS_INTERVAL`` one INFO line says how many origins and requests wait, when the
next attempt is and when they will be dropped; nothing is logged while nothing waits.
"""

from __future__ import annotations

import logging
import re

import pytest_twisted

from scrapy_robots_rep.exceptions import RobotsUnreachable
from tests.crawling import Wave, crawl
from tests.sites import PAGE, Reply, Sites, text

INTERVAL = 0.5
DEFER_MAX_TIME = 3
SLOW_PAGE = 1.5
"""How long the last page takes, after the unreachable origin's requests were dropped."""

PROGRESS = re.compile(
    r"(?P<requests>\d+) requests? of (?P<origins>\d+) origins? wait for robots\.txt"
    r"(?:; (?:next attempt in (?P<next>\d+)s|an attempt is under way) \((?P<next_origin>\S+)\))?"
    r"(?:; dropped in (?P<drop>\d+)s if still unreachable \((?P<drop_origin>\S+) first\))?"
)
"""A progress line. The next attempt is "under way" while a fetch runs, and a line logged before the
first fetch ended may have neither part: on a loaded machine, any of them may come at an interval."""


@pytest_twisted.ensureDeferred
async def test_progress_lines_while_an_unreachable_origin_waits_and_none_after(sites: Sites) -> None:
    down = sites.start({"/robots.txt": text("down for maintenance", status=503)})
    healthy = sites.start(
        {"/robots.txt": text("User-agent: *\nAllow: /\n"), "/slow": Reply(body=PAGE, delay=SLOW_PAGE)}
    )
    # The healthy origin's rules are obtained before the unreachable origin's requests come, so that
    # no line counts both origins' requests, however long the healthy robots.txt takes to arrive.
    result = await crawl(
        [f"{healthy.url}/first"],
        [f"{down.url}/a", f"{down.url}/b"],
        Wave([f"{healthy.url}/slow"]),
        settings={"REP_DEFER_MAX_TIME": DEFER_MAX_TIME, "LOGSTATS_INTERVAL": INTERVAL, "RETRY_ENABLED": False},
    )

    assert result.failures == {f"{down.url}/a": RobotsUnreachable, f"{down.url}/b": RobotsUnreachable}
    assert result.pages == [f"{healthy.url}/first", f"{healthy.url}/slow"]
    entries = [entry for entry in result.logs if "wait for robots.txt" in entry.message]
    assert entries, "no progress line while requests waited"
    assert {entry.levelno for entry in entries} == {logging.INFO}
    progress = [PROGRESS.fullmatch(entry.message) for entry in entries]
    assert all(progress), [entry.message for entry in entries]
    # A loaded machine may log a line while /first waits for its own rules: it names the healthy origin.
    lines = [
        match
        for match in progress
        if match is not None and healthy.url not in (match["next_origin"], match["drop_origin"])
    ]
    assert {(line["requests"], line["origins"]) for line in lines} == {("2", "1")}
    named = {line["next_origin"] for line in lines} | {line["drop_origin"] for line in lines}
    assert named - {None} == {down.url}
    # One line per interval while the requests waited (about DEFER_MAX_TIME), not one per retry nor per
    # reactor tick; the wait is measured from the servers' and the spider's side, so load cannot break it.
    waited = max(outcome.time for outcome in result.outcomes if outcome.error_type) - down.hits("/robots.txt")[0].time
    assert 3 <= len(lines) <= waited / INTERVAL + 2, (len(lines), waited)
    # backoff 1 s, then 2 s: the next attempt is never further than 2 s away, and is announced
    next_attempts = [int(line["next"]) for line in lines if line["next"] is not None]
    assert next_attempts and all(seconds <= 2 for seconds in next_attempts), [entry.message for entry in entries]
    # the drop counts down from DEFER_MAX_TIME
    drops = [int(line["drop"]) for line in lines if line["drop"] is not None]
    assert len(drops) >= 2 and drops == sorted(drops, reverse=True), drops
    assert drops[0] <= DEFER_MAX_TIME and drops[-1] < drops[0]

    # Nothing waits once the origin's requests were dropped, while the slow page kept the crawl open.
    messages = [entry.message for entry in result.logs]
    last_drop = max(index for index, message in enumerate(messages) if message.startswith("Dropped "))
    assert not any("wait for robots.txt" in message for message in messages[last_drop:])
    dropped_at = down.hits("/robots.txt")[-1].time
    assert result.by_url()[f"{healthy.url}/slow"].time - dropped_at >= 2 * INTERVAL


@pytest_twisted.ensureDeferred
async def test_no_progress_line_when_nothing_waits(sites: Sites) -> None:
    site = sites.start(
        {"/robots.txt": text("User-agent: *\nDisallow: /private\n"), "/slow": Reply(body=PAGE, delay=SLOW_PAGE)}
    )
    result = await crawl(
        [f"{site.url}/slow", f"{site.url}/private"], settings={"LOGSTATS_INTERVAL": INTERVAL, "RETRY_ENABLED": False}
    )

    assert result.pages == [f"{site.url}/slow"]
    assert result.seconds >= SLOW_PAGE
    assert result.messages(logging.INFO, "wait for robots.txt") == []
