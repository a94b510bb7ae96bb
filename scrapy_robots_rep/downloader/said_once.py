"""A start-up error, once logged as one line, is not reported again by what runs the crawl.

The error still fails the crawl, so that ``scrapy crawl`` exits with status 1; only the second
report, with a traceback, is kept back. It comes from one of two places:

- a crawl run as an asyncio task (Scrapy 2.14 on, on the asyncio reactor): asyncio logs a task's
  exception that no one retrieved (``Task exception was never retrieved``);
- a crawl run in Twisted's ``@inlineCallbacks`` (Scrapy 2.13; later ones on another reactor): the
  Deferred keeps the failure (Scrapy reads it for the exit status), and Twisted logs it when that
  Deferred is garbage-collected (``Unhandled error in Deferred``).

Only a failure wrapping this very error goes unreported; any other stays as loud as before.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

from twisted.internet import defer

if TYPE_CHECKING:
    from types import FrameType

    from twisted.internet.defer import Deferred


def said_once(error: BaseException) -> None:
    """Keep ``error``, just logged, from being reported again when the crawl that it fails ends."""
    try:
        task = asyncio.current_task()
    except RuntimeError:  # no running event loop
        task = None
    if task is not None:
        task.add_done_callback(_retrieve)
    for deferred in _inline_callbacks_deferreds(sys._getframe(1)):
        deferred._debugInfo = _QuietAbout(error, deferred._debugInfo)


def _retrieve(task: asyncio.Task[object]) -> None:
    """Mark the task's exception as retrieved, so that asyncio does not log it."""
    if not task.cancelled():
        task.exception()


def _inline_callbacks_deferreds(frame: FrameType | None) -> Iterator[Deferred[object]]:
    """The Deferreds of the ``@inlineCallbacks`` calls running ``frame``, innermost first: each fails
    with an exception raised here that its generator lets through (as ``Crawler.crawl`` and Scrapy's
    ``CrawlerRunner._crawl`` do). Twisted's ``_inlineCallbacks(result, gen, status, context)`` runs a
    generator and keeps its Deferred as ``status.deferred`` (Twisted 18.7 on)."""
    while frame is not None:
        if frame.f_code is defer._inlineCallbacks.__code__:
            deferred = getattr(frame.f_locals.get("status"), "deferred", None)
            if isinstance(deferred, defer.Deferred):
                yield deferred
        frame = frame.f_back


class _QuietAbout(defer.DebugInfo):
    """Twisted's record of a Deferred's last failure, logged when the Deferred is garbage-collected,
    here silent when that failure wraps ``error`` (any other is logged as Twisted does)."""

    def __init__(self, error: BaseException, before: defer.DebugInfo | None) -> None:
        self._error = error
        if before is not None:  # Twisted's debugging (Deferred.debug) noted where it was made
            self.creator, self.invoker = before.creator, before.invoker

    def __del__(self) -> None:
        if self.failResult is None or self.failResult.value is not self._error:
            super().__del__()
