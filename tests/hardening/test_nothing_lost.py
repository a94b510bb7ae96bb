"""Nothing lost (issue 6): every request of a crawl is fetched, refused by a rule, or dropped and counted.

A mixed multi-origin crawl (rules, 4xx, 5xx, recovering 5xx, hanging, redirect loop, slow), run
under each status policy, is checked from the servers' own request logs and against the crawl's
stats; another crawl is closed (``CLOSESPIDER_TIMEOUT``) while requests wait for robots.txt.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import pytest_twisted
from twisted.internet import defer

from scrapy_robots_rep.exceptions import RobotsUnreachable
from tests.crawling import CrawlResult, crawl
from tests.hardening.expectations import Expected, check_pages
from tests.sites import Reply, Site, Sites, closed_port_url, redirect, text

FETCH_TIMEOUT = 3.0
"""Long enough for the slow robots.txt (1 s) and for the other origins' pages on a loaded machine."""
DEFER_MAX_TIME = 5.0
CONCURRENCY = 4
SETTINGS = {
    "REP_FETCH_TIMEOUT": FETCH_TIMEOUT,
    "REP_DEFER_MAX_TIME": DEFER_MAX_TIME,
    "CONCURRENT_REQUESTS": CONCURRENCY,
    "RETRY_ENABLED": False,
}
RULES = "User-agent: *\nDisallow: /private\nAllow: /private/ok\n\nUser-agent: otherbot\nDisallow: /\n"
HANGING_PAGES = tuple(f"/h{number}" for number in range(10))
REFUSED_PAGES = ("/r1", "/r2")
RULES_PAGES = tuple(f"/p{number}" for number in range(20))

ROBOTS = {
    "hanging": Reply(hang=True),
    "rules": text(RULES),
    "404": text("not here", status=404),
    "403": text("go away", status=403),
    "5xx": text("down", status=503),
    "429": text("slow down", status=429),
    "recovering 5xx": [text("down", status=503), text("oops", status=500), text("User-agent: *\nDisallow: /x\n")],
    "redirect loop": redirect("/robots.txt"),
    "slow": Reply(body=b"User-agent: *\nDisallow: /x\n", delay=1.0),
}
EXPECTED = {
    "hanging": Expected(unreachable=HANGING_PAGES),
    "rules": Expected(allowed=(*RULES_PAGES, "/private/ok"), disallowed=("/private/a", "/private/b")),
    "404": Expected(allowed=("/a", "/b")),
    "403": Expected(allowed=("/a", "/b")),
    "5xx": Expected(unreachable=("/a", "/b")),
    "429": Expected(unreachable=("/a",)),
    "recovering 5xx": Expected(allowed=("/y",), disallowed=("/x",)),
    "redirect loop": Expected(allowed=("/a",)),
    "slow": Expected(allowed=("/y",), disallowed=("/x",)),
}


LEGACY_EXPECTED = {**EXPECTED, "403": Expected(disallowed=("/a", "/b"))}
"""The legacy status policy reads 401/403 as "site closed to robots"; 5xx and 429 defer, as above."""


@dataclass
class MixedCrawl:
    expected: dict[str, Expected]
    sites: dict[str, Site]
    refused_origin: str
    result: CrawlResult
    requests: int


@pytest.fixture(scope="module", params=["rfc9309", "legacy"])
def mixed_crawl(request: pytest.FixtureRequest) -> Iterator[MixedCrawl]:
    """One crawl of every origin of :data:`ROBOTS` and of one refusing connections, per status policy."""
    expected_pages = EXPECTED if request.param == "rfc9309" else LEGACY_EXPECTED
    with Sites() as sites:
        started = {name: sites.start({"/robots.txt": reply}) for name, reply in ROBOTS.items()}
        refused_origin = closed_port_url()
        urls = [started[name].url + path for name, expected in expected_pages.items() for path in expected.paths()]
        urls += [refused_origin + path for path in REFUSED_PAGES]
        settings = {**SETTINGS, "REP_STATUS_POLICY": request.param}
        result = pytest_twisted.blockon(defer.ensureDeferred(crawl(urls, settings=settings, lean=True)))
        yield MixedCrawl(expected_pages, started, refused_origin, result, len(urls))


