"""Where the robots middleware meets the scheduler: requests going in, and coming out.

Going in, a request whose origin holds no rules yet is parked instead of being enqueued.
This is asked of the scheduler's own ``enqueue_request`` rather than through Scrapy's
``request_scheduled`` signal: the engine calls it once for every request a callback yields
(also the many that the dupefilter then drops), after every ``request_scheduled`` handler
(``OffsiteMiddleware``'s among them) let the request through, and a direct call costs a
fraction of a signal dispatch. Coming out, every request the scheduler hands out is marked
as scheduled: one that then finds no rules can go back to be parked (``docs/behaviour.md`` §5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy_robots_rep.crawl.meta_keys import REFILTERED, SCHEDULED
from scrapy_robots_rep.downloader.scrapy_compat import engine_scheduler

if TYPE_CHECKING:
    from collections.abc import Callable

    from scrapy import Request
    from scrapy.crawler import Crawler


def past_the_dupefilter(request: Request) -> Request:
    """``request`` set to pass the dupefilter once more, its own ``dont_filter`` kept (:data:`REFILTERED`)."""
    if request.dont_filter:
        return request
    again = request.replace(dont_filter=True)
    again.meta[REFILTERED] = True
    return again


def hook_scheduler(crawler: Crawler, parks: Callable[[Request], bool]) -> None:
    """Make the crawl's scheduler ask ``parks`` before enqueueing a request (True: parked, not
    enqueued), and mark every request it hands out with :data:`SCHEDULED` (giving a
    :data:`REFILTERED` one its own ``dont_filter`` back).

    Scheduler-agnostic: it wraps the two methods every Scrapy scheduler has
    (``BaseScheduler``), on the scheduler instance, when the spider opens.
    """
    scheduler = engine_scheduler(crawler.engine)
    assert scheduler is not None
    enqueue = scheduler.enqueue_request
    dequeue = scheduler.next_request

    def enqueue_request(request: Request) -> bool:
        # A parked request counts as enqueued: the engine must not report it as dropped.
        return parks(request) or enqueue(request)

    def next_request() -> Request | None:
        request = dequeue()
        if request is not None:
            meta = request.meta
            meta[SCHEDULED] = True
            if meta.pop(REFILTERED, False):
                request.dont_filter = False
        return request

    scheduler.enqueue_request = enqueue_request  # type: ignore[method-assign]
    scheduler.next_request = next_request  # type: ignore[method-assign]
