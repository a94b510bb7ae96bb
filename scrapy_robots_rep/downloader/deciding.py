"""``RequestDecider``: what an origin's rules say of one request, and what follows from it.

A disallowed request, or one whose every declared purpose (``REP_PURPOSES``) robots.txt refuses,
is dropped with the exception its errback receives; an allowed one carries the origin's
``Content-Signal`` and ``Content-Usage`` on to the page-level middleware (``crawl/meta_keys.py``)
and gets the origin's Crawl-delay floor. Each end is told to ``Outcomes`` (docs/behaviour.md §7).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy_robots_rep.crawl.meta_keys import CONTENT_SIGNALS, CONTENT_USAGE

if TYPE_CHECKING:
    from scrapy import Request

    from scrapy_robots_rep.crawl.outcomes import Outcomes
    from scrapy_robots_rep.downloader.slot_delays import SlotDelays
    from scrapy_robots_rep.policy.record_cache import CacheRecord


class RequestDecider:
    """Decides requests by their origin's record for the robots middleware."""

    def __init__(self, outcomes: Outcomes, delays: SlotDelays | None, purposes: tuple[str, ...]) -> None:
        self._outcomes = outcomes
        self._delays = delays
        self._purposes = purposes

    def decide(self, request: Request, origin: str, record: CacheRecord) -> None:
        """Let ``request`` through (telling ``Outcomes``), or drop it by raising."""
        rules = record.rules
        if not rules.allowed(request.url):
            self._outcomes.raise_disallowed(request, origin, rules.explain(request.url), record)
        if self._purposes:
            refusal = rules.purposes_refusal(request.url, self._purposes)
            if refusal is not None:
                self._outcomes.raise_refused(request, origin, refusal, record)
        content_signals = rules.content_signals
        if content_signals:
            request.meta[CONTENT_SIGNALS] = dict(content_signals)
        usage = rules.content_usage(request.url)
        if usage is not None and usage.preferences:
            request.meta[CONTENT_USAGE] = (dict(usage.preferences), usage.source)
        if rules.crawl_delay and self._delays is not None:
            self._delays.apply(request, origin, rules.crawl_delay)
        self._outcomes.allowed(request, origin, record)
