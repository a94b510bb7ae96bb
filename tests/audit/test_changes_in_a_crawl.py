"""Change detection in a real crawl: one robots.txt served in three versions (docs/evidence.md)."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path
from typing import Any

import pytest_twisted

from scrapy_robots_rep import signals
from tests.audit.files import lines
from tests.crawling import Wave, crawl
from tests.sites import Sites, text

V1 = b"# first\nUser-agent: *\nDisallow: /a-private\nAllow: /a-private/open\nCrawl-delay: 0\n"
REORDERED = b"User-agent: *\n# the same rules, another comment and order\nAllow: /a-private/open\nCrawl-delay: 0\nDisallow: /a-private\n"
V2 = V1 + b"Disallow: /newly-closed\n"


@pytest_twisted.ensureDeferred
async def test_only_a_real_change_is_reported(sites: Sites, tmp_path: Path) -> None:
    site = sites.start({"/robots.txt": [text(V1), text(V1), text(REORDERED), text(V2)]})
    audit = tmp_path / "audit"
    obtained: list[str] = []
    changed: list[tuple[str, Any, Any, Any]] = []

    def watch(crawler: Any) -> None:
        def on_obtained(origin: str, **_: Any) -> None:
            obtained.append(origin)

        def on_changed(origin: str, old: Any, new: Any, change: Any) -> None:
            changed.append((origin, old, new, change))

        crawler.signals.connect(on_obtained, signal=signals.robots_obtained, weak=False)
        crawler.signals.connect(on_changed, signal=signals.robots_changed, weak=False)

    async def until_refreshed(response: Any, spider: Any) -> None:
        """Each page after the first triggered a refresh (the TTL expired): wait until it ended."""
        wanted = "abcd".index(response.url.rsplit("/", 1)[1]) + 1
        deadline = time.monotonic() + 60
        while len(obtained) < wanted:
            assert time.monotonic() < deadline, "the refresh did not end"
            await asyncio.sleep(0.02)

    result = await crawl(
        [f"{site.url}/a"],
        *(Wave([f"{site.url}/{name}"], pause=0.6) for name in "bcd"),
        page=until_refreshed,
        on_crawler=watch,
        settings={"REP_AUDIT_DIR": str(audit), "REP_CACHE_TTL": 0.5, "REP_CACHE_TTL_MIN": 0},
    )
    assert len(site.hits("/robots.txt")) == 4
    fetches = lines(audit, "fetches")
    assert [fetch["changed"] is not None for fetch in fetches] == [False, False, False, True]
    # Three distinct bodies (V1 served twice is stored once), each by its hash.
    assert len(list((audit / "robots").iterdir())) == 3
    assert fetches[0]["sha256"] == fetches[1]["sha256"] != fetches[2]["sha256"]
    assert fetches[3]["changed"]["added"] == [{"line": 6, "text": "Disallow: /newly-closed"}]
    assert fetches[3]["changed"]["removed"] == []

    assert result.stat("rep/robots/changed") == 1
    ((origin, old, new, change),) = changed
    assert origin == site.url
    assert old.rules.allowed(f"{site.url}/newly-closed") and not new.rules.allowed(f"{site.url}/newly-closed")
    assert [rule.text for rule in change.added] == ["Disallow: /newly-closed"]
    (line,) = result.messages(logging.INFO, "changed for")
    assert line == (
        f"robots.txt of {site.url} changed for testbot/1.0 (+http://example.test/bot): "
        "1 rule added: 'Disallow: /newly-closed' (line 6)"
    )
    assert result.messages(logging.INFO, f"robots.txt changed during the crawl for 1 origin: {site.url}")
