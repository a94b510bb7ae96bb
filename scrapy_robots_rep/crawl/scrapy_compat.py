"""The Scrapy versions the plugin runs on (2.13 and later), and the older way where an API came later.

Each difference is detected by looking for the API itself, never by comparing version numbers,
so a backport or a removal is handled too. Scrapy is imported on use: this module is read when
the package is imported, where Scrapy may be absent (the core parsers need none) or too old.
"""

from __future__ import annotations

import re
from importlib import metadata
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

    from scrapy.core.engine import ExecutionEngine
    from scrapy.core.scheduler import BaseScheduler
    from scrapy.crawler import CrawlerProcessBase
    from scrapy.http import Request, Response
    from scrapy.settings import Settings

MINIMUM_SCRAPY = (2, 13)
"""The oldest Scrapy the Scrapy layer supports: async ``start()`` and the asyncio reactor by default."""

MINIMUM_TEXT = ".".join(map(str, MINIMUM_SCRAPY))


def installed_scrapy() -> str | None:
    """The version of the installed Scrapy distribution, read without importing it; None without one.

    Its metadata's ``Version`` line is read as it is: ``metadata.version`` parses the whole file with
    the ``email`` package, which a crawl's start paid twice (about 10 M instructions).
    """
    try:
        distribution = metadata.distribution("scrapy")
    except metadata.PackageNotFoundError:
        return None
    found = re.search(r"^Version:[ \t]*(\S+)", distribution.read_text("METADATA") or "", re.MULTILINE)
    return found.group(1) if found else distribution.version


def unsupported_message(version: str | None) -> str | None:
    """What to tell a user whose Scrapy ``version`` is too old for the Scrapy layer; None if it will do."""
    if version is None:
        return None
    release = tuple(int(part) for part in re.findall(r"\d+", version)[:2])
    if release >= MINIMUM_SCRAPY:
        return None
    return (
        f"scrapy-robots-rep needs Scrapy {MINIMUM_TEXT} or later, and Scrapy {version} is installed: "
        f"upgrade it with pip install 'scrapy>={MINIMUM_TEXT}' (the core parsers work without Scrapy)"
    )


def require_scrapy() -> None:
    """Raise an ``ImportError`` saying which Scrapy is needed when the installed one is too old."""
    message = unsupported_message(installed_scrapy())
    if message is not None:
        raise ImportError(message)


async def download(engine: ExecutionEngine, request: Request) -> Response:
    """Download ``request`` outside the scheduler: ``download_async`` (Scrapy 2.14), else ``download``."""
    download_async = getattr(engine, "download_async", None)
    if download_async is not None:
        response: Response = await download_async(request)
        return response
    from scrapy.utils.defer import maybe_deferred_to_future

    return await maybe_deferred_to_future(engine.download(request))


def looping_call(function: Callable[[], None]) -> Any:
    """A repeating call with ``start(interval, now=...)`` and ``stop()``: Scrapy's own (2.14), which
    runs on asyncio without a Twisted reactor, else Twisted's ``LoopingCall``."""
    try:
        from scrapy.utils.asyncio import create_looping_call
    except ImportError:
        from twisted.internet.task import LoopingCall

        return LoopingCall(function)
    return create_looping_call(function)


def crawler_process(settings: dict[str, Any] | Settings) -> CrawlerProcessBase:
    """A process for one-off crawls: ``AsyncCrawlerProcess`` (Scrapy 2.14), else ``CrawlerProcess``."""
    from scrapy import crawler

    process_class = getattr(crawler, "AsyncCrawlerProcess", None) or crawler.CrawlerProcess
    process: CrawlerProcessBase = process_class(settings)
    return process


def engine_scheduler(engine: ExecutionEngine | None) -> BaseScheduler | None:
    """The crawl's scheduler while the spider is open; ``None`` before the spider opens.

    ``ExecutionEngine.scheduler`` first appears in Scrapy 2.19 (it is in neither 2.14 nor 2.18):
    on Scrapy 2.13 to 2.18 this reads the private ``engine._slot.scheduler``, the only place the
    scheduler is kept there (``tests/test_scrapy_versions.py`` runs both paths).
    """
    if engine is None:
        return None
    scheduler = getattr(engine, "scheduler", None)
    if scheduler is None:
        slot = getattr(engine, "_slot", None)
        scheduler = getattr(slot, "scheduler", None)
    return scheduler


def no_server_answered(error: BaseException) -> bool:
    """Whether a download failed because no server answered at all: the host name did not resolve,
    there was no route to it, or the connection was refused (Scrapy's own exception classes from
    2.15 on, Twisted's before; imported here, late, as the package root imports this module)."""
    from scrapy import exceptions
    from twisted.internet import error as twisted_errors

    classes = [twisted_errors.DNSLookupError, twisted_errors.ConnectionRefusedError, twisted_errors.NoRouteError]
    classes += [getattr(exceptions, name) for name in NO_SERVER_SCRAPY_ERRORS if hasattr(exceptions, name)]
    return isinstance(error, tuple(classes))


NO_SERVER_SCRAPY_ERRORS = ("DownloadConnectionRefusedError", "CannotResolveHostError")
"""Scrapy's own exceptions (2.15 on) that :func:`no_server_answered` recognises."""


def wake_engine(engine: ExecutionEngine | None) -> None:
    """Have the engine ask its scheduler for requests now, not at its next 5-second heartbeat (as
    ``engine.crawl`` does after enqueueing; Scrapy has no public call for a shared queue filled
    from outside). Nothing while the spider is not open."""
    slot = getattr(engine, "_slot", None)
    nextcall = getattr(slot, "nextcall", None)
    if nextcall is not None:
        nextcall.schedule()
