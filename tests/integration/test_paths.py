"""Less travelled paths: expired rules at download time, download_async callers, the 30-day rule."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest_twisted
from scrapy import Request
from scrapy.http import Response
from twisted.internet import defer

from scrapy_robots_rep.exceptions import RobotsDisallowed, RobotsUnreachable
from tests.integration.conftest import RecordingSpider, crawl
from tests.sites import PAGE, Reply, Sites, text

RULES = "User-agent: *\nDisallow: /private\n"


@pytest_twisted.ensureDeferred
async def test_rules_expired_while_queued_are_fetched_again_and_nothing_is_lost(sites: Sites) -> None:
    slow = {f"/p{index}": Reply(body=PAGE, delay=0.4) for index in range(4)}
    site = sites.start({"/robots.txt": text(RULES), **slow})
    urls = [f"{site.url}/p{index}" for index in range(4)]
    # /p1-/p3 are scheduled while the rules are fresh; one at a time, 0.4 s each,
    # /p3 reaches the downloader after they expired: it goes back and waits for a refetch
    result = await crawl([(0.0, urls[:1]), (0.0, urls[1:])], {"REP_CACHE_TTL": 1.0, "CONCURRENT_REQUESTS": 1})
    assert all(outcome.response is not None for outcome in result.outcomes)
    assert sorted(outcome.url for outcome in result.outcomes) == urls
    assert [path for path in site.paths()] == ["/robots.txt", "/p0", "/p1", "/p2", "/robots.txt", "/p3"]
    assert result.middleware.accounting.unbalanced() == {}
    assert result.stats["rep/requests/allowed"] == 4


class DownloadAsyncSpider(RecordingSpider):
    """Its callback downloads further URLs itself with ``engine.download_async``."""

    extra_urls: ClassVar[list[str]] = []

    def parse(self, response: Response) -> Any:
        super().parse(response)
        return self._fetch_extra()

    async def _fetch_extra(self) -> None:
        for url in self.extra_urls:
            self._pending += 1
            try:
                extra = await self.crawler.engine.download_async(Request(url))
            except Exception as error:  # recorded like an errback would be
                self.failed_with(url, error)
            else:
                super().parse(extra)


@pytest_twisted.ensureDeferred
async def test_requests_that_bypass_the_scheduler_wait_for_the_rules(sites: Sites) -> None:
    first = sites.start()
    other = sites.start({"/robots.txt": [text("", status=503), text(RULES)]})
    DownloadAsyncSpider.extra_urls = [f"{other.url}/page", f"{other.url}/private"]
    result = await crawl([f"{first.url}/start"], spider=DownloadAsyncSpider)
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
            defer.Deferred.fromCoroutine(crawl([f"{rfc_site.url}/page"], settings)),
            defer.Deferred.fromCoroutine(
                crawl([f"{legacy_site.url}/page"], {**settings, "REP_STATUS_POLICY": "legacy"})
            ),
        ]
    )
    assert rfc.outcomes[0].response is not None  # unreachable longer than the limit, no copy: allow all
    assert rfc_site.paths() == ["/robots.txt", "/robots.txt", "/page"]
    assert isinstance(legacy.outcomes[0].error, RobotsUnreachable)
    assert "/page" not in legacy_site.paths()
