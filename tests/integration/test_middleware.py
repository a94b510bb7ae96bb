"""One robots.txt fetch per origin, exemptions, signals, stats, logs and start-up checks."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
import pytest_twisted
from scrapy import Request
from scrapy import signals as scrapy_signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from scrapy_robots_rep import RepRobotParser, signals
from scrapy_robots_rep.downloader.middleware import RobotsMiddleware
from scrapy_robots_rep.exceptions import RobotsDisallowed
from scrapy_robots_rep.policy.settings import SettingsError
from tests.crawling import BASE_SETTINGS, crawl, request
from tests.sites import HeldReply, Sites, text

RULES = "User-agent: *\nAllow: /\n\n# private area\nDisallow: /secret\n"
ROBOTS_PARSED = getattr(scrapy_signals, "robots_parsed", None)
"""Scrapy's ``robots_parsed`` signal; Scrapy 2.18 added it, earlier versions have none to send."""


@pytest_twisted.ensureDeferred
async def test_one_fetch_per_origin_and_nothing_disallowed_reaches_the_server(sites: Sites) -> None:
    site = sites.start({"/robots.txt": text(RULES)})
    same_host_other_port = sites.start({"/robots.txt": text("User-agent: *\nDisallow: /p\n")}, host=site.host)
    pages = [f"{site.url}/p{index}" for index in range(200)]
    folded = [f"HTTP://{site.host}:{site.port}/folded"]
    secrets = [f"{site.url}/secret/{index}" for index in range(10)]
    other_port = [f"{same_host_other_port.url}/p1", f"{same_host_other_port.url}/other"]
    result = await crawl(pages + folded + secrets + other_port)

    assert len(site.hits("/robots.txt")) == 1
    assert sorted(site.paths()) == sorted(["/robots.txt", "/folded", *(f"/p{index}" for index in range(200))])
    assert len(same_host_other_port.hits("/robots.txt")) == 1
    assert same_host_other_port.paths() == ["/robots.txt", "/other"]
    by_url = result.by_url()
    assert all(isinstance(by_url[url].error, RobotsDisallowed) for url in secrets + other_port[:1])
    assert result.stats["rep/robots/fetches"] == 2
    assert result.stats["rep/requests/disallowed"] == 11
    assert result.stats["rep/requests/allowed"] == 202
    counts = result.middleware.accounting.origins[site.url]
    assert (counts.seen, counts.allowed, counts.disallowed, counts.parked) == (211, 201, 10, 0)


