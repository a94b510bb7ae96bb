"""``RobotsCachePolicy`` in real crawls: what lands in the HTTP cache directory, and what the second
crawl fetches again (docs/behaviour.md §10)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
import pytest_twisted
from scrapy.settings import Settings

from scrapy_robots_rep.page.cache_policy import RobotsCachePolicy, wrap_cache_policy
from scrapy_robots_rep.policy.settings import SettingsError
from tests.crawling import crawl
from tests.page.pages import ROBOTS, html, meta
from tests.sites import Sites

POLICY = "scrapy_robots_rep.page.cache_policy.RobotsCachePolicy"
DUMMY = "scrapy.extensions.httpcache.DummyPolicy"
RFC2616 = "scrapy.extensions.httpcache.RFC2616Policy"
PATHS = ("/plain", "/meta", "/nocache", "/header", "/other-agent", "/body-meta")
FRESH = {"Cache_Control": "max-age=3600"}


def routes() -> dict[str, Any]:
    return {
        "/robots.txt": ROBOTS,
        "/plain": html(**FRESH),
        "/meta": html(meta("noarchive"), **FRESH),
        "/nocache": html(meta("nocache", name="testbot"), **FRESH),
        "/header": html(X_Robots_Tag="testbot: noarchive", **FRESH),
        "/other-agent": html(X_Robots_Tag="otherbot: noarchive", **FRESH),
        "/body-meta": html(body="<p>x</p>" + meta("noarchive"), **FRESH),
    }


def cached_paths(directory: Path, base: str) -> set[str]:
    """The page URLs stored in a FilesystemCacheStorage directory, as paths of ``base``."""
    urls = {ast.literal_eval(meta.read_text())["url"] for meta in directory.rglob("meta")}
    return {url.removeprefix(base) for url in urls if url.startswith(base)} - {"/robots.txt"}


def cache_settings(directory: Path, **more: Any) -> dict[str, Any]:
    return {"HTTPCACHE_ENABLED": True, "HTTPCACHE_DIR": str(directory), **more}


@pytest.mark.parametrize("wrapped", [DUMMY, RFC2616])
@pytest_twisted.ensureDeferred
async def test_noarchive_pages_are_never_stored(sites: Sites, tmp_path: Path, wrapped: str) -> None:
    site = sites.start(routes())
    settings = cache_settings(tmp_path, HTTPCACHE_POLICY=POLICY, REP_HTTPCACHE_POLICY=wrapped)
    first = await crawl([f"{site.url}{path}" for path in PATHS], settings=settings)
    assert all(outcome.responded for outcome in first.outcomes)
    assert cached_paths(tmp_path, site.url) == {"/plain", "/other-agent"}

    second = await crawl([f"{site.url}{path}" for path in PATHS], settings=settings)
    assert all(outcome.responded for outcome in second.outcomes)
    hits = {path: len(site.hits(path)) for path in PATHS}
    assert hits == {"/plain": 1, "/other-agent": 1, "/meta": 2, "/nocache": 2, "/header": 2, "/body-meta": 2}


@pytest_twisted.ensureDeferred
async def test_without_the_wrapper_everything_is_stored(sites: Sites, tmp_path: Path) -> None:
    site = sites.start(routes())
    await crawl([f"{site.url}{path}" for path in PATHS], settings=cache_settings(tmp_path))
    assert cached_paths(tmp_path, site.url) == set(PATHS)


@pytest_twisted.ensureDeferred
async def test_a_copy_stored_before_is_not_served(sites: Sites, tmp_path: Path) -> None:
    site = sites.start(routes())
    await crawl([f"{site.url}/meta"], settings=cache_settings(tmp_path))
    result = await crawl([f"{site.url}/meta"], settings=cache_settings(tmp_path, HTTPCACHE_POLICY=POLICY))
    assert len(site.hits("/meta")) == 2
    assert result.by_url()[f"{site.url}/meta"].responded


@pytest_twisted.ensureDeferred
async def test_the_add_on_keeps_the_projects_policy(sites: Sites, tmp_path: Path) -> None:
    site = sites.start(
        {
            "/robots.txt": ROBOTS,
            "/stale": html(Cache_Control="no-store"),  # RFC2616Policy never stores it, DummyPolicy would
            "/meta": html(meta("noarchive"), **FRESH),
            "/plain": html(**FRESH),
        }
    )
    settings = cache_settings(
        tmp_path, HTTPCACHE_POLICY=RFC2616, ADDONS={"scrapy_robots_rep.Addon": 0}, ROBOTSTXT_OBEY=True
    )
    result = await crawl([f"{site.url}/stale", f"{site.url}/meta", f"{site.url}/plain"], settings=settings)
    assert cached_paths(tmp_path, site.url) == {"/plain"}
    assert result.crawler.settings["HTTPCACHE_POLICY"] == POLICY
    assert result.crawler.settings["REP_HTTPCACHE_POLICY"] == RFC2616


def test_wrapping_is_idempotent_and_keeps_priority() -> None:
    settings = Settings()
    settings.set("HTTPCACHE_POLICY", RFC2616, priority="cmdline")
    wrap_cache_policy(settings)
    wrap_cache_policy(settings)
    assert settings["HTTPCACHE_POLICY"] == POLICY and settings["REP_HTTPCACHE_POLICY"] == RFC2616
    assert settings.getpriority("HTTPCACHE_POLICY") == settings.getpriority("REP_HTTPCACHE_POLICY") == 40


def test_default_wraps_dummy_policy() -> None:
    settings = Settings()
    wrap_cache_policy(settings)
    assert settings["REP_HTTPCACHE_POLICY"] == DUMMY
    assert type(RobotsCachePolicy(settings).wrapped).__name__ == "DummyPolicy"


def test_wrapping_itself_is_an_error() -> None:
    with pytest.raises(SettingsError, match="REP_HTTPCACHE_POLICY names RobotsCachePolicy itself"):
        RobotsCachePolicy(Settings({"REP_HTTPCACHE_POLICY": POLICY}))
