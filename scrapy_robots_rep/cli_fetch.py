"""Fetch live robots.txt files for the command-line tools, in one short Scrapy crawl.

The fetching is the middleware's own :class:`~scrapy_robots_rep.fetcher.RobotsFetcher`:
the same requests through Scrapy's engine, redirect decisions, size limit, timeout and status
policy, so the tools say exactly what a crawl with the same settings would make of each answer.
Shared by ``python -m scrapy_robots_rep check`` and ``scrapy robots``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any

import scrapy
from scrapy.crawler import CrawlerProcessBase
from scrapy.utils.defer import deferred_from_coro, maybe_deferred_to_future
from twisted.internet.defer import DeferredList

from scrapy_robots_rep.cli_report import RobotsSource
from scrapy_robots_rep.core import AgentRules, RobotsTxt
from scrapy_robots_rep.fetcher import Fetched, RobotsFetcher
from scrapy_robots_rep.policy.origin import robots_url
from scrapy_robots_rep.policy.settings import RepSettings
from scrapy_robots_rep.policy.status import ALLOW_ALL, DEFERRED, DISALLOW_ALL, RULES, UNREACHABLE

POLICY_MEANING = {
    ALLOW_ALL: "policy allows everything",
    DISALLOW_ALL: "policy treats the site as closed (disallow all)",
    UNREACHABLE: "policy treats the site as unreachable: a crawl defers its requests "
    "and fetches robots.txt again later",
    DEFERRED: "policy defers requests until robots.txt can be fetched",
}
RULES_FOR_OUTCOME = {ALLOW_ALL: AgentRules.allow_all, DISALLOW_ALL: AgentRules.disallow_all}


def fetch_robots(process: CrawlerProcessBase, origins: Sequence[str]) -> dict[str, RobotsSource]:
    """Fetch ``<origin>/robots.txt`` of every origin in one crawl, with the process's settings.

    A source without rules means robots.txt could not be had; its summary says why and what
    the status policy makes of that.
    """
    sources: dict[str, RobotsSource] = {}
    process.crawl(RobotsFetchSpider, origins=list(origins), sources=sources)
    process.start()
    for origin in origins:
        sources.setdefault(
            origin, RobotsSource(robots_url(origin), "the crawl ended before an answer", "", None)
        )
    return sources


class RobotsFetchSpider(scrapy.Spider):
    """Crawls nothing: its start fetches every origin's robots.txt, then the crawl ends."""

    name = "robots_fetch"

    def __init__(self, origins: list[str], sources: dict[str, RobotsSource], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.origins = origins
        self.sources = sources

    async def start(self) -> AsyncIterator[scrapy.Request]:
        """Fetch all robots.txt files at once; no request is yielded."""
        settings = RepSettings.from_mapping(self.settings)
        fetcher = RobotsFetcher(self.crawler, settings)
        fetches = [deferred_from_coro(self._fetch(fetcher, settings, origin)) for origin in self.origins]
        await maybe_deferred_to_future(DeferredList(fetches, fireOnOneErrback=True, consumeErrors=True))
        return
        yield  # the bare yield makes this the async generator Scrapy expects; it never runs

    async def _fetch(self, fetcher: RobotsFetcher, settings: RepSettings, origin: str) -> None:
        fetched = await fetcher.fetch(origin)
        self.sources[origin] = source_from(robots_url(origin), fetched, settings)


def source_from(location: str, fetched: Fetched, settings: RepSettings) -> RobotsSource:
    """What the status policy made of one fetch, as the tools show it."""
    verdict = fetched.verdict
    outcome = verdict.outcome or ""
    answered = fetched.status is not None and not 300 <= fetched.status < 400
    came_back = f"robots.txt returned {fetched.status}" if answered else verdict.reason.rstrip(".")
    if outcome == RULES:
        robots = RobotsTxt.parse(fetched.body, settings.matching, max_size=settings.max_size)
        rules: AgentRules | None = robots.for_agent(settings.user_agent)
        summary = f"{came_back}: rules parsed"
    else:
        make_rules = RULES_FOR_OUTCOME.get(outcome)
        rules = make_rules(came_back) if make_rules is not None else None
        summary = f"{came_back}: {settings.status_policy} {POLICY_MEANING[outcome]}"
    return RobotsSource(location, summary, outcome, rules, fetched.status)
