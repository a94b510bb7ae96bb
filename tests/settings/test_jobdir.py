"""Nothing is lost across a pause: with JOBDIR, requests deferred when the crawl stops are crawled
or decided after the restart (docs/behaviour.md §5)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import pytest_twisted
from scrapy.crawler import Crawler
from twisted.internet import defer, reactor

from tests.crawling import crawl
from tests.sites import Sites, text

PAGES = [f"/p{index}" for index in range(5)]
STOP_AFTER = 1.5


def stop_later(crawler: Crawler) -> None:
    """Stop the crawl as a first Ctrl-C would (``crawler.stop()``) after :data:`STOP_AFTER` seconds."""
    reactor.callLater(STOP_AFTER, lambda: defer.ensureDeferred(crawler.stop()))  # type: ignore[attr-defined]


STOPS: dict[str, dict[str, Any]] = {
    "CLOSESPIDER_TIMEOUT": {"settings": {"CLOSESPIDER_TIMEOUT": STOP_AFTER}},
    "crawler.stop()": {"on_crawler": stop_later},
}


@pytest.mark.parametrize("stop", list(STOPS))
@pytest_twisted.ensureDeferred
async def test_requests_deferred_at_a_pause_are_crawled_after_the_restart(
    sites: Sites, tmp_path: Path, stop: str
) -> None:
    site = sites.start({"/robots.txt": text("", status=503)})
    jobdir = {"JOBDIR": str(tmp_path / "job")}
    urls = [site.url + path for path in [*PAGES, "/private"]]
    how = STOPS[stop]
    paused = await crawl(urls, settings={**jobdir, **how.get("settings", {})}, on_crawler=how.get("on_crawler"))
    assert [path for path in site.paths() if path != "/robots.txt"] == []
    assert paused.pages == []

    site.routes["/robots.txt"] = text("User-agent: *\nDisallow: /private\n")
    resumed = await crawl(settings=jobdir)

    assert sorted(path for path in site.paths() if path != "/robots.txt") == PAGES
    assert sorted(resumed.pages) == sorted(site.url + path for path in PAGES)
    assert resumed.stat("rep/requests/allowed") == len(PAGES)
    assert resumed.stat("rep/requests/disallowed") == 1
