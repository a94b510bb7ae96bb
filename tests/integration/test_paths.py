"""Less travelled paths: expired rules at download time, download_async callers, the 30-day rule."""

from __future__ import annotations

import pytest_twisted
from scrapy import Request
from scrapy.exceptions import IgnoreRequest
from scrapy.http import Response
from twisted.internet import defer

from scrapy_robots_rep.crawl.scrapy_compat import download
from scrapy_robots_rep.exceptions import RobotsDisallowed, RobotsUnreachable
from tests.crawling import CrawlingSpider, PageHook, crawl
from tests.sites import PAGE, Gate, Reply, Sites, text

RULES = "User-agent: *\nDisallow: /private\n"


TTL = 2.0
"""Long enough for /p0-/p2 to be decided on a loaded machine: three quick pages, nothing else."""


@pytest_twisted.ensureDeferred
async def test_rules_expired_while_queued_decide_at_once_and_are_refreshed(sites: Sites) -> None:
    p3_seen = Gate()
    site = sites.start(
        {
            "/robots.txt": [text(RULES), p3_seen.hold(text(RULES))],
            "/p2": Reply(body=PAGE, delay=TTL + 0.2),
            "/p3": p3_seen.opening(),
        }
    )
    urls = [f"{site.url}/p{index}" for index in range(4)]
    # /p1-/p3 are scheduled while the rules are fresh and go one at a time; /p2 takes longer than the
    # rules live, so /p3 reaches the downloader after they expired: the stale rules decide it at once
    # while one refresh runs beside it (docs/behaviour.md §6, stale-while-revalidate)
    result = await crawl(
        urls[:1], urls[1:], settings={"REP_CACHE_TTL": TTL, "CONCURRENT_REQUESTS": 1, "DOWNLOAD_TIMEOUT": 10}
    )
    assert sorted(result.pages) == sorted(outcome.url for outcome in result.outcomes) == urls
    paths = site.paths()
    assert paths[:4] == ["/robots.txt", "/p0", "/p1", "/p2"]
    assert sorted(paths[4:]) == ["/p3", "/robots.txt"]
    # the refresh was answered only once /p3 had reached the server: /p3 did not wait for it
    assert p3_seen.kept_order
    assert result.middleware.accounting.unbalanced() == {}
    assert result.stats["rep/requests/allowed"] == 4


def download_async(*urls: str) -> PageHook:
    """A page hook downloading ``urls`` itself with the engine (``download_async``, or ``download`` before
    Scrapy 2.14), recording what came back."""

    async def fetch(response: Response, spider: CrawlingSpider) -> None:
        for url in urls:
            try:
                extra = await download(spider.crawler.engine, Request(url))
            except IgnoreRequest as error:  # recorded like an errback would be
                spider.record_error(url, error)
            else:
                spider.record_response(extra)

    return fetch


@pytest_twisted.ensureDeferred
async def test_requests_that_bypass_the_scheduler_wait_for_the_rules(sites: Sites) -> None:
    first = sites.start()
    other = sites.start({"/robots.txt": [text("", status=503), text(RULES)]})
    result = await crawl([f"{first.url}/start"], page=download_async(f"{other.url}/page", f"{other.url}/private"))
    by_url = result.by_url()
    assert by_url[f"{other.url}/page"].response is not None
    assert isinstance(by_url[f"{other.url}/private"].error, RobotsDisallowed)
    assert other.paths() == ["/robots.txt", "/robots.txt", "/page"]


@pytest_twisted.ensureDeferred
async def test_thirty_day_rule_in_rfc9309_only(sites: Sites) -> None:
    rfc_site = sites.start({"/robots.txt": text("", status=503)})
    legacy_site = sites.start({"/robots.txt": text("", status=503)})
    settings = {"REP_UNREACHABLE_MAX_AGE": 0.5, "REP_DEFER_MAX_TIME": 2}
    rfc, legacy = await defer.gatherResults(
        [
            defer.Deferred.fromCoroutine(crawl([f"{rfc_site.url}/page"], settings=settings)),
            defer.Deferred.fromCoroutine(
                crawl([f"{legacy_site.url}/page"], settings={**settings, "REP_STATUS_POLICY": "legacy"})
            ),
        ]
    )
    assert rfc.outcomes[0].response is not None  # unreachable longer than the limit, no copy: allow all
    assert rfc_site.paths() == ["/robots.txt", "/robots.txt", "/page"]
    assert isinstance(legacy.outcomes[0].error, RobotsUnreachable)
    assert "/page" not in legacy_site.paths()
