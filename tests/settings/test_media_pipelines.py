"""Requests that bypass the scheduler (FilesPipeline's ``engine.download_async``) must not hold the
crawl's download concurrency while their origin's robots.txt is unreachable (docs/behaviour.md §5)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest_twisted
from scrapy.http import Response

from tests.crawling import CrawlingSpider, PageHook, Wave, crawl
from tests.settings.measure import first_page_after
from tests.sites import PAGE, Reply, Site, Sites, text

FILES = 4
START_DELAY = 0.5
"""The start page is slow, so that the healthy origin's first page comes at a measurable time."""


def item_with_files(files: Site | None) -> PageHook:
    """The start page's item carries ``FILES`` file URLs on ``files`` (none when ``files`` is None)."""

    def hook(response: Response, spider: CrawlingSpider) -> Iterator[dict[str, Any]]:
        if response.url.endswith("/start"):
            yield {"file_urls": [] if files is None else [f"{files.url}/file{index}.bin" for index in range(FILES)]}

    return hook


async def first_healthy_page(sites: Sites, tmp_path: Path, files: Site | None) -> tuple[float, Site]:
    """Seconds from the crawl's start to the healthy origin's first page, and the healthy origin."""
    start = sites.start({"/start": Reply(body=PAGE, delay=START_DELAY)})
    healthy = sites.start({"/robots.txt": text("User-agent: *\nAllow: /\n")})
    settings = {
        "ITEM_PIPELINES": {"scrapy.pipelines.files.FilesPipeline": 1},
        "FILES_STORE": str(tmp_path / f"files-{start.port}"),
        "CONCURRENT_REQUESTS": 2,
        "REP_DEFER_MAX_TIME": 5,
    }
    result = await crawl(
        [f"{start.url}/start"],
        Wave([f"{healthy.url}/h{index}" for index in range(4)]),
        settings=settings,
        page=item_with_files(files),
    )
    assert len(result.items) == 1
    return first_page_after(healthy, result.started), healthy


@pytest_twisted.ensureDeferred
async def test_files_waiting_for_an_unreachable_robots_txt_do_not_stall_other_origins(
    sites: Sites, tmp_path: Path
) -> None:
    alone, _ = await first_healthy_page(sites, tmp_path, None)
    down = sites.start({"/robots.txt": [text("", status=503), text("", status=503), text("User-agent: *\nAllow: /\n")]})
    beside, healthy = await first_healthy_page(sites, tmp_path, down)
    print(f"\nhealthy origin's first page: {alone:.2f} s alone, {beside:.2f} s beside {FILES} files waiting")
    assert sorted(healthy.paths()) == ["/h0", "/h1", "/h2", "/h3", "/robots.txt"]
    assert sorted(path for path in down.paths() if path != "/robots.txt") == [f"/file{n}.bin" for n in range(FILES)]
    assert beside < 2 * alone
