"""While robots.txt is unreachable, a copy obtained earlier decides requests at once; Retry-After on a
503 is honoured (docs/behaviour.md §5, §6)."""

from __future__ import annotations

import pytest_twisted

from scrapy_robots_rep.exceptions import RobotsDisallowed
from tests.crawling import Wave, crawl
from tests.settings.measure import ROBOTS, gaps, page_times
from tests.sites import PAGE, Reply, Sites, text

RULES = "User-agent: *\nDisallow: /private\n"
RETRY_AFTER = 5
PAGES = [f"/b{index}" for index in range(12)]
PAGE_DELAY = 0.3
"""The stale origin's pages take a while, so that its requests keep coming across robots.txt retries."""


@pytest_twisted.ensureDeferred
async def test_a_stale_copy_decides_at_once_and_retry_after_is_honoured(sites: Sites) -> None:
    """``stale`` answers 503 slowly once its rules expire: its requests must not wait for those fetches;
    ``fresh`` answers 503 with Retry-After at first: its request waits, and its robots.txt too."""
    slow_503 = Reply(status=503, delay=0.8)
    stale = sites.start(
        {ROBOTS: [text(RULES), slow_503], **{path: Reply(body=PAGE, delay=PAGE_DELAY) for path in PAGES}}
    )
    fresh = sites.start({ROBOTS: [text("", status=503, **{"Retry-After": str(RETRY_AFTER)}), text(RULES)]})
    result = await crawl(
        [f"{stale.url}/a"],
        Wave([f"{stale.url}{path}" for path in [*PAGES, "/private"]] + [f"{fresh.url}/page"], pause=1.2),
        settings={
            "REP_CACHE_TTL": 1,
            "REP_CACHE_TTL_MIN": 0,
            "REP_DEFER_MAX_TIME": RETRY_AFTER + 2,
            "CONCURRENT_REQUESTS_PER_DOMAIN": 1,
        },
    )
    by_url = result.by_url()

    # the copy obtained before the 503 decides every request of the second wave, without waiting
    assert by_url[f"{stale.url}/private"].error_type is RobotsDisallowed
    assert sorted(path for path in stale.paths() if path != ROBOTS) == sorted(["/a", *PAGES])
    second_wave = page_times(stale)[1:]
    assert second_wave[0] - (by_url[f"{stale.url}/a"].time + 1.2) < 0.5, "the second wave waited for robots.txt"
    assert max(gaps(second_wave)) < PAGE_DELAY + 0.2, [round(gap, 2) for gap in gaps(second_wave)]
    # without a copy, requests wait; the next robots.txt fetch is not made before Retry-After
    first, second = [hit.time for hit in fresh.hits(ROBOTS)]
    assert second - first >= RETRY_AFTER - 0.05
    print(
        f"\nlargest gap while the copy decided: {max(gaps(second_wave)):.2f} s; "
        f"next fetch {second - first:.2f} s after Retry-After: {RETRY_AFTER}"
    )
    assert by_url[f"{fresh.url}/page"].responded
