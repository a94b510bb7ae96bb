"""REP_DEFER_MAX_TIME = 0 drops an unreachable origin's requests at once, counted and logged as
unreachable, not as disallowed (docs/behaviour.md §5, §7)."""

from __future__ import annotations

import pytest_twisted

from scrapy_robots_rep.exceptions import RobotsUnreachable
from tests.crawling import crawl
from tests.sites import Sites, closed_port_url, text


@pytest_twisted.ensureDeferred
async def test_requests_are_dropped_as_unreachable(sites: Sites) -> None:
    down = sites.start({"/robots.txt": text("", status=503)})
    refused = closed_port_url(sites.start().host)
    urls = [f"{down.url}/a", f"{down.url}/b", f"{refused}/c"]
    result = await crawl(urls, settings={"REP_DEFER_MAX_TIME": 0})

    assert [path for path in down.paths() if path != "/robots.txt"] == []
    assert all(result.by_url()[url].error_type is RobotsUnreachable for url in urls)
    assert result.stat("rep/requests/dropped_unreachable") == len(urls)
    assert result.stat("rep/requests/disallowed") == 0
    assert result.messages(contains="Forbidden by robots.txt") == []
    for url in urls:
        assert [message for message in result.messages(contains=url) if "unreachable" in message.lower()], url
    assert result.messages(contains="dropped for 0s") == []
    assert result.messages(contains="its requests are dropped"), result.messages(contains="unreachable")
