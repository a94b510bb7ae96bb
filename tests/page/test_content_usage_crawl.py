"""AIPREF ``Content-Usage`` and RSL ``License:`` in real crawls through the add-on, judged by what
the loopback servers saw (docs/page-directives.md)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest_twisted
from scrapy.http import Response

from scrapy_robots_rep import RobotsDisallowed
from tests.crawling import CrawlingSpider, crawl
from tests.page.pages import html
from tests.sites import Sites, text

ADDON = {"DOWNLOADER_MIDDLEWARES": {}, "ADDONS": {"scrapy_robots_rep.Addon": 0}, "ROBOTSTXT_OBEY": True}
PATHS = ("/data/a", "/data/open/b", "/input/c", "/odd/d", "/other/e")
ROBOTS = (
    "User-agent: *\n"
    "Allow: /\n"
    "Content-Usage: /data/ train-ai=n\n"
    "Content-Usage: /data/open/ train-ai=y\n"
    "Content-Usage: /input/ ai-use=n\n"
    "Content-Usage: /odd/ train-ai=maybe, ai-use=perhaps\n"
    "License: https://rights.test/license.xml\n"
)


def item_per_page(response: Response, spider: CrawlingSpider) -> Iterator[Any]:
    yield {"url": response.url}


def settings(*purposes: str, **more: Any) -> dict[str, Any]:
    return {**ADDON, "REP_PURPOSES": list(purposes), **more}


@pytest_twisted.ensureDeferred
async def test_a_path_scoped_train_ai_n_refuses_only_its_paths_and_a_longer_y_wins(sites: Sites) -> None:
    site = sites.start({"/robots.txt": text(ROBOTS), **{path: html() for path in PATHS}})
    result = await crawl([site.url + path for path in PATHS], settings=settings("ai-train"), page=item_per_page)

    assert sorted(site.paths()) == sorted(["/robots.txt", "/data/open/b", "/input/c", "/odd/d", "/other/e"])
    assert result.by_url()[f"{site.url}/data/a"].error_type is RobotsDisallowed
    assert result.stat("rep/requests/refused_purposes") == 1
    refusals = result.messages(contains="/data/a")
    assert any("line 3" in line and "Content-Usage: /data/ train-ai=n" in line for line in refusals)
    # An unknown value (``maybe``) is not a refusal: the page is fetched and its item kept.
    assert sorted(item["url"] for item in result.items) == [site.url + p for p in sorted(PATHS[1:])]


@pytest_twisted.ensureDeferred
async def test_ai_use_n_refuses_the_ai_input_purpose_under_either_name(sites: Sites) -> None:
    for declared in ("ai-input", "ai-use"):
        site = sites.start({"/robots.txt": text(ROBOTS), **{path: html() for path in PATHS}})
        result = await crawl([site.url + path for path in PATHS], settings=settings(declared), page=item_per_page)
        assert "/input/c" not in site.paths(), declared
        assert sorted(site.paths()) == sorted(["/robots.txt", "/data/a", "/data/open/b", "/odd/d", "/other/e"])
        assert result.stat("rep/requests/refused_purposes") == 1


@pytest_twisted.ensureDeferred
async def test_only_when_every_declared_purpose_is_refused_and_items_go_for_the_refused_one(sites: Sites) -> None:
    site = sites.start({"/robots.txt": text(ROBOTS), **{path: html() for path in PATHS}})
    result = await crawl(
        [site.url + path for path in PATHS], settings=settings("search", "ai-train"), page=item_per_page
    )
    # search is allowed everywhere: everything is fetched, but /data/a's items are not for ai-train.
    assert sorted(site.paths()) == sorted(["/robots.txt", *PATHS])
    assert f"{site.url}/data/a" not in [item["url"] for item in result.items]
    assert len(result.items) == len(PATHS) - 1
    assert result.stat("rep/page/items_dropped/purpose/ai-train") == 1
    assert any(
        "ai-train=n (robots.txt line 3: Content-Usage: /data/ train-ai=n)" in line
        for line in result.messages(contains="/data/a")
    )


@pytest_twisted.ensureDeferred
async def test_a_page_whose_header_says_train_ai_n_loses_its_items_only_for_ai_train(sites: Sites) -> None:
    routes = {
        "/robots.txt": text("User-agent: *\nAllow: /\n"),
        "/refusing": html(Content_Usage="train-ai=n, search=y"),
        "/plain": html(),
    }
    urls = ["/refusing", "/plain"]
    declared_ai_train = sites.start(routes)
    result = await crawl(
        [declared_ai_train.url + path for path in urls], settings=settings("ai-train"), page=item_per_page
    )
    assert sorted(declared_ai_train.paths()) == ["/plain", "/refusing", "/robots.txt"]
    assert result.items == [{"url": f"{declared_ai_train.url}/plain"}]
    assert result.stat("rep/page/items_dropped/purpose/ai-train") == 1

    declared_search = sites.start(routes)
    result = await crawl(
        [declared_search.url + path for path in urls], settings=settings("search", "ai-input"), page=item_per_page
    )
    assert sorted(declared_search.paths()) == ["/plain", "/refusing", "/robots.txt"]
    assert len(result.items) == 2


@pytest_twisted.ensureDeferred
async def test_the_report_lists_licences_and_content_usage_refusals(sites: Sites, tmp_path: Path) -> None:
    site = sites.start({"/robots.txt": text(ROBOTS), **{path: html() for path in PATHS}})
    report = tmp_path / "report.json"
    result = await crawl(
        [site.url + path for path in PATHS],
        settings=settings("ai-train", REP_REPORT=str(report), LOG_LEVEL="INFO"),
        page=item_per_page,
    )
    origin = json.loads(report.read_text())["origins"][0]
    assert origin["robots"]["licenses"] == ["https://rights.test/license.xml"]
    assert origin["refusals"] == [{"line": 3, "rule": "Content-Usage: /data/ train-ai=n", "reason": None, "refused": 1}]
    assert f"{site.url}: 1 request disallowed, by line 3 'Content-Usage: /data/ train-ai=n' (1)" in result.messages(
        contains="disallowed, by"
    )
    assert any("https://rights.test/license.xml" in line for line in result.messages(contains="RSL licences"))
