"""The one crawl harness of the test suite: run a real Scrapy crawl and return what happened.

:func:`crawl` runs one crawl to completion against loopback sites (``tests.sites``) and returns a
:class:`CrawlResult`: what the spider received for each request, the items it scraped, the crawl's
stats, its log records, the crawler and the robots middleware. What the servers saw is in the
sites' own logs. Requests come in waves: a wave starts once every request of the waves before it
has reached its callback or errback, and once its condition holds (:func:`obtained`).

The only dependence on the middleware's internals (its class, and the records it announces with
its ``robots_obtained`` signal) is in :func:`_watch_middleware`.
"""

from __future__ import annotations

import asyncio
import gc
import inspect
import logging
import time
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from scrapy import Request, Spider
from scrapy import signals as scrapy_signals
from scrapy.crawler import Crawler, CrawlerRunner
from scrapy.http import Response
from scrapy.settings import SETTINGS_PRIORITIES, default_settings
from scrapy.utils.misc import build_from_crawler, load_object
from twisted.python.failure import Failure

AGENT = "testbot"
"""The product token of :data:`BASE_SETTINGS`' ``USER_AGENT``."""

BASE_SETTINGS: dict[str, Any] = {
    "DOWNLOADER_MIDDLEWARES": {"scrapy_robots_rep.RobotsMiddleware": 100},
    "ROBOTSTXT_OBEY": False,
    "USER_AGENT": f"{AGENT}/1.0 (+http://example.test/bot)",
    "DOWNLOAD_TIMEOUT": 2,
    "TELNETCONSOLE_ENABLED": False,
    "LOG_LEVEL": "DEBUG",
}
"""Settings of every crawl, under the test's own ``settings``."""

RequestSpec = str | Callable[["CrawlingSpider"], Request]
"""A URL, or a function building a request (see :func:`request`)."""

PageHook = Callable[[Response, "CrawlingSpider"], Any]
"""Called with each page the spider receives; may return (or be) an iterable, an async iterable or
an awaitable of items and requests, which the spider yields like any Scrapy callback."""

_TRACKED = "tests.crawling"
"""Meta key marking the requests whose end a wave waits for."""


WaveEvent = Callable[["CrawlingSpider"], Awaitable[None]]
"""An event a wave waits for, given the crawl's spider (:func:`obtained`, another crawl's progress)."""

RESOLVER_SETTING = "TWISTED_DNS_RESOLVER" if hasattr(default_settings, "TWISTED_DNS_RESOLVER") else "DNS_RESOLVER"
"""The setting naming the crawl's resolver: ``TWISTED_DNS_RESOLVER`` from Scrapy 2.19 on, ``DNS_RESOLVER`` before."""

EVENT_LIMIT = 30.0
"""Seconds :func:`obtained` waits for its fetches before it fails the crawl's test."""


@dataclass(frozen=True)
class Wave:
    """Requests sent once every request of the waves before has ended and ``after`` (an event the
    wave waits for) has returned, then ``pause`` seconds later."""

    requests: list[RequestSpec]
    pause: float = 0.0
    after: WaveEvent | None = None


def obtained(origin: str, fetches: int) -> WaveEvent:
    """A wave's ``after``: ``fetches`` robots.txt fetches of ``origin`` have ended (each announced
    with a record, whatever its outcome), so that the wave does not race a refresh."""

    async def wait(spider: CrawlingSpider) -> None:
        deadline = time.monotonic() + EVENT_LIMIT
        while len(spider.robots.records.get(origin, [])) < fetches:
            assert time.monotonic() < deadline, f"timed out waiting for {fetches} fetches of {origin}"
            await asyncio.sleep(0.02)

    return wait


@dataclass
class Outcome:
    """What the spider saw for one request.

    ``status`` (a response's) or ``error_type`` (the errback's exception type) is always set;
    ``response`` and ``error`` keep the objects themselves unless the crawl was ``lean``.
    """

    url: str
    time: float
    status: int | None = None
    error_type: type[BaseException] | None = None
    response: Response | None = None
    error: BaseException | None = None

    @property
    def responded(self) -> bool:
        return self.status is not None


@dataclass(frozen=True)
class Logged:
    """One log record, reduced to what tests read (no arguments kept alive)."""

    name: str
    levelno: int
    message: str


