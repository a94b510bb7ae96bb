"""Conditional refresh of robots.txt (docs/behaviour.md §5 and §6), judged by what the server saw.

Rules that came with ``ETag`` and/or ``Last-Modified`` are refreshed with ``If-None-Match`` /
``If-Modified-Since``; a ``304`` keeps them without a parse and starts a new lifetime, a ``200``
replaces them, a ``5xx`` keeps using the copy. The rules last one second (``max-age=1``), and a
wave sent after that starts the refresh.
"""

from __future__ import annotations

from typing import Any

import pytest
import pytest_twisted
from scrapy import signals as scrapy_signals
from scrapy.crawler import Crawler

from scrapy_robots_rep.exceptions import RobotsDisallowed
from tests.crawling import Wave, crawl, obtained
from tests.revalidation.servers import OLD_DATE, RobotsFile, Version
from tests.sites import Reply, Sites, text

ROBOTS = "User-agent: *\nDisallow: /private\n"
ROBOTS_PARSED = getattr(scrapy_signals, "robots_parsed", None)
"""Scrapy's ``robots_parsed`` signal; Scrapy 2.18 added it, earlier versions have none to send."""
ONE_SECOND = {"Cache-Control": "max-age=1"}
SETTINGS: dict[str, Any] = {"REP_CACHE_TTL_MIN": 0, "REP_CACHE_TTL_MAX": 60, "RETRY_ENABLED": False}
EXPIRED = 1.2
"""Pause after which rules of ``max-age=1`` have expired."""


def count_parses(counter: list[object]) -> Any:
    """``on_crawler`` hook counting Scrapy's ``robots_parsed`` signal (sent for every parsed robots.txt)."""

    def connect(crawler: Crawler) -> None:
        if ROBOTS_PARSED is not None:
            crawler.signals.connect(lambda **kwargs: counter.append(kwargs), ROBOTS_PARSED, weak=False)

    return connect


@pytest.mark.parametrize(
    ("etag", "last_modified"),
    [('"v1"', None), (None, OLD_DATE), ('W/"v1"', OLD_DATE)],
    ids=["etag-only", "last-modified-only", "both"],
)
@pytest_twisted.ensureDeferred
async def test_refresh_is_conditional_and_a_304_keeps_the_rules(
    sites: Sites, etag: str | None, last_modified: str | None
) -> None:
    robots = RobotsFile(Version(ROBOTS, etag=etag, last_modified=last_modified, headers=ONE_SECOND))
    site = sites.start({"/robots.txt": robots})
    parsed: list[object] = []

    result = await crawl(
        [f"{site.url}/a"],
        Wave([f"{site.url}/b"], pause=EXPIRED),
        Wave([f"{site.url}/c", f"{site.url}/private/1"], after=obtained(site.url, 2)),
        settings=SETTINGS,
        on_crawler=count_parses(parsed),
    )

    assert robots.statuses() == [200, 304]
    assert robots.request_headers("If-None-Match") == [None, etag]
    assert robots.request_headers("If-Modified-Since") == [None, last_modified]
    assert result.stat("rep/robots/revalidated/not_modified") == 1
    assert result.stat("rep/robots/revalidated/modified") == 0
    if ROBOTS_PARSED is not None:
        assert len(parsed) == 1, "a 304 keeps the rules without a parse"
    assert "/c" in site.paths() and "/private/1" not in site.paths(), "the kept rules decide"
    assert result.failures == {f"{site.url}/private/1": RobotsDisallowed}
    first, revalidated = result.records[site.url]
    assert revalidated.fetched_at >= first.expires_at, "not refreshed before expiry"
    assert revalidated.expires_at - revalidated.fetched_at == pytest.approx(1.0), "a new lifetime from the 304"
    assert revalidated.validators == first.validators


