"""The lifetime of robots.txt rules comes from the response's HTTP freshness (docs/behaviour.md §6).

Each test crawls a loopback site in waves and reads, from the server's log, when robots.txt was
fetched again: a refresh is started by the first request after the rules expire (that request is
still decided by the expired rules). ``REP_CACHE_TTL_MIN`` is lowered so that short lifetimes are
not clamped away.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
import pytest_twisted

from tests.crawling import CrawlResult, Wave, crawl, obtained
from tests.revalidation.servers import OLD_DATE, http_date, raw_robots
from tests.sites import Route, Site, Sites, text

ROBOTS = "User-agent: *\nDisallow: /private\n"
SHORT: dict[str, Any] = {"REP_CACHE_TTL_MIN": 0, "REP_CACHE_TTL_MAX": 60, "RETRY_ENABLED": False}


def lifetime(result: CrawlResult, site: Site, number: int = 0) -> float:
    """The lifetime of the ``number``-th record the crawl obtained for ``site``."""
    record = result.records[site.url][number]
    return float(record.expires_at - record.fetched_at)


def robots_times(site: Site) -> list[float]:
    return [hit.time for hit in site.hits("/robots.txt")]


async def crawl_waves(site: Site, pauses: list[float], settings: dict[str, Any], fetches: int) -> CrawlResult:
    """One page per wave: ``/w0`` at once, then ``/w1`` ``pauses[0]`` s after it ended, and so on; the
    crawl stays open until ``fetches`` robots.txt fetches have ended, so that it does not close on a
    refresh the waves started.

    A wave meant to find the rules fresh comes 0.2 s after the one before, well inside the lifetimes
    it is meant to be inside (2 s and more): on a loaded machine, waves take longer than their pauses."""
    waves = [Wave([f"{site.url}/w{number + 1}"], pause=pause) for number, pause in enumerate(pauses)]
    return await crawl([f"{site.url}/w0"], *waves, Wave([], after=obtained(site.url, fetches)), settings=settings)


@pytest.mark.parametrize(("age", "expected"), [(None, 3.0), ("2", 1.0)], ids=["max-age", "max-age-minus-age"])
@pytest_twisted.ensureDeferred
async def test_max_age_minus_age_is_the_lifetime(sites: Sites, age: str | None, expected: float) -> None:
    headers = {"Cache-Control": "max-age=3", **({"Age": age} if age else {})}
    site = sites.start({"/robots.txt": text(ROBOTS, **headers)})

    result = await crawl_waves(site, [1.5], SHORT, fetches=1 if expected > 1.5 else 2)

    assert lifetime(result, site) == pytest.approx(expected)
    times = robots_times(site)
    if expected < 1.5:  # expired before the second wave: its request started a refresh
        assert len(times) == 2 and times[1] - times[0] >= expected
    else:
        assert len(times) == 1
    assert result.stat("rep/robots/lifetime/max-age") == len(times)
    assert site.paths().count("/w1") == 1, "the request that started the refresh was decided at once"


@pytest_twisted.ensureDeferred
async def test_expires_minus_the_servers_date(sites: Sites) -> None:
    """A server clock 100 s behind: Expires minus Date is 2 s; Expires minus now would be in the past."""

    def skewed() -> dict[str, str]:
        now = time.time()
        return {"Date": http_date(-100, now=now), "Expires": http_date(-98, now=now)}

    site = sites.start({"/robots.txt": raw_robots(ROBOTS, skewed)})

    result = await crawl_waves(site, [0.2, 2.3], SHORT, fetches=2)

    assert lifetime(result, site) == pytest.approx(2.0)
    assert result.stat("rep/robots/lifetime/expires") == 2
    times = robots_times(site)
    assert len(times) == 2, "no refresh at 0.2 s, one at 2.5 s"
    assert times[1] - times[0] >= 2.0


@pytest_twisted.ensureDeferred
async def test_expires_without_date_counts_from_now(sites: Sites) -> None:
    site = sites.start({"/robots.txt": raw_robots(ROBOTS, lambda: {"Expires": http_date(3)})})

    result = await crawl_waves(site, [0.2, 3.0], SHORT, fetches=2)

    assert 1.5 < lifetime(result, site) <= 3.0  # HTTP dates have whole seconds: more than 2 s, less the transfer
    assert result.stat("rep/robots/lifetime/expires") == 2
    times = robots_times(site)
    assert len(times) == 2, "no refresh at 0.2 s, one at 3.2 s"
    assert times[1] - times[0] >= 3.0


@pytest.mark.parametrize(
    ("headers", "source"),
    [
        ({"Cache-Control": "no-store"}, "no-cache"),
        ({"Cache-Control": "no-cache"}, "no-cache"),
        ({"Cache-Control": "max-age=0"}, "max-age"),
        ({"Expires": OLD_DATE}, "expires"),
    ],
    ids=["no-store", "no-cache", "max-age=0", "past-expires"],
)
@pytest_twisted.ensureDeferred
async def test_no_store_no_cache_and_zero_lifetimes_give_the_minimum(
    sites: Sites, headers: dict[str, str], source: str
) -> None:
    site = sites.start({"/robots.txt": text(ROBOTS, **headers)})
    settings = {**SHORT, "REP_CACHE_TTL_MIN": 2, "REP_CACHE_TTL": 60}

    result = await crawl_waves(site, [0.2, 2.0], settings, fetches=2)

    assert lifetime(result, site) == 2.0
    assert result.stat(f"rep/robots/lifetime/{source}") == 2
    times = robots_times(site)
    assert len(times) == 2, "kept for REP_CACHE_TTL_MIN (not refreshed at 0.2 s), not for REP_CACHE_TTL"
    assert times[1] - times[0] >= 2.0


@pytest.mark.parametrize(
    ("robots", "settings"),
    [
        (text(ROBOTS), {}),
        (text(ROBOTS, **{"Cache-Control": "max-age=3600"}), {"REP_CACHE_HONOR_HEADERS": False}),
        (text(ROBOTS, **{"Cache-Control": "max-age=banana", "Expires": "yesterday"}), {}),
    ],
    ids=["no-headers", "headers-not-honoured", "malformed-headers"],
)
@pytest_twisted.ensureDeferred
async def test_without_usable_freshness_headers_rep_cache_ttl_applies_unclamped(
    sites: Sites, robots: Route, settings: dict[str, Any]
) -> None:
    site = sites.start({"/robots.txt": robots})

    result = await crawl_waves(
        site, [1.2], {**SHORT, "REP_CACHE_TTL": 1, "REP_CACHE_TTL_MIN": 5, **settings}, fetches=2
    )

    assert lifetime(result, site) == 1.0
    assert result.stat("rep/robots/lifetime/default") == 2
    assert len(robots_times(site)) == 2
