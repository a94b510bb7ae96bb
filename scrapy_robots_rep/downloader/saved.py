"""``SavedRequests``: requests still waiting for robots.txt when a ``JOBDIR`` crawl stops, kept for the resume.

Parked requests live outside the scheduler, so its disk queue does not hold them. They are
written to ``JOBDIR`` with the scheduler's own disk queue class (``SCHEDULER_DISK_QUEUE``,
so they serialise exactly as scheduled requests do) and given back to the engine when the
crawl starts again with the same ``JOBDIR`` (``docs/behaviour.md`` §5).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy.utils.job import job_dir
from scrapy.utils.misc import load_object

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler

FOLDER = "robots_rep.deferred"


class SavedRequests:
    """The ``JOBDIR`` queue of waiting requests (nothing without ``JOBDIR``)."""

    def __init__(self, crawler: Crawler) -> None:
        self._crawler = crawler
        directory = job_dir(crawler.settings)
        self._path = Path(directory, FOLDER) if directory else None

    def keep(self, requests: Iterable[Request]) -> bool:
        """Save ``requests``; False (and nothing kept) without ``JOBDIR``."""
        if self._path is None:
            return False
        queue = self._queue()
        try:
            for request in requests:
                queue.push(request)
        finally:
            queue.close()
        return True

    def take(self) -> list[Request]:
        """The requests saved by the last run, removed from ``JOBDIR``."""
        if self._path is None or not self._path.exists():
            return []
        queue = self._queue()
        taken = []
        try:
            while (request := queue.pop()) is not None:
                taken.append(request)
        finally:
            queue.close()
        shutil.rmtree(self._path, ignore_errors=True)
        return taken

    def _queue(self) -> Any:
        queue_class = load_object(self._crawler.settings["SCHEDULER_DISK_QUEUE"])
        return queue_class.from_crawler(self._crawler, key=str(self._path))
