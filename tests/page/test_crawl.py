"""Page-level directives enforced in real crawls, judged by the servers' logs and the items
(docs/behaviour.md §10)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest_twisted
from scrapy import Request
from scrapy.http import Response

from scrapy_robots_rep.core.page import PageDirectives
from tests.crawling import CrawlingSpider, crawl
from tests.page.pages import MIDDLEWARE, ROBOTS, html, links, meta
from tests.sites import Route, Sites

SETTINGS = {"SPIDER_MIDDLEWARES": MIDDLEWARE}


def follow_links(response: Response, spider: CrawlingSpider) -> Iterator[Any]:
    """Yield an item per page (recording what the middleware read) and follow every link."""
    page = response.meta.get("robots")
    yield {"url": response.url, "noindex": page.noindex if isinstance(page, PageDirectives) else None}
    for href in response.css("a::attr(href)").getall():
        yield response.follow(href)


@pytest_twisted.ensureDeferred
async def test_nofollow_pages_links_are_not_fetched(sites: Sites, tmp_path: Path) -> None:
    site = sites.start(
        {
            "/robots.txt": ROBOTS,
            "/plain": html(body=links("/p1")),
            "/meta": html(meta("noindex, nofollow"), links("/m1", "/m2")),
            "/agent-meta": html(meta("nofollow", name="TestBot"), links("/a1")),
            "/header": html(body=links("/h1"), X_Robots_Tag="testbot: nofollow"),
            "/other-agent": html(meta("nofollow", name="otherbot"), links("/o1"), X_Robots_Tag="otherbot: none"),
            "/body-meta": html(body=links("/b1") + meta("nofollow")),
            "/commented": html("<!-- " + meta("nofollow") + " -->", links("/c1")),
        }
    )
    result = await crawl(
        [
            f"{site.url}{path}"
            for path in ("/plain", "/meta", "/agent-meta", "/header", "/other-agent", "/body-meta", "/commented")
        ],
        settings={**SETTINGS, "REP_REPORT": str(tmp_path / "report.json")},
        page=follow_links,
    )
    fetched = set(site.paths())
    assert {"/p1", "/o1", "/c1"} <= fetched
    [entry] = json.loads((tmp_path / "report.json").read_text())["origins"]
    assert entry["page_drops"] == {"nofollow": 5, "noindex": 1}
    assert not {"/m1", "/m2", "/a1", "/h1", "/b1"} & fetched
    assert result.stat("rep/page/requests_dropped/nofollow") == 5
    assert result.stat("rep/page/directive/nofollow") == 4
    logged = result.messages(contains="Dropped request")
    assert any("/h1" in line and "X-Robots-Tag: testbot: nofollow" in line for line in logged)
    assert any(
        "/m1" in line and '<meta name="robots" content="noindex, nofollow"> in the head' in line for line in logged
    )


@pytest_twisted.ensureDeferred
async def test_dont_obey_robotstxt_exempts_a_request_and_a_page(sites: Sites) -> None:
    site = sites.start(
        {
            "/robots.txt": ROBOTS,
            "/nofollow": html(meta("nofollow, noindex"), links("/followed", "/dropped")),
            "/exempt-page": html(meta("nofollow, noindex"), links("/from-exempt")),
        }
    )

    def hook(response: Response, spider: CrawlingSpider) -> Iterator[Any]:
        yield {"url": response.url}
        if response.url.endswith("/nofollow"):
            yield response.follow("/followed", meta={"dont_obey_robotstxt": True})
            yield response.follow("/dropped")
        elif response.url.endswith("/exempt-page"):
            yield response.follow("/from-exempt")

    exempt_page = lambda spider: Request(  # noqa: E731
        f"{site.url}/exempt-page", spider.parse, errback=spider.failed, meta={"dont_obey_robotstxt": True}
    )
    result = await crawl([f"{site.url}/nofollow", exempt_page], settings=SETTINGS, page=hook)
    assert "/followed" in site.paths() and "/dropped" not in site.paths()
    assert "/from-exempt" in site.paths()
    assert {"url": f"{site.url}/exempt-page"} in result.items
    assert {"url": f"{site.url}/nofollow"} not in result.items


@pytest_twisted.ensureDeferred
async def test_noindex_items_dropped_by_default(sites: Sites) -> None:
    site = sites.start(
        {
            "/robots.txt": ROBOTS,
            "/plain": html(),
            "/meta": html(meta("noindex")),
            "/header": html(X_Robots_Tag="testbot: noindex, nofollow"),
            "/other-agent-header": html(X_Robots_Tag="otherbot: noindex"),
            "/expired": html(meta("unavailable_after: Sunday, 15-Oct-22 07:00:00 PDT")),
            "/not-yet": html(meta("unavailable_after: 2999-01-01")),
            "/pdf": html(X_Robots_Tag="noindex", Content_Type="application/pdf"),
        }
    )
    paths = ("/plain", "/meta", "/header", "/other-agent-header", "/expired", "/not-yet", "/pdf")
    result = await crawl([f"{site.url}{path}" for path in paths], settings=SETTINGS, page=follow_links)
    kept = {item["url"].removeprefix(site.url) for item in result.items}
    assert kept == {"/plain", "/other-agent-header", "/not-yet"}
    assert result.stat("rep/page/items_dropped/noindex") == 3
    assert result.stat("rep/page/items_dropped/unavailable_after") == 1
    assert any("/expired" in line and "passed" in line for line in result.messages(contains="Dropped an item"))


@pytest_twisted.ensureDeferred
async def test_noindex_items_kept_on_request(sites: Sites) -> None:
    site = sites.start({"/robots.txt": ROBOTS, "/plain": html(), "/meta": html(meta("noindex"))})
    result = await crawl(
        [f"{site.url}/plain", f"{site.url}/meta"],
        settings={**SETTINGS, "REP_PAGE_NOINDEX": "keep"},
        page=follow_links,
    )
    assert sorted((item["url"].removeprefix(site.url), item["noindex"]) for item in result.items) == [
        ("/meta", True),
        ("/plain", False),
    ]
    assert result.stat("rep/page/items_dropped/noindex") == 0


@pytest_twisted.ensureDeferred
async def test_rel_nofollow_links(sites: Sites) -> None:
    body = links("/followed") + links("/marked", rel="nofollow") + links("sub/relative", rel="ugc nofollow")
    routes: dict[str, Route] = {"/robots.txt": ROBOTS, "/dir/page": html('<base href="/base/">', body)}
    on = sites.start(routes)
    off = sites.start(routes)
    on.routes["/dir/page"] = html('<base href="/base/">', body + links(f"{on.url}/absolute#top", rel="nofollow"))
    with_setting = await crawl(
        [f"{on.url}/dir/page"], settings={**SETTINGS, "REP_PAGE_REL_NOFOLLOW": True}, page=follow_links
    )
    without = await crawl([f"{off.url}/dir/page"], settings=SETTINGS, page=follow_links)
    assert "/base/followed" not in on.paths()  # the <base> applies: /followed is absolute
    assert "/followed" in on.paths()
    assert not {"/marked", "/base/sub/relative", "/absolute"} & set(on.paths())
    assert with_setting.stat("rep/page/requests_dropped/rel_nofollow") == 3
    assert {"/followed", "/marked", "/base/sub/relative"} <= set(off.paths())
    assert without.stat("rep/page/requests_dropped/rel_nofollow") == 0


@pytest_twisted.ensureDeferred
async def test_purposes_drop_items_of_pages_refusing_them(sites: Sites) -> None:
    routes: dict[str, Route] = {
        "/robots.txt": ROBOTS,
        "/plain": html(),
        "/noai": html(meta("noai")),
        "/noimageai": html(X_Robots_Tag="noimageai"),
        "/tdm-header": html(TDM_Reservation="1"),
        "/tdm-meta": html(meta("1", name="tdm-reservation") + meta("https://a.test/policy.json", name="tdm-policy")),
        "/tdm-zero": html(TDM_Reservation="0"),
    }
    paths = ("/plain", "/noai", "/noimageai", "/tdm-header", "/tdm-meta", "/tdm-zero")
    train = sites.start(routes)
    search = sites.start(routes)
    reported = sites.start(routes)
    for_training = await crawl(
        [f"{train.url}{path}" for path in paths], settings={**SETTINGS, "REP_PURPOSES": ["ai-train"]}, page=follow_links
    )
    for_search = await crawl(
        [f"{search.url}{path}" for path in paths], settings={**SETTINGS, "REP_PURPOSES": "search"}, page=follow_links
    )
    unenforced = await crawl([f"{reported.url}{path}" for path in paths], settings=SETTINGS, page=follow_links)
    assert {item["url"].removeprefix(train.url) for item in for_training.items} == {"/plain", "/tdm-zero"}
    assert for_training.stat("rep/page/items_dropped/purpose/ai-train") == 4
    assert len(for_search.items) == len(paths)
    assert len(unenforced.items) == len(paths)
    assert set(train.paths()) == set(search.paths()) == set(reported.paths())  # pages are fetched either way


@pytest_twisted.ensureDeferred
async def test_turned_off(sites: Sites) -> None:
    site = sites.start({"/robots.txt": ROBOTS, "/meta": html(meta("noindex, nofollow"), links("/next"))})
    result = await crawl([f"{site.url}/meta"], settings={**SETTINGS, "REP_PAGE_DIRECTIVES": False}, page=follow_links)
    assert "/next" in site.paths()
    assert {"url": f"{site.url}/meta", "noindex": None} in result.items
