"""``CrawlReporter``: what the robots middleware tells while a crawl runs and when it ends.

While requests wait for robots.txt, one INFO line at each ``LOGSTATS_INTERVAL`` says how
many origins and requests wait, when the next attempt is and when they will be dropped. At
the end, a short per-origin summary goes to the log and, with ``REP_REPORT``, the whole
report to a JSON file (``docs/behaviour.md`` §11), or, when its name ends in ``.html``, the audit
trail's HTML report (``docs/evidence.md``).
"""

from __future__ import annotations

import json
import logging
import os
import socket
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy_robots_rep.crawl.outcomes import Outcomes
from scrapy_robots_rep.crawl.scrapy_compat import looping_call
from scrapy_robots_rep.policy.report import RobotsSeen, blocks_everything, counted, summarise
from scrapy_robots_rep.policy.settings import SettingsError
from scrapy_robots_rep.policy.stat_names import Stat

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

    from scrapy_robots_rep.audit import AuditTrail
    from scrapy_robots_rep.downloader.fetch_tasks import Origins
    from scrapy_robots_rep.downloader.slot_delays import SlotDelays
    from scrapy_robots_rep.policy.record_cache import CacheRecord

logger = logging.getLogger("scrapy_robots_rep")

HTML_SUFFIXES = (".html", ".htm")
"""A ``REP_REPORT`` ending so is the audit trail's HTML report; any other name, the JSON report."""

WORKER = "{worker}"
"""Replaced in ``REP_REPORT`` by :func:`worker_name`, so that a fleet's reports do not overwrite each other."""


def worker_name() -> str:
    """This process in a fleet: ``<host>-<pid>``."""
    return f"{socket.gethostname()}-{os.getpid()}"


class CrawlReporter:
    """Progress lines while requests wait, and the end-of-crawl report."""

    def __init__(
        self,
        crawler: Crawler,
        outcomes: Outcomes,
        origins: Origins,
        delays: SlotDelays | None,
        path: str | None,
        trail: AuditTrail | None = None,
    ) -> None:
        self._crawler = crawler
        self._outcomes = outcomes
        self._origins = origins
        self._accounting = outcomes.accounting
        self._delays = delays
        if path is not None and Path(path).is_dir():
            raise SettingsError(f"REP_REPORT must name a file to write (.json, or .html), {path!r} is a directory")
        self._path = path.replace(WORKER, worker_name()) if path is not None else None
        self._html = self._path is not None and self._path.lower().endswith(HTML_SUFFIXES)
        if self._html and trail is None:
            raise SettingsError(f"REP_REPORT {path!r} is an HTML report of the audit trail: it needs REP_AUDIT_DIR")
        self._trail = trail
        self._robots: dict[str, RobotsSeen] = {}
        self._interval = crawler.settings.getfloat("LOGSTATS_INTERVAL")
        self._loop: Any = None
        outcomes.watch_records(self._on_robots_obtained)

    def start(self) -> None:
        if self._interval > 0:
            self._loop = looping_call(self.progress)
            self._loop.start(self._interval, now=False)

    def progress(self) -> None:
        """Log where the waiting requests stand, if any wait."""
        waiting = self._origins.parking.by_origin()
        if not waiting:
            return
        now = time.time()
        settings = self._origins.settings
        pending = [active for active in self._origins.pending() if active.origin in waiting]
        attempts = [(active.state.next_fetch_at, active.origin) for active in pending if active.state.next_fetch_at]
        cycles = [
            (active.state.cycle_started + settings.defer_max_time, active.origin)
            for active in pending
            if active.state.cycle_started is not None
        ]
        requests, origins = sum(waiting.values()), len(waiting)
        parts = [f"{counted(requests, 'request')} of {counted(origins, 'origin')} wait for robots.txt"]
        if attempts:
            at, origin = min(attempts)
            parts.append(
                f"next attempt in {at - now:.0f}s ({origin})" if at > now else f"an attempt is under way ({origin})"
            )
        if cycles:
            at, origin = min(cycles)
            parts.append(f"dropped in {max(at - now, 0):.0f}s if still unreachable ({origin} first)")
        logger.info("; ".join(parts), extra={"spider": self._crawler.spider})

    def close(self, reason: str, waiting: dict[str, int], saved: bool) -> None:
        """Stop the progress lines; name what still waited; log the summary and write the JSON report."""
        if self._loop is not None and self._loop.running:
            self._loop.stop()
        extra = {"spider": self._crawler.spider}
        if waiting:
            count = sum(waiting.values())
            self._outcomes.gauge(Stat.REQUESTS_STILL_DEFERRED, count)
            logger.warning(
                "Spider closed (%(reason)s) with %(count)s still waiting for robots.txt of %(origins)s%(saved)s",
                {
                    "reason": reason,
                    "count": counted(count, "request"),
                    "origins": ", ".join(f"{origin} ({number})" for origin, number in sorted(waiting.items())),
                    "saved": "; saved in JOBDIR, they are crawled when the crawl resumes" if saved else "",
                },
                extra=extra,
            )
        for origin, counts in self._accounting.unbalanced().items():
            logger.error("Request accounting does not add up for %s: %r", origin, counts, extra=extra)
        report = summarise(
            self._accounting.origins,
            self._robots,
            self._delays.applied if self._delays is not None else {},
            waiting,
        )
        if report.origins:
            for loud, line in report.lines():
                logger.log(logging.WARNING if loud else logging.INFO, line, extra=extra)
        if self._path:  # also when no origin was checked: a report left by an earlier run must not pass for this one
            path = Path(self._path)
            try:
                if self._html and self._trail is not None:
                    self._trail.flush()
                    _write_html_report(self._trail.directory, path)
                else:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_text(json.dumps(report.to_dict(), indent=2) + "\n", encoding="utf-8")
            except OSError as error:  # the rest of the close (the shared store's) must still run
                logger.error("Could not write the robots.txt report (REP_REPORT): %s", error, extra=extra)
                return
            logger.info("robots.txt report written to %s", path, extra=extra)

    def _on_robots_obtained(self, origin: str, record: CacheRecord) -> None:
        blocked = not record.outcome.failed and blocks_everything(record.rules, origin)
        if blocked:
            decision = record.rules.explain(origin + "/")
            rule = decision.rule
            group = ", ".join(decision.group)
            reason = f"{rule.text!r} at line {rule.line}, group {group}" if rule else decision.reason
        elif record.status is not None:
            reason = f"robots.txt returned {record.status}"
        else:
            reason = "robots.txt could not be fetched"
        self._robots[origin] = RobotsSeen(
            record.outcome.value, record.status, reason, blocked, licenses=record.rules.licenses
        )


def _write_html_report(directory: Path, path: Path) -> None:
    """The audit trail's HTML report of ``directory``, verified, at ``path``; its modules (the report,
    its HTML and the verification) are loaded here, by the crawls that write one."""
    from scrapy_robots_rep.audit.html import write_html
    from scrapy_robots_rep.audit.report import read_report
    from scrapy_robots_rep.audit.times import any_rfc3339
    from scrapy_robots_rep.audit.verify import verify

    write_html(read_report(directory), path, any_rfc3339(time.time()), verify(directory))
