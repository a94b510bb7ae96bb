"""Provenance on items (``REP_PROVENANCE_FIELD``), without an audit directory."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest_twisted
import scrapy

from tests.crawling import AGENT, BASE_SETTINGS, crawl
from tests.sites import Sites, text


class Declared(scrapy.Item):
    url = scrapy.Field()
    robots_provenance = scrapy.Field()


class Undeclared(scrapy.Item):
    url = scrapy.Field()


@dataclass
class Record:
    url: str
    robots_provenance: Any = None


def every_kind(response: Any, spider: Any) -> Iterator[Any]:
    yield {"url": response.url}
    yield Declared(url=response.url)
    yield Record(url=response.url)
    yield Undeclared(url=response.url)


@pytest_twisted.ensureDeferred
async def test_items_that_can_hold_the_field_get_the_provenance(sites: Sites, tmp_path: Path, monkeypatch: Any) -> None:
    site = sites.start({"/robots.txt": text("User-agent: *\nDisallow: /private\nAllow: /open\n")})
    monkeypatch.chdir(tmp_path)  # nothing may be written, here or anywhere
    result = await crawl(
        [f"{site.url}/open", f"{site.url}/other"],
        page=every_kind,
        settings={
            "REP_PROVENANCE_FIELD": "robots_provenance",
            "SPIDER_MIDDLEWARES": {"scrapy_robots_rep.PageDirectivesMiddleware": 550},
        },
    )
    assert list(tmp_path.iterdir()) == []
    by_kind: dict[type, list[Any]] = {}
    for item in result.items:
        by_kind.setdefault(type(item), []).append(item)
    assert len(by_kind[Undeclared]) == 2 and all("robots_provenance" not in item for item in by_kind[Undeclared])
    opened = [
        item["robots_provenance"] for item in by_kind[dict] + by_kind[Declared] if item["url"] == f"{site.url}/open"
    ]
    opened.append(next(item.robots_provenance for item in by_kind[Record] if item.url == f"{site.url}/open"))
    for provenance in opened:
        assert provenance["decision"] == "allowed" and provenance["status"] == 200
        assert provenance["rule"] == {"line": 3, "text": "Allow: /open"} and provenance["group"] == ["*"]
        assert len(provenance["sha256"]) == 64
        assert provenance["page"]["noindex"] is False
        assert (provenance["agent"], provenance["user_agent"]) == (AGENT, BASE_SETTINGS["USER_AGENT"])
    warnings = result.messages(logging.WARNING, "REP_PROVENANCE_FIELD")
    assert len(warnings) == 1 and "Undeclared" in warnings[0]
