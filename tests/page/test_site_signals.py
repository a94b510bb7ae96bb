"""robots.txt ``Content-Signal`` with ``REP_PURPOSES`` in real crawls (docs/behaviour.md §10).

Both need the robots.txt middleware: it puts the origin's signals in
``request.meta["rep_content_signals"]`` for the page middleware, and drops an origin's requests
before download when :func:`~scrapy_robots_rep.core.page.purpose_refusal` says so.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest_twisted
from scrapy.http import Response

from scrapy_robots_rep.page.middleware import CONTENT_SIGNALS_META
from tests.crawling import CrawlingSpider, crawl, request
from tests.page.pages import MIDDLEWARE, html
from tests.sites import Sites, text


def item_per_page(response: Response, spider: CrawlingSpider) -> Iterator[Any]:
    yield {"url": response.url}


@pytest_twisted.ensureDeferred
async def test_items_dropped_when_robots_txt_refuses_one_declared_purpose(sites: Sites) -> None:
    site = sites.start(
        {"/robots.txt": text("User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n"), "/a": html()}
    )
    result = await crawl(
        [f"{site.url}/a"],
        settings={"SPIDER_MIDDLEWARES": MIDDLEWARE, "REP_PURPOSES": ["search", "ai-train"]},
        page=item_per_page,
    )
    assert "/a" in site.paths()
    assert result.items == []
    assert result.stat("rep/page/items_dropped/purpose/ai-train") == 1


@pytest_twisted.ensureDeferred
async def test_nothing_fetched_when_robots_txt_refuses_every_declared_purpose(sites: Sites) -> None:
    site = sites.start(
        {"/robots.txt": text("User-agent: *\nContent-Signal: ai-train=no, ai-input=no\nAllow: /\n"), "/a": html()}
    )
    result = await crawl(
        [f"{site.url}/a"],
        settings={"SPIDER_MIDDLEWARES": MIDDLEWARE, "REP_PURPOSES": ["ai-train", "ai-input"]},
        page=item_per_page,
    )
    assert site.paths() == ["/robots.txt"]
    assert result.failures != {}


@pytest_twisted.ensureDeferred
async def test_the_page_middleware_folds_in_the_signals_passed_on(sites: Sites) -> None:
    site = sites.start({"/robots.txt": text("User-agent: *\nAllow: /\n"), "/a": html(), "/b": html()})
    refused = request(f"{site.url}/a", meta={CONTENT_SIGNALS_META: {"search": True, "ai-train": False}})
    allowed = request(f"{site.url}/b", meta={CONTENT_SIGNALS_META: {"ai-train": True}})
    result = await crawl(
        [refused, allowed],
        settings={"SPIDER_MIDDLEWARES": MIDDLEWARE, "REP_PURPOSES": ["search", "ai-train"]},
        page=item_per_page,
    )
    assert result.items == [{"url": f"{site.url}/b"}]
    assert result.stat("rep/page/items_dropped/purpose/ai-train") == 1
    assert any("ai-train=no (robots.txt Content-Signal)" in line for line in result.messages(contains="/a"))