@pytest.mark.parametrize("name", list(EXPECTED))
def test_no_disallowed_page_requested_no_allowed_page_skipped(mixed_crawl: MixedCrawl, name: str) -> None:
    check_pages(name, mixed_crawl.sites[name], mixed_crawl.result, mixed_crawl.expected[name])


def test_an_origin_refusing_connections_is_unreachable(mixed_crawl: MixedCrawl) -> None:
    for path in REFUSED_PAGES:
        assert mixed_crawl.result.failures.get(mixed_crawl.refused_origin + path) is RobotsUnreachable


def test_the_stats_add_up(mixed_crawl: MixedCrawl) -> None:
    result = mixed_crawl.result
    expected_pages = mixed_crawl.expected.values()
    allowed = sum(len(expected.allowed) for expected in expected_pages)
    disallowed = sum(len(expected.disallowed) for expected in expected_pages)
    dropped = sum(len(expected.unreachable) for expected in expected_pages) + len(REFUSED_PAGES)
    assert result.stat("rep/requests/allowed") == allowed
    assert result.stat("rep/requests/disallowed") == disallowed
    assert result.stat("rep/requests/dropped_unreachable") == dropped
    assert allowed + disallowed + dropped == mixed_crawl.requests
    assert len(result.pages) + len(result.failures) == mixed_crawl.requests


def test_a_hanging_origin_does_not_hold_up_the_others(mixed_crawl: MixedCrawl) -> None:
    hanging_since = mixed_crawl.sites["hanging"].hits("/robots.txt")[0].time
    page_times = [hit.time for hit in mixed_crawl.sites["rules"].hits() if hit.path in RULES_PAGES]
    assert max(page_times) - hanging_since < FETCH_TIMEOUT, "other origins waited for the hanging robots.txt"


def test_a_redirect_loop_ends_after_the_hop_limit(mixed_crawl: MixedCrawl) -> None:
    assert mixed_crawl.sites["redirect loop"].paths().count("/robots.txt") == 1 + 5


def test_a_recovering_origin_is_fetched_until_it_answers(mixed_crawl: MixedCrawl) -> None:
    robots_hits = mixed_crawl.sites["recovering 5xx"].hits("/robots.txt")
    assert len(robots_hits) == 3
    assert robots_hits[-1].time - robots_hits[0].time < DEFER_MAX_TIME


WAITING = 12


@pytest_twisted.ensureDeferred
async def test_closing_while_requests_wait_for_robots_txt_accounts_for_each(sites: Sites) -> None:
    hanging = sites.start({"/robots.txt": Reply(hang=True)})
    rules = sites.start({"/robots.txt": text(RULES)})
    urls = [f"{hanging.url}/w{number}" for number in range(WAITING)] + [rules.url + "/a", rules.url + "/private/a"]
    result = await crawl(
        urls,
        settings={
            "CLOSESPIDER_TIMEOUT": 1.0,
            "REP_FETCH_TIMEOUT": 2,
            "REP_DEFER_MAX_TIME": 600,
            "RETRY_ENABLED": False,
        },
    )
    assert result.stats.get("finish_reason") == "closespider_timeout"
    assert [path for path in hanging.paths() if path != "/robots.txt"] == []
    warnings = result.messages(logging.WARNING)
    assert any(f"with {WAITING} requests still waiting" in message for message in warnings), warnings
    outcomes = {
        key: value
        for key, value in result.stats.items()
        if key.startswith("rep/requests/") and key != "rep/requests/deferred"
    }
    assert sum(outcomes.values()) == len(urls), f"requests unaccounted for in the stats: {outcomes}"


@pytest_twisted.ensureDeferred
async def test_concurrent_requests_to_a_fresh_origin_all_wait_for_its_rules(sites: Sites) -> None:
    """With Scrapy's own middleware, 8 of 10 such requests reach the server."""
    site = sites.start({"/robots.txt": Reply(body=b"User-agent: *\nDisallow: /private\n", delay=0.3)})
    urls = [f"{site.url}/private?n={number}" for number in range(10)] + [site.url + "/public"]
    result = await crawl(
        urls,
        settings={
            "CONCURRENT_REQUESTS": 16,
            "CONCURRENT_REQUESTS_PER_DOMAIN": 16,
            "RETRY_ENABLED": False,
        },
    )
    assert site.paths() == ["/robots.txt", "/public"]
    assert result.stat("rep/requests/disallowed") == 10
