"""``Ledger``: how each request that reached the robots middleware ended, told everywhere it is told.

Every request is allowed, disallowed, dropped as unreachable, or deferred first; each of these
is counted per origin (the end-of-crawl report) and in the crawl stats, logged, and signalled
(``scrapy_robots_rep.signals``). A disallowed or dropped request raises the exception its
errback receives (``docs/behaviour.md`` §7).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, NoReturn

from scrapy_robots_rep import signals
from scrapy_robots_rep.exceptions import RobotsDisallowed, RobotsUnreachable
from scrapy_robots_rep.policy.accounting import Accounting

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector

    from scrapy_robots_rep.core import Decision

logger = logging.getLogger("scrapy_robots_rep.downloader.middleware")


class Ledger:
    """Counts, logs and signals the end of every checked request."""

    def __init__(self, crawler: Crawler) -> None:
        stats = crawler.stats
        assert stats is not None
        self._crawler = crawler
        self._stats: StatsCollector = stats
        self.accounting = Accounting()

    def allowed(self, origin: str) -> None:
        self.accounting.of(origin).allowed += 1
        self._stats.inc_value("rep/requests/allowed")

    def disallowed(self, request: Request, origin: str, decision: Decision) -> NoReturn:
        self.accounting.of(origin).disallowed += 1
        self._stats.inc_value("rep/requests/disallowed")
        self._stats.inc_value("robotstxt/forbidden")
        rule = decision.rule
        logger.debug(
            "Forbidden by robots.txt: %(url)s (group: %(group)s; rule: %(rule)s; %(reason)s)",
            {
                "url": request.url,
                "group": ", ".join(decision.group) or "none",
                "rule": f"{rule.text!r} at line {rule.line}" if rule is not None else "none",
                "reason": decision.reason,
            },
            extra={"spider": self._crawler.spider},
        )
        self._crawler.signals.send_catch_log(signals.request_disallowed, request=request, decision=decision)
        raise RobotsDisallowed(request.url, decision)

    def refused_purposes(self, request: Request, origin: str, decision: Decision) -> NoReturn:
        """A request robots.txt allows but whose declared purposes (``REP_PURPOSES``) it refuses
        every one of: counted per refusing line (a Content-Usage rule, or Content-Signal), then disallowed."""
        rule = decision.rule
        source = f"line {rule.line}: {rule.text.strip()}" if rule is not None else "Content-Signal"
        refusals = self.accounting.of(origin).refused_purposes
        refusals[source] = refusals.get(source, 0) + 1
        self.disallowed(request, origin, decision)

    def dropped(self, request: Request, origin: str, reason: str) -> NoReturn:
        self.accounting.of(origin).dropped_unreachable += 1
        self._stats.inc_value("rep/requests/dropped_unreachable")
        logger.info(
            "Dropped %(url)s: robots.txt of %(origin)s is unreachable (%(reason)s)",
            {"url": request.url, "origin": origin, "reason": reason},
            extra={"spider": self._crawler.spider},
        )
        self._crawler.signals.send_catch_log(signals.request_dropped_unreachable, request=request, origin=origin)
        raise RobotsUnreachable(request.url, origin, reason)

    def deferred(self, request: Request, origin: str, parked: bool) -> None:
        counts = self.accounting.of(origin)
        counts.deferred += 1
        counts.parked += parked
        self._stats.inc_value("rep/requests/deferred")
        logger.debug(
            "Deferred %(url)s until robots.txt of %(origin)s is obtained",
            {"url": request.url, "origin": origin},
            extra={"spider": self._crawler.spider},
        )
        self._crawler.signals.send_catch_log(signals.request_deferred, request=request, origin=origin)

    def released(self, origin: str) -> None:
        """A parked request went back to the engine (or was saved at close)."""
        self.accounting.of(origin).parked -= 1