@pytest_twisted.ensureDeferred
async def test_exemptions_signals_stats_and_the_debug_line(sites: Sites, tmp_path: Path) -> None:
    # Answered once /open, the last request, waits for it; with an extension field the crawl declares.
    robots = HeldReply(text(RULES + "LLM-Policy: https://example.test/llm.txt\n"))
    site = sites.start({"/robots.txt": robots})
    local_file = tmp_path / "page.html"
    local_file.write_text("<html>local</html>")
    events: dict[str, list[Any]] = {name: [] for name in ("parsed", "obtained", "disallowed", "deferred")}

    def connect(crawler: Crawler) -> None:
        def record(name: str):
            return lambda **kwargs: events[name].append(kwargs)

        if ROBOTS_PARSED is not None:
            crawler.signals.connect(record("parsed"), ROBOTS_PARSED, weak=False)
        crawler.signals.connect(record("obtained"), signals.robots_obtained, weak=False)
        crawler.signals.connect(record("disallowed"), signals.request_disallowed, weak=False)
        crawler.signals.connect(record("deferred"), signals.request_deferred, weak=False)
        crawler.signals.connect(open_at_open, signals.request_deferred, weak=False)

    def open_at_open(request: Request, **kwargs: Any) -> None:
        if request.url.endswith("/open"):
            robots.open()

    result = await crawl(
        [
            f"{site.url}/secret/a",
            request(f"{site.url}/secret/b", meta={"dont_obey_robotstxt": True}),
            "data:text/plain,hello",
            local_file.as_uri(),
            f"{site.url}/open",
        ],
        settings={"REP_FROM": "crawler-admin@example.test", "REP_EXTENSION_FIELDS": "llm-policy"},
        on_crawler=connect,
    )
    [robots_hit] = site.hits("/robots.txt")
    assert robots_hit.headers["User-Agent"] == BASE_SETTINGS["USER_AGENT"]
    assert robots_hit.headers["From"] == "crawler-admin@example.test"
    by_url = result.by_url()
    error = by_url[f"{site.url}/secret/a"].error
    assert isinstance(error, RobotsDisallowed)
    assert error.decision.rule is not None
    assert (error.decision.rule.line, error.decision.rule.text) == (5, "Disallow: /secret")
    assert error.decision.group == ("*",)
    for url in (f"{site.url}/secret/b", "data:text/plain,hello", local_file.as_uri(), f"{site.url}/open"):
        assert by_url[url].response is not None, url
    assert sorted(site.paths()) == ["/open", "/robots.txt", "/secret/b"]

    if ROBOTS_PARSED is not None:
        assert len(events["parsed"]) == 1
        parser = events["parsed"][0]["robotparser"]
        assert isinstance(parser, RepRobotParser)
        assert not parser.allowed(f"{site.url}/secret/x", "testbot")
        assert events["parsed"][0]["request"].url in (f"{site.url}/secret/a", f"{site.url}/open")
    assert [event["origin"] for event in events["obtained"]] == [site.url]
    assert events["obtained"][0]["record"].outcome.value == "rules"
    assert events["obtained"][0]["record"].rules.extension("llm-policy") == ("https://example.test/llm.txt",)
    assert [event["request"].url for event in events["disallowed"]] == [f"{site.url}/secret/a"]
    assert sorted(event["request"].url for event in events["deferred"]) == [f"{site.url}/open", f"{site.url}/secret/a"]

    rep = {key: value for key, value in result.stats.items() if key.startswith("rep/")}
    assert rep == {
        "rep/robots/fetches": 1,
        "rep/robots/status/200": 1,
        "rep/robots/outcome/rules": 1,
        "rep/robots/lifetime/default": 1,
        "rep/requests/deferred": 2,
        "rep/requests/allowed": 1,
        "rep/requests/disallowed": 1,
        "rep/cache/misses": 1,
    }
    debug_lines = [message for message in result.messages() if message.startswith("Forbidden")]
    assert debug_lines == [
        f"Forbidden by robots.txt: {site.url}/secret/a (group: *; rule: 'Disallow: /secret' at line 5; longest match)"
    ]


@pytest_twisted.ensureDeferred
async def test_robotstxt_obey_also_on_warns_once(sites: Sites) -> None:
    site = sites.start({"/robots.txt": text(RULES)})
    result = await crawl([f"{site.url}/page"], settings={"ROBOTSTXT_OBEY": True})
    warnings = [entry for entry in result.logs if "ROBOTSTXT_OBEY" in entry.message]
    assert len(warnings) == 1 and warnings[0].levelno == logging.WARNING
    assert "fetched and obeyed twice" in warnings[0].message


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"REP_MATCHING": "google"}, "REP_MATCHING must be one of 'rfc9309', 'legacy', got 'google'"),
        ({"REP_STATUS_POLICY": "lenient"}, "REP_STATUS_POLICY must be one of"),
        ({"REP_CACHE_TTL": -5}, "REP_CACHE_TTL must be at least 0, got -5"),
        ({"REP_DEFER_MAX_TIME": "ten"}, "REP_DEFER_MAX_TIME must be a number of seconds, got 'ten'"),
    ],
)
def test_invalid_settings_are_start_up_errors(settings: dict[str, Any], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        RobotsMiddleware.from_crawler(get_crawler(settings_dict={**BASE_SETTINGS, **settings}))


@pytest_twisted.ensureDeferred
async def test_an_invalid_setting_stops_the_crawl_before_any_request(sites: Sites) -> None:
    site = sites.start({"/robots.txt": text(RULES)})
    with pytest.raises(SettingsError, match="REP_MAX_SIZE must be a whole number"):
        await crawl([f"{site.url}/page"], settings={"REP_MAX_SIZE": "big"})
    assert site.paths() == []


def test_rep_enabled_false_disables_the_middleware() -> None:
    with pytest.raises(NotConfigured):
        RobotsMiddleware.from_crawler(get_crawler(settings_dict={**BASE_SETTINGS, "REP_ENABLED": False}))