@dataclass
class CrawlResult:
    """Everything a test checks after a crawl."""

    crawler: Crawler
    outcomes: list[Outcome]
    stats: dict[str, Any]
    items: list[Any]
    logs: list[Logged]
    started: float
    seconds: float
    robots: _MiddlewareWatch

    def by_url(self) -> dict[str, Outcome]:
        """The outcomes by URL (the last one when a URL was requested more than once)."""
        return {outcome.url: outcome for outcome in self.outcomes}

    @property
    def pages(self) -> list[str]:
        """URLs that reached the callback, in order."""
        return [outcome.url for outcome in self.outcomes if outcome.responded]

    @property
    def failures(self) -> dict[str, type[BaseException]]:
        """The exception type each failed URL's errback got."""
        return {outcome.url: outcome.error_type for outcome in self.outcomes if outcome.error_type is not None}

    def stat(self, name: str) -> int:
        return int(self.stats.get(name, 0))

    def messages(self, level: int = logging.DEBUG, contains: str = "") -> list[str]:
        """Messages logged at ``level`` or above that contain ``contains``."""
        return [entry.message for entry in self.logs if entry.levelno >= level and contains in entry.message]

    @property
    def middleware(self) -> Any:
        """The crawl's ``RobotsMiddleware`` instance."""
        if self.robots.middleware is None:
            raise AssertionError("RobotsMiddleware was not enabled in this crawl")
        return self.robots.middleware

    @property
    def records(self) -> dict[str, list[Any]]:
        """Each origin's records, as the middleware announced them, in order."""
        return self.robots.records

    def last_record(self, origin: str) -> Any:
        return self.records[origin][-1]


