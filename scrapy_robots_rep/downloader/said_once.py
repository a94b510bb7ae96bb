"""A start-up error, once logged as one line, is not reported again by what runs the crawl.

The error still fails the crawl, so that ``scrapy crawl`` exits with status 1; only the second
report, with a traceback, is kept back. It comes from one of two places:

- Scrapy 2.14 on runs a crawl as an asyncio task, and asyncio logs a task's exception that no one
  retrieved (``Task exception was never retrieved``);
- Scrapy 2.13 runs it in Twisted's ``@inlineCallbacks``, whose Deferred keeps the failure (``scrapy
  crawl`` reads it for the exit status) and which Twisted logs when that Deferred is
  garbage-collected (``Unhandled error in Deferred``).

Only the failure wrapping this very error goes unreported; any other stays as loud as before.
"""

from __future__ import annotations

import asyncio
import sys
from typing import TYPE_CHECKING

from twisted.internet import defer

if TYPE_CHECKING:
    from types import FrameType

    from twisted.internet.defer import Deferred


def said_once(error: BaseException) -> None:
    """Keep ``error``, just logged, from being reported again when the crawl that it fails ends."""
    try:
        task = asyncio.current_task()
    except RuntimeError:  # no running event loop: a crawl run by Twisted Deferreds (Scrapy 2.13)
        task = None
    if task is not None:
        task.add_done_callback(_retrieve)
        return
    deferred = _inline_callbacks_deferred(sys._getframe(1))
    if deferred is not None:
        deferred._debugInfo = _QuietAbout(error, deferred._debugInfo)


def _retrieve(task: asyncio.Task[object]) -> None:
    """Mark the task's exception as retrieved, so that asyncio does not log it."""
    if not task.cancelled():
        task.exception()


def _inline_callbacks_deferred(frame: FrameType | None) -> Deferred[object] | None:
    """The Deferred of the innermost ``@inlineCallbacks`` call running ``frame``: it fails with an
    exception raised there. Twisted's ``_inlineCallbacks(result, gen, status, context)`` runs the
    generator and keeps that Deferred as ``status.deferred`` (Twisted 18.7 on); None elsewhere."""
    while frame is not None:
        if frame.f_code is defer._inlineCallbacks.__code__:
            deferred: Deferred[object] | None = getattr(frame.f_locals.get("status"), "deferred", None)
            return deferred
        frame = frame.f_back
    return None


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
