"""Running real Scrapy crawls against loopback sites, and recording what happened."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from scrapy import Request, Spider
from scrapy.crawler import Crawler, CrawlerRunner
from scrapy.http import Response
from twisted.python.failure import Failure

from scrapy_robots_rep.middleware import RobotsMiddleware

BASE_SETTINGS: dict[str, Any] = {
    "DOWNLOADER_MIDDLEWARES": {"scrapy_robots_rep.RobotsMiddleware": 100},
    "ROBOTSTXT_OBEY": False,
    "USER_AGENT": "testbot/1.0 (+http://example.test/bot)",
    "DOWNLOAD_TIMEOUT": 2,
    "TELNETCONSOLE_ENABLED": False,
    "LOG_LEVEL": "DEBUG",
}

RequestSpec = str | Callable[["RecordingSpider"], Request]
"""A URL, or a function building a request with the spider's callback and errback."""

Wave = tuple[float, list[RequestSpec]]
"""Seconds to wait after the previous wave has finished, then the wave's requests."""


@dataclass
class Outcome:
    """What the spider saw for one request: a response, or the exception its errback got."""

    url: str
    time: float
    response: Response | None = None
    error: BaseException | None = None


@dataclass
class CrawlResult:
    crawler: Crawler
    outcomes: list[Outcome]
    started: float
    stats: dict[str, Any]

    def by_url(self) -> dict[str, Outcome]:
        return {outcome.url: outcome for outcome in self.outcomes}

    @property
    def middleware(self) -> RobotsMiddleware:
        assert self.crawler.engine is not None
        for middleware in self.crawler.engine.downloader.middleware.middlewares:
            if isinstance(middleware, RobotsMiddleware):
                return middleware
        raise AssertionError("RobotsMiddleware is not enabled in this crawl")


class RecordingSpider(Spider):
    """Requests its waves in turn and records every callback and errback."""

    name = "recording"

    def __init__(self, waves: list[Wave], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.waves = waves
        self.outcomes: list[Outcome] = []
        self._pending = 0

    async def start(self) -> Any:
        for delay, specs in self.waves:
            while self._pending:
                await asyncio.sleep(0.02)
            if delay:
                await asyncio.sleep(delay)
            for spec in specs:
                self._pending += 1
                yield Request(spec, callback=self.parse, errback=self.failed) if isinstance(spec, str) else spec(self)

    def parse(self, response: Response) -> None:
        self._pending -= 1
        self.outcomes.append(Outcome(response.request.url, time.monotonic(), response=response))

    def failed(self, failure: Failure) -> None:
        self.failed_with(failure.request.url, failure.value)  # type: ignore[attr-defined]

    def failed_with(self, url: str, error: BaseException) -> None:
        self._pending -= 1
        self.outcomes.append(Outcome(url, time.monotonic(), error=error))


def with_meta(url: str, **meta: Any) -> RequestSpec:
    """A request spec carrying ``meta``."""
    return lambda spider: Request(url, callback=spider.parse, errback=spider.failed, meta=meta)


async def crawl(
    waves: list[Wave] | Iterable[RequestSpec],
    settings: dict[str, Any] | None = None,
    *,
    on_crawler: Callable[[Crawler], None] | None = None,
    spider: type[RecordingSpider] = RecordingSpider,
) -> CrawlResult:
    """Run one real crawl to completion and return what the spider and the stats saw.

    ``waves`` is a list of :data:`Wave`, or simply the requests of one wave.
    """
    items = list(waves)
    wave_list: list[Wave] = items if items and isinstance(items[0], tuple) else [(0.0, items)]  # type: ignore[assignment]
    runner = CrawlerRunner({**BASE_SETTINGS, **(settings or {})})
    crawler = runner.create_crawler(spider)
    if on_crawler is not None:
        on_crawler(crawler)
    started = time.monotonic()
    await runner.crawl(crawler, waves=wave_list)
    assert crawler.spider is not None and crawler.stats is not None
    outcomes = crawler.spider.outcomes  # type: ignore[attr-defined]
    return CrawlResult(crawler, outcomes, started, dict(crawler.stats.get_stats()))


def streamed(head: bytes, filler: bytes, total: int, produced: list[int]) -> Callable[[], Iterator[bytes]]:
    """A huge body: ``head`` then ``filler`` repeated up to ``total`` bytes.

    ``produced`` receives the number of bytes handed to the server, which stops
    early when the client cuts the connection.
    """

    def chunks() -> Iterator[bytes]:
        produced.append(len(head))
        yield head
        while produced[-1] < total:
            produced.append(produced[-1] + len(filler))
            yield filler

    return chunks