class CrawlingSpider(Spider):
    """Requests its waves in turn and records every callback and errback."""

    name = "crawling"

    def __init__(
        self, waves: list[Wave], page: PageHook | None, lean: bool, robots: _MiddlewareWatch, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.waves = waves
        self.page = page
        self.lean = lean
        self.robots = robots
        self.outcomes: list[Outcome] = []
        self._pending = 0

    async def start(self) -> AsyncIterator[Request]:
        for wave in self.waves:
            while self._pending > 0:
                await asyncio.sleep(0.02)
            if wave.after is not None:
                await wave.after(self)
            if wave.pause:
                await asyncio.sleep(wave.pause)
            for spec in wave.requests:
                yield self.track(
                    Request(spec, self.parse, errback=self.failed) if isinstance(spec, str) else spec(self)
                )

    def track(self, request: Request) -> Request:
        """Count ``request`` in its wave and record its outcome (it needs this spider's callbacks)."""
        self._pending += 1
        request.meta[_TRACKED] = True
        return request

    async def parse(self, response: Response) -> AsyncIterator[Any]:
        self._ended(response.request)
        self.record_response(response)
        if self.page is None:
            return
        produced = self.page(response, self)
        if inspect.isawaitable(produced):
            produced = await produced
        if produced is None:
            return
        if isinstance(produced, AsyncIterable):
            async for output in produced:
                yield self._followed(output)
        else:
            for output in produced:
                yield self._followed(output)

    def failed(self, failure: Failure) -> None:
        request = failure.request  # type: ignore[attr-defined]
        self._ended(request)
        self.record_error(request.url, failure.value)

    def record_response(self, response: Response) -> None:
        """Record a response, also one the page hook obtained itself (``engine.download_async``)."""
        kept = None if self.lean else response
        self.outcomes.append(Outcome(response.url, time.monotonic(), status=response.status, response=kept))

    def record_error(self, url: str, error: BaseException) -> None:
        """Record a failure, also one the page hook met itself."""
        kept = None if self.lean else error
        self.outcomes.append(Outcome(url, time.monotonic(), error_type=type(error), error=kept))

    def _ended(self, request: Request | None) -> None:
        if request is not None and request.meta.get(_TRACKED):
            self._pending -= 1

    def _followed(self, output: Any) -> Any:
        """A follow-up request without callbacks gets the recording ones."""
        if isinstance(output, Request) and output.callback is None and output.errback is None:
            return self.track(output.replace(callback=self.parse, errback=self.failed))
        return output


def request(url: str, **kwargs: Any) -> RequestSpec:
    """A request spec: ``Request(url, **kwargs)`` with the recording callback and errback."""
    return lambda spider: Request(url, spider.parse, errback=spider.failed, **kwargs)


@dataclass
class _MiddlewareWatch:
    """The robots middleware of one crawl and the records it announced."""

    middleware: Any = None
    records: dict[str, list[Any]] = field(default_factory=dict)


def _watch_middleware(crawler: Crawler) -> _MiddlewareWatch:
    """Find the middleware once the engine has started, and collect its ``robots_obtained`` records."""
    from scrapy_robots_rep import RobotsMiddleware, signals

    watch = _MiddlewareWatch()

    def engine_started() -> None:
        assert crawler.engine is not None
        found = [m for m in crawler.engine.downloader.middleware.middlewares if isinstance(m, RobotsMiddleware)]
        watch.middleware = found[0] if found else None

    def obtained(origin: str, record: Any, **_: Any) -> None:
        watch.records.setdefault(origin, []).append(record)

    crawler.signals.connect(engine_started, signal=scrapy_signals.engine_started, weak=False)
    robots_obtained = getattr(signals, "robots_obtained", None)
    if robots_obtained is not None:
        crawler.signals.connect(obtained, signal=robots_obtained, weak=False)
    return watch


class _Collector(logging.Handler):
    def __init__(self, level: int) -> None:
        super().__init__(level)
        self.logs: list[Logged] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.logs.append(Logged(record.name, record.levelno, record.getMessage()))


@contextmanager
def _collected(names: Iterable[str], level: int) -> Iterator[list[Logged]]:
    collector = _Collector(level)
    loggers = [logging.getLogger(name) for name in names]
    previous = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(level)
        logger.addHandler(collector)
    try:
        yield collector.logs
    finally:
        for logger, level_before in zip(loggers, previous, strict=True):
            logger.removeHandler(collector)
            logger.setLevel(level_before)


@contextmanager
def _resolver_installed(crawler: Crawler) -> Iterator[None]:
    """The resolver a test names in :data:`RESOLVER_SETTING`, installed on the reactor for the crawl as
    ``CrawlerProcess`` installs it (a ``CrawlerRunner`` leaves that to its caller); none by default."""
    if crawler.settings.getpriority(RESOLVER_SETTING) == SETTINGS_PRIORITIES["default"]:
        yield
        return
    from twisted.internet import reactor

    previous, previous_names = reactor.resolver, reactor.nameResolver
    resolver = build_from_crawler(load_object(crawler.settings[RESOLVER_SETTING]), crawler, reactor=reactor)
    resolver.install_on_reactor()
    try:
        yield
    finally:
        reactor.installNameResolver(previous_names)
        reactor.resolver = previous


@contextmanager
def _earlier_objects_frozen() -> Iterator[None]:
    """Keeps what earlier tests left in memory out of the garbage collector's way while a crawl
    runs: a full collection over it would pause the crawl and skew the timings tests judge."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


async def crawl(
    *waves: Wave | Iterable[RequestSpec],
    settings: Mapping[str, Any] | None = None,
    page: PageHook | None = None,
    lean: bool = False,
    on_crawler: Callable[[Crawler], None] | None = None,
    loggers: Iterable[str] = ("scrapy_robots_rep",),
    spider_args: Mapping[str, Any] | None = None,
    spider: type[Spider] = CrawlingSpider,
) -> CrawlResult:
    """Run one real crawl to completion.

    Each positional argument is a wave: a :class:`Wave`, or the request specs of one wave sent at
    once. ``settings`` override :data:`BASE_SETTINGS` (at project priority); a resolver they name
    in :data:`RESOLVER_SETTING` is installed for the crawl, as ``scrapy crawl`` would. ``page`` is called
    with every page (:data:`PageHook`). ``lean`` keeps only statuses and exception types, for
    crawls of thousands of requests. ``on_crawler`` sees the crawler before it starts (to connect
    signals). Records of ``loggers`` at the crawl's ``LOG_LEVEL`` and above are captured.
    ``spider_args`` become spider attributes, as ``scrapy crawl -a`` would set them (``allowed_domains``).
    ``spider`` replaces the recording spider by another spider class (its pages are then not
    recorded as outcomes; the servers' logs, stats, items and logs are).
    """
    merged = {**BASE_SETTINGS, **(settings or {})}
    wave_list = [wave if isinstance(wave, Wave) else Wave(list(wave)) for wave in waves]
    runner = CrawlerRunner(merged)
    crawler = runner.create_crawler(spider)
    watch = _watch_middleware(crawler)
    items: list[Any] = []
    crawler.signals.connect(lambda item, **_: items.append(item), signal=scrapy_signals.item_scraped, weak=False)
    if on_crawler is not None:
        on_crawler(crawler)
    level = logging.getLevelName(str(merged["LOG_LEVEL"]).upper())
    with (
        _collected(loggers, level if isinstance(level, int) else logging.DEBUG) as logs,
        _earlier_objects_frozen(),
        _resolver_installed(crawler),
    ):
        started = time.monotonic()
        arguments = (
            {"waves": wave_list, "page": page, "lean": lean, "robots": watch} if spider is CrawlingSpider else {}
        )
        await runner.crawl(crawler, **arguments, **(spider_args or {}))
        seconds = time.monotonic() - started
    assert crawler.stats is not None
    outcomes = crawler.spider.outcomes if isinstance(crawler.spider, CrawlingSpider) else []
    return CrawlResult(crawler, outcomes, dict(crawler.stats.get_stats()), items, logs, started, seconds, watch)
