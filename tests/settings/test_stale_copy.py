"""While robots.txt is unreachable, a copy obtained earlier decides requests at once; Retry-After on a
503 is honoured (docs/behaviour.md §5, §6)."""

from __future__ import annotations

import pytest_twisted

from scrapy_robots_rep.exceptions import RobotsDisallowed
from tests.crawling import Wave, crawl, obtained
from tests.settings.measure import ROBOTS
from tests.sites import Gate, Sites, text

RULES = "User-agent: *\nDisallow: /private\n"
RETRY_AFTER = 5
PAGES = [f"/b{index}" for index in range(12)]


@pytest_twisted.ensureDeferred
async def test_a_stale_copy_decides_at_once_and_retry_after_is_honoured(sites: Sites) -> None:
    """``stale``'s rules expire; its refresh fails (503) and its next answer is held until it has seen
    every later page: those pages must be decided by the copy, not wait for a fetch. ``fresh`` answers
    503 with Retry-After at first: its request waits, and its robots.txt too."""
    later_pages_seen = Gate(needed=len(PAGES) - 1)
    refused = text("", status=503)
    stale = sites.start(
        {ROBOTS: [text(RULES), refused, later_pages_seen.hold(refused)]}
        | {path: later_pages_seen.opening() for path in PAGES[1:]}
    )
    fresh = sites.start({ROBOTS: [text("", status=503, **{"Retry-After": str(RETRY_AFTER)}), text(RULES)]})
    result = await crawl(
        [f"{stale.url}/a"],
        Wave([f"{stale.url}{PAGES[0]}"], pause=1.2),  # the rules expired: decided by them, starts the refresh
        Wave(
            [f"{stale.url}{path}" for path in [*PAGES[1:], "/private"]] + [f"{fresh.url}/page"],
            after=obtained(stale.url, 2),  # the refresh failed
        ),
        settings={"REP_CACHE_TTL": 1, "REP_CACHE_TTL_MIN": 0, "REP_DEFER_MAX_TIME": RETRY_AFTER + 5},
    )
    by_url = result.by_url()

    # the copy obtained before the 503 decides every request that came after it, without waiting
    assert [record.outcome.value for record in result.records[stale.url]][:2] == ["rules", "unreachable"]
    assert by_url[f"{stale.url}/private"].error_type is RobotsDisallowed
    assert sorted(path for path in stale.paths() if path != ROBOTS) == sorted(["/a", *PAGES])
    assert later_pages_seen.kept_order, "a page waited for robots.txt"
    assert result.stat("rep/requests/deferred") == 2, "only /a and the fresh origin's page waited"
    # without a copy, requests wait; the next robots.txt fetch is not made before Retry-After
    first, second = [hit.time for hit in fresh.hits(ROBOTS)]
    assert second - first >= RETRY_AFTER - 0.05
    print(f"\nnext fetch {second - first:.2f} s after Retry-After: {RETRY_AFTER}")
    assert by_url[f"{fresh.url}/page"].responded
