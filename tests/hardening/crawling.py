"""Run a real Scrapy crawl with the robots middleware, and collect what happened.

What the spider received (pages, failures), the crawl's stats, the middleware and every record it
obtained (from its ``robots_obtained`` signal) come back in one :class:`CrawlResult`; what the
servers saw is in their own logs (``tests.sites``). Also here: host names under ``.test`` for
many origins on one loopback server, and the capture of the middleware's log records.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from scrapy import Request, Spider
from scrapy.crawler import CrawlerRunner
from scrapy.http import Response
from twisted.internet import defer
from twisted.internet.interfaces import IResolverSimple
from twisted.python.failure import Failure
from zope.interface import implementer

from scrapy_robots_rep import signals
from scrapy_robots_rep.middleware import RobotsMiddleware
from scrapy_robots_rep.policy.cache import CacheRecord

AGENT = "mybot"

CRAWL_SETTINGS: dict[str, Any] = {
    "DOWNLOADER_MIDDLEWARES": {"scrapy_robots_rep.RobotsMiddleware": 100},
    "ROBOTSTXT_OBEY": False,
    "USER_AGENT": f"{AGENT}/1.0 (+http://example.com/bot)",
    "DOWNLOAD_TIMEOUT": 2,
    "RETRY_ENABLED": False,
    "TELNETCONSOLE_ENABLED": False,
    "LOG_LEVEL": "DEBUG",
    "CONCURRENT_REQUESTS": 32,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
}


class UrlsSpider(Spider):
    """Requests URLs in waves: a wave starts once every request of the ones before has ended.

    Within a wave, URLs are requested in the order given. Pages and failures (the exception's type,
    not the exception, so that thousands of tracebacks are not kept alive) are recorded by URL.
    """

    name = "hardening"

    def __init__(self, waves: tuple[list[str], ...], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.waves = list(waves)
        self.pages: list[str] = []
        self.failures: dict[str, type[BaseException]] = {}
        self._started = 0

    async def start(self) -> AsyncIterator[Request]:
        for request in self._next_wave():
            yield request

    def parse(self, response: Response) -> Iterator[Request]:
        self.pages.append(response.url)
        return self._next_wave()

    def failed(self, failure: Failure) -> Iterator[Request]:
        self.failures[failure.request.url] = type(failure.value)
        return self._next_wave()

    def _next_wave(self) -> Iterator[Request]:
        if not self.waves or len(self.pages) + len(self.failures) < self._started:
            return iter(())
        wave = self.waves.pop(0)
        self._started += len(wave)
        return (
            Request(url, self.parse, errback=self.failed, dont_filter=True, priority=-index)
            for index, url in enumerate(wave)
        )


@dataclass
class CrawlResult:
    """Everything a test checks after a crawl."""

    pages: list[str]
    failures: dict[str, type[BaseException]]
    stats: dict[str, Any]
    middleware: RobotsMiddleware
    records: dict[str, list[CacheRecord]] = field(default_factory=dict)
    seconds: float = 0.0

    def stat(self, name: str) -> int:
        return int(self.stats.get(name, 0))

    def last_record(self, origin: str) -> CacheRecord:
        return self.records[origin][-1]


async def crawl(*waves: list[str], **settings: Any) -> CrawlResult:
    """Crawl the URLs of ``waves`` with :data:`CRAWL_SETTINGS` overridden by ``settings``."""
    runner = CrawlerRunner({**CRAWL_SETTINGS, **settings})
    crawler = runner.create_crawler(UrlsSpider)
    records: dict[str, list[CacheRecord]] = {}

    def obtained(origin: str, record: CacheRecord, **_: Any) -> None:
        records.setdefault(origin, []).append(record)

    crawler.signals.connect(obtained, signal=signals.robots_obtained)
    started = time.monotonic()
    await runner.crawl(crawler, waves=waves)
    spider = crawler.spider
    assert isinstance(spider, UrlsSpider) and crawler.stats is not None and crawler.engine is not None
    (middleware,) = [
        component for component in crawler.engine.downloader.middleware.middlewares
        if isinstance(component, RobotsMiddleware)
    ]
    return CrawlResult(
        spider.pages, spider.failures, crawler.stats.get_stats(), middleware, records, time.monotonic() - started
    )


@implementer(IResolverSimple)
class _LoopbackNames:
    """Resolves every host name under ``.test`` to 127.0.0.1; other names as before."""

    def __init__(self, fallback: IResolverSimple) -> None:
        self._fallback = fallback

    def getHostByName(self, name: str, timeout: Any = ()) -> defer.Deferred[str]:
        if name.endswith(".test"):
            return defer.succeed("127.0.0.1")
        return self._fallback.getHostByName(name, timeout)


@contextmanager
def loopback_test_names() -> Iterator[None]:
    """Let ``http://<anything>.test:<port>`` reach a site on 127.0.0.1: many origins, one server."""
    from twisted.internet import reactor

    previous = reactor.installResolver(_LoopbackNames(reactor.resolver))
    try:
        yield
    finally:
        reactor.installResolver(previous)


class _Collector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextmanager
def collected_logs(name: str) -> Iterator[list[logging.LogRecord]]:
    """Every record logged under ``name`` (DEBUG and up) while the block runs."""
    logger = logging.getLogger(name)
    collector = _Collector()
    previous_level = logger.level
    logger.setLevel(logging.DEBUG)
    logger.addHandler(collector)
    try:
        yield collector.records
    finally:
        logger.removeHandler(collector)
        logger.setLevel(previous_level)
