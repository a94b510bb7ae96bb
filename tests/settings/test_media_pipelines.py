"""Requests that bypass the scheduler (FilesPipeline's ``engine.download_async``) must not hold the
crawl's download concurrency while their origin's robots.txt is unreachable (docs/behaviour.md §5)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest_twisted
from scrapy.http import Response

from tests.crawling import CrawlingSpider, PageHook, Wave, crawl
from tests.sites import Gate, Site, Sites, text

FILES = 4
HEALTHY_PAGES = [f"/h{index}" for index in range(4)]


def item_with_files(files: Site) -> PageHook:
    """The start page's item carries ``FILES`` file URLs on ``files``."""

    def hook(response: Response, spider: CrawlingSpider) -> Iterator[dict[str, Any]]:
        if response.url.endswith("/start"):
            yield {"file_urls": [f"{files.url}/file{index}.bin" for index in range(FILES)]}

    return hook


@pytest_twisted.ensureDeferred
async def test_files_waiting_for_an_unreachable_robots_txt_do_not_stall_other_origins(
    sites: Sites, tmp_path: Path
) -> None:
    """The files' origin answers 503 twice, then holds its rules back until the healthy origin's pages
    were all served: with the files holding both download slots, those pages would wait for them, and
    the gate's timeout would tell."""
    healthy_served = Gate(needed=len(HEALTHY_PAGES))
    unreachable = text("", status=503)
    down = sites.start(
        {"/robots.txt": [unreachable, unreachable, healthy_served.hold(text("User-agent: *\nAllow: /\n"))]}
    )
    start = sites.start()
    healthy = sites.start(
        {"/robots.txt": text("User-agent: *\nAllow: /\n")} | {p: healthy_served.opening() for p in HEALTHY_PAGES}
    )
    settings = {
        "ITEM_PIPELINES": {"scrapy.pipelines.files.FilesPipeline": 1},
        "FILES_STORE": str(tmp_path / "files"),
        "CONCURRENT_REQUESTS": 2,
        "REP_DEFER_MAX_TIME": 30,
    }

    result = await crawl(
        [f"{start.url}/start"],
        Wave([f"{healthy.url}{path}" for path in HEALTHY_PAGES]),
        settings=settings,
        page=item_with_files(down),
    )

    assert len(result.items) == 1
    assert sorted(healthy.paths()) == sorted([*HEALTHY_PAGES, "/robots.txt"])
    assert sorted(path for path in down.paths() if path != "/robots.txt") == [f"/file{n}.bin" for n in range(FILES)]
    assert healthy_served.kept_order, "the healthy origin waited for the files"
    assert len(down.hits("/robots.txt")) == 3
