"""The agent is one thing (docs/behaviour.md §7): REP_USER_AGENT, else ROBOTSTXT_USER_AGENT, else
USER_AGENT, reduced to its product token; announced at start-up, with a warning for a token that can
never match in rfc9309."""

from __future__ import annotations

import logging
from typing import Any

import pytest
import pytest_twisted

from tests.crawling import AGENT, CrawlResult, crawl
from tests.sites import Site, Sites, text

ROBOTS = (
    f"User-agent: mybot\nDisallow: /mine\n\nUser-agent: {AGENT}\nDisallow: /testbot\n\nUser-agent: *\nDisallow: /star\n"
)
PATHS = ("/mine", "/testbot", "/star", "/open")


async def crawl_paths(site: Site, settings: dict[str, Any]) -> CrawlResult:
    return await crawl([site.url + path for path in PATHS], settings=settings)


def fetched(site: Site) -> list[str]:
    return sorted(path for path in site.paths() if path != "/robots.txt")


@pytest.mark.parametrize(
    ("settings", "group_path"),
    [
        ({"ROBOTSTXT_USER_AGENT": "mybot"}, "/mine"),
        ({"REP_USER_AGENT": "mybot/1.0"}, "/mine"),
        ({"REP_USER_AGENT": "mybot/1.0 (+https://example.test/bot)", "ROBOTSTXT_USER_AGENT": "otherbot"}, "/mine"),
        ({}, "/testbot"),
    ],
    ids=["ROBOTSTXT_USER_AGENT", "REP_USER_AGENT", "REP_USER_AGENT first", "USER_AGENT"],
)
@pytest_twisted.ensureDeferred
async def test_the_agent_chain_picks_the_group(sites: Sites, settings: dict[str, Any], group_path: str) -> None:
    site = sites.start({"/robots.txt": text(ROBOTS)})
    result = await crawl_paths(site, settings)
    assert fetched(site) == sorted(path for path in PATHS if path != group_path)
    assert result.stat("rep/requests/disallowed") == 1


@pytest_twisted.ensureDeferred
async def test_start_up_line_names_the_agent_both_modes_and_the_cache(sites: Sites) -> None:
    site = sites.start({"/robots.txt": text(ROBOTS)})
    result = await crawl_paths(site, {"REP_USER_AGENT": "mybot/1.0", "REP_STATUS_POLICY": "legacy"})
    lines = [
        entry.message
        for entry in result.logs
        if entry.levelno == logging.INFO and "mybot" in entry.message and "rfc9309" in entry.message
    ]
    assert len(lines) == 1, result.messages(logging.INFO)
    assert "legacy" in lines[0] and "memory" in lines[0].lower()


@pytest_twisted.ensureDeferred
async def test_a_token_that_cannot_match_is_warned_about(sites: Sites) -> None:
    site = sites.start({"/robots.txt": text("User-agent: MJ12bot\nDisallow: /\n")})
    result = await crawl([f"{site.url}/page"], settings={"REP_USER_AGENT": "MJ12bot"})
    assert len(result.messages(logging.WARNING, "MJ12bot")) == 1, result.messages(logging.WARNING)
