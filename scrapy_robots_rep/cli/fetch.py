"""Fetch live robots.txt files for the command line, in one short Scrapy crawl.

The fetching is the middleware's own :class:`~scrapy_robots_rep.downloader.fetcher.RobotsFetcher`
(same requests, redirect decisions, size limit, timeout and status policy) and the
reading of the answer is the middleware's own
:class:`~scrapy_robots_rep.policy.records.RecordMaker`, so the command line says
exactly what a crawl with the same settings would make of each answer.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING, Any

import scrapy
from scrapy.utils.defer import deferred_from_coro, maybe_deferred_to_future
from twisted.internet.defer import DeferredList

from scrapy_robots_rep.cli.checks import RobotsSource
from scrapy_robots_rep.crawl.outcomes import Outcomes
from scrapy_robots_rep.crawl.settings import rep_settings
from scrapy_robots_rep.downloader.fetcher import RobotsFetcher
from scrapy_robots_rep.policy.deferral import OriginState
from scrapy_robots_rep.policy.origin import robots_url
from scrapy_robots_rep.policy.records import FetchResult, RecordMaker
from scrapy_robots_rep.policy.settings import RepSettings
from scrapy_robots_rep.policy.status import Outcome

if TYPE_CHECKING:
    from scrapy.crawler import CrawlerProcessBase

POLICY_MEANING = {
    Outcome.ALLOW_ALL: "policy allows everything",
    Outcome.DISALLOW_ALL: "policy treats the site as closed (disallow all)",
    Outcome.UNREACHABLE: "policy treats the site as unreachable: a crawl defers its requests "
    "and fetches robots.txt again later",
    Outcome.DEFERRED: "policy defers requests until robots.txt can be fetched",
}


def fetch_robots(process: CrawlerProcessBase, origins: Sequence[str]) -> dict[str, RobotsSource]:
    """Fetch ``<origin>/robots.txt`` of every origin in one crawl, with the process's settings."""
    sources: dict[str, RobotsSource] = {}
    process.crawl(RobotsFetchSpider, origins=list(origins), sources=sources)
    process.start()
    missing = [origin for origin in origins if origin not in sources]
    if missing:
        raise RuntimeError(f"the fetch crawl ended without an answer for {', '.join(missing)}; see the log above")
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
        settings = rep_settings(self.settings)
        fetcher = RobotsFetcher(self.crawler, Outcomes.from_crawler(self.crawler), settings)
        maker = RecordMaker(settings)
        fetches = [deferred_from_coro(self._fetch(fetcher, maker, settings, origin)) for origin in self.origins]
        await maybe_deferred_to_future(DeferredList(fetches, fireOnOneErrback=True, consumeErrors=True))
        return
        yield  # the bare yield makes this the async generator Scrapy expects; it never runs

    async def _fetch(self, fetcher: RobotsFetcher, maker: RecordMaker, settings: RepSettings, origin: str) -> None:
        result = await fetcher.fetch(origin)
        self.sources[origin] = source_from(result, maker, settings, time.time())


def source_from(result: FetchResult, maker: RecordMaker, settings: RepSettings, now: float) -> RobotsSource:
    """What a crawl makes of one fetch (a first fetch: no earlier record), as the command line shows it."""
    conclusion = maker.conclude(result, None, OriginState(), now)
    record = conclusion.record
    status = result.status
    answered = status is not None and not 300 <= status < 400
    came_back = f"robots.txt returned {status}" if answered else result.hop.reason.rstrip(".")
    outcome = record.outcome
    if outcome is Outcome.RULES:
        summary = f"{came_back}: rules parsed"
    else:
        summary = f"{came_back}: {settings.status_policy} {POLICY_MEANING[outcome]}"
    return RobotsSource(
        location=robots_url(result.origin),
        summary=summary,
        outcome=outcome,
        body=result.body if outcome is Outcome.RULES else None,
        fixed=None if outcome is Outcome.RULES else record.rules,
        origin=result.origin,
        status=status,
        record=record,
        plan=conclusion.plan,
        max_size=settings.max_size,
    )