@pytest_twisted.ensureDeferred
async def test_a_304_then_a_200_with_changed_rules(sites: Sites) -> None:
    v1 = Version("User-agent: *\nDisallow: /blocked-v1\n", etag='"v1"', headers=ONE_SECOND)
    v2 = Version("User-agent: *\nDisallow: /blocked-v2\n", etag='"v2"', headers=ONE_SECOND)
    robots = RobotsFile(v1, v1, v2)  # the file changes after the first refresh
    site = sites.start({"/robots.txt": robots})
    url = site.url

    result = await crawl(
        [f"{url}/a", f"{url}/blocked-v1"],
        Wave([f"{url}/b"], pause=EXPIRED),  # refresh: 304
        # refresh: 200 with v2; this request is decided by v1
        Wave([f"{url}/blocked-v2"], pause=EXPIRED, after=obtained(url, 2)),
        Wave([f"{url}/blocked-v1?again", f"{url}/blocked-v2?again"], after=obtained(url, 3)),
        settings=SETTINGS,
    )

    assert robots.statuses() == [200, 304, 200]
    assert robots.request_headers("If-None-Match") == [None, '"v1"', '"v1"']
    assert result.stat("rep/robots/revalidated/not_modified") == 1
    assert result.stat("rep/robots/revalidated/modified") == 1
    paths = site.paths()
    assert "/blocked-v1" not in paths
    assert "/blocked-v2" in paths, "expired v1 rules decided the request that started the refresh"
    assert "/blocked-v1?again" in paths and "/blocked-v2?again" not in paths, "v2 rules apply after the 200"
    assert result.failures == {f"{url}/blocked-v1": RobotsDisallowed, f"{url}/blocked-v2?again": RobotsDisallowed}
    assert result.last_record(url).validators.etag == '"v2"'


@pytest_twisted.ensureDeferred
async def test_a_304_to_an_unconditional_request_is_unreachable(sites: Sites) -> None:
    site = sites.start({"/robots.txt": [Reply(status=304), text("User-agent: *\nAllow: /\n")]})

    result = await crawl([f"{site.url}/a"], settings=SETTINGS)

    robots_hits = site.hits("/robots.txt")
    assert "If-None-Match" not in robots_hits[0].headers and "If-Modified-Since" not in robots_hits[0].headers
    assert result.stat("rep/robots/outcome/unreachable") == 1
    assert result.stat("rep/robots/outcome/rules") == 1
    assert len(robots_hits) == 2 and robots_hits[1].time - robots_hits[0].time >= 0.9, "retried after a backoff"
    (page,) = site.hits("/a")
    assert page.time > robots_hits[1].time, "the page waited for robots.txt"
    assert result.stat("rep/robots/revalidated/not_modified") == 0


@pytest_twisted.ensureDeferred
async def test_a_5xx_on_refresh_keeps_using_the_copy(sites: Sites) -> None:
    robots = RobotsFile(Version(ROBOTS, etag='"v1"', headers=ONE_SECOND), failing_from=1, failing_status=503)
    site = sites.start({"/robots.txt": robots})
    url = site.url

    result = await crawl(
        [f"{url}/a", f"{url}/private/1"],
        Wave([f"{url}/b"], pause=EXPIRED),  # refresh: 503
        Wave([f"{url}/c", f"{url}/private/2"], after=obtained(url, 2)),
        settings=SETTINGS,
    )

    assert robots.statuses()[:2] == [200, 503]
    assert robots.request_headers("If-None-Match")[1] == '"v1"'
    assert result.stat("rep/robots/outcome/unreachable") >= 1
    assert {"/a", "/b", "/c"} <= set(site.paths())
    assert not [path for path in site.paths() if path.startswith("/private")], "the copy still decides"
    assert result.failures == {f"{url}/private/1": RobotsDisallowed, f"{url}/private/2": RobotsDisallowed}
    assert site.paths().count("/c") == 1
    assert result.stat("rep/requests/deferred") == 2, "/c was decided by the copy, not parked until the next attempt"
    assert result.stat("rep/robots/revalidated/not_modified") == 0
    assert result.stat("rep/robots/revalidated/modified") == 0, "a failed refresh is not a revalidation"
