"""``SharedParking``: with a shared scheduler (scrapy-redis), parked requests wait in Redis, not in a process.

A process that parks a request until its origin's robots.txt is obtained writes it into the
scheduler's Redis, serialised as the scheduler serialises requests, under a lease the process
renews. Whichever process obtains the origin's rules moves all of that origin's parked requests,
whoever parked them, into the shared queue in one atomic step, and has its engine take them at
once; a process that dies leaves its lease to run out, and every process sweeps requests whose
lease ran out back into the queue. So a worker killed at any moment loses no waiting request
(``docs/stores.md``).

Parking stands in for the scheduler's ``enqueue_request``: its dupefilter judges the request
then, once. Parked requests are serialised with ``dont_filter`` set, so that nothing later takes
them for duplicates of themselves, and get their own back when the scheduler hands them out
(``scheduling.REFILTERED``). Every failure keeps a request exactly once: when Redis refuses the
park (an error reply: nothing was written) the request waits in this process and is released
past the dupefilter; when the reply is lost (a timeout: the park may have run) the same park,
idempotent by its park id, is run again until Redis answers whether the request is parked, or
was already moved into the queue by another process.

Keys, on the scheduler's Redis, all in the queue key's hash slot (``parking_scripts``):
``{<queue key>}:rep_parked:<origin>`` (a sorted set scored as scrapy-redis's priority queue
scores), ``{<queue key>}:rep_parked`` (the leases, per origin key, on Redis's clock) and
``{<queue key>}:rep_parked_ids`` (recent park ids). Each lives ``REP_DEFER_MAX_TIME`` plus a
lease past its last renewal, so a fleet stopped for good leaves nothing behind.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError, ResponseError

from scrapy_robots_rep.crawl.meta_keys import PARK_ID
from scrapy_robots_rep.crawl.scrapy_compat import engine_scheduler, looping_call, wake_engine
from scrapy_robots_rep.downloader import parking_scripts
from scrapy_robots_rep.downloader.parking import Parked, past_the_dupefilter
from scrapy_robots_rep.policy.stat_names import Stat

if TYPE_CHECKING:
    from collections.abc import Callable

    from scrapy import Request
    from scrapy.crawler import Crawler

    from scrapy_robots_rep.crawl.outcomes import Outcomes

logger = logging.getLogger(__name__)

QUEUE_KINDS = {
    "scrapy_redis.queue.PriorityQueue": "zset",
    "scrapy_redis.queue.FifoQueue": "list",
    "scrapy_redis.queue.LifoQueue": "list",
}
"""scrapy-redis queues whose layout the scripts write: a sorted set scored ``-priority``, or a
list pushed on the left (both FIFO and LIFO queues push so)."""

SWEEP_BATCH = 100
"""Origins whose requests one sweep moves back to the queue at most."""


@dataclass(slots=True)
class _Unsettled:
    """A park whose reply was lost."""

    origin: str
    args: list[Any]
    request: Request
    released: bool = False
    """Whether the origin's requests were released since (a late park is released at once)."""


class SharedParking:
    """Parked requests in the scheduler's Redis, under a lease; built by :meth:`of` for a scrapy-redis scheduler."""

    def __init__(
        self, crawler: Crawler, outcomes: Outcomes, scheduler: Any, kind: str, lease: float, lifetime: float, bound: int
    ) -> None:
        self._crawler = crawler
        self._outcomes = outcomes
        self._scheduler = scheduler
        self._kind = kind
        self._lease_ms = max(1, round(lease * 1000))
        self._lifetime_ms = max(1, round((lifetime + lease) * 1000))
        self._bound = max(1, bound)
        server = scheduler.server
        self._server = server
        self._queue_key: str = scheduler.queue.key
        self._serializer = scheduler.queue.serializer
        self._leases = parking_scripts.parking_prefix(self._queue_key)
        self._ids = f"{self._leases}_ids"
        self._park = server.register_script(parking_scripts.PARK)
        self._renew = server.register_script(parking_scripts.RENEW)
        self._release = server.register_script(parking_scripts.RELEASE)
        self._take = server.register_script(parking_scripts.TAKE)
        self._expired = server.register_script(parking_scripts.EXPIRED)
        self._sweep = server.register_script(parking_scripts.SWEEP)
        self.held: dict[str, int] = {}
        """Per origin, the requests this process parked and has not released."""
        self.unsettled: list[_Unsettled] = []
        """Parks whose reply was lost."""
        self.keep_here: Callable[[str, Request, bool], None] | None = None
        """Where a request whose park Redis refused goes, and whether its origin was released (set by ``Parking``)."""
        self._loop: Any = None
        self._warned: set[str] = set()
        """What failed and was warned of: said again at DEBUG until it succeeds (a refused script fails every park)."""

    @classmethod
    def of(
        cls, crawler: Crawler, outcomes: Outcomes, lease: float, lifetime: float, bound: int
    ) -> SharedParking | None:
        """For the crawl's scheduler when it is scrapy-redis's with a queue it knows; else ``None``."""
        scheduler = engine_scheduler(crawler.engine)
        queue = getattr(scheduler, "queue", None)
        if queue is None or getattr(scheduler, "server", None) is None:
            return None
        kind = QUEUE_KINDS.get(f"{type(queue).__module__}.{type(queue).__qualname__}")
        if kind is None:
            logger.warning(
                "Requests waiting for robots.txt stay in this process: the scrapy-redis queue %s is not one of %s",
                type(queue).__qualname__,
                ", ".join(QUEUE_KINDS),
            )
            return None
        return cls(crawler, outcomes, scheduler, kind, lease, lifetime, bound)

    def start(self) -> None:
        """Clear the parking keys when the scheduler flushes its queue on start (``SCHEDULER_FLUSH_ON_START``);
        then renew this process's leases and sweep expired ones, every third of the lease."""
        if getattr(self._scheduler, "flush_on_start", False):
            self._flush()
        self._loop = looping_call(self._tend)
        self._loop.start(self._lease_ms / 3000, now=True)

    def park(self, origin: str, request: Request) -> Parked:
        """Keep ``request`` in Redis until ``origin``'s rules are obtained (by any process).

        Parking takes the place of the scheduler's ``enqueue_request``, so the scheduler's dupefilter
        sees the request here: a duplicate is dropped as scrapy-redis would drop it.
        """
        dupefilter = self._scheduler.df
        try:
            if not request.dont_filter and dupefilter.request_seen(request):
                dupefilter.log(request, self._crawler.spider)
                return Parked.DUPLICATE
        except (OSError, RedisError) as error:
            self._warn("park a request", error, "it waits in this process")
            return Parked.HERE
        parked = past_the_dupefilter(request)
        parked.meta[PARK_ID] = park_id = uuid.uuid4().hex
        data = self._serializer.dumps(parked.to_dict(spider=self._crawler.spider))
        args = [self._lease_ms, self._lifetime_ms, self._bound, self._kind, park_id, -request.priority, data]
        try:
            result = self._park(keys=self._park_keys(origin), args=args)
        except ResponseError as error:
            self._warn("park a request", error, "it waits in this process")
            return Parked.HERE
        except (OSError, RedisError) as error:
            self._warn("park a request", error, "asking Redis again whether it is parked")
            self.unsettled.append(_Unsettled(origin, args, request))
            return Parked.IN_REDIS
        self._warned.discard("park a request")
        if int(result) == 2:
            return Parked.QUEUED
        self.held[origin] = self.held.get(origin, 0) + 1
        return Parked.IN_REDIS

    def release(self, origin: str) -> int:
        """Move every request parked for ``origin`` into the shared queue and have the engine take
        them now; how many (also others')."""
        self.held.pop(origin, None)
        for unsettled in self.unsettled:
            unsettled.released |= unsettled.origin == origin
        try:
            moved = int(self._release(keys=[self._key(origin), self._leases, self._queue_key], args=[self._kind]))
        except (OSError, RedisError) as error:
            # They stay parked: once the lease runs out, a process that reaches Redis moves them.
            logger.warning("Could not release the requests parked for %s (%s)", origin, error)
            return 0
        if moved:
            wake_engine(self._crawler.engine)
        return moved

    def take(self, origin: str) -> list[Request]:
        """Remove and return the requests parked for ``origin`` (its deferral cycle failed: they are
        dropped); none when Redis fails (they stay parked, and are swept once their lease runs out)."""
        from scrapy.utils.request import request_from_dict

        self.held.pop(origin, None)
        try:
            entries = self._take(keys=[self._key(origin), self._leases])
        except (OSError, RedisError) as error:
            logger.warning("Could not take the requests parked for %s (%s)", origin, error)
            return []
        spider = self._crawler.spider
        return [request_from_dict(self._serializer.loads(data), spider=spider) for data in entries]

    def close(self) -> list[tuple[str, Request]]:
        """At close: stop renewing; this process's parked requests go back to the queue now, not
        after the lease, unless the scheduler does not persist its queue (``SCHEDULER_PERSIST``
        False: it was just flushed), then they are taken out of Redis and returned."""
        if self._loop is not None and self._loop.running:
            self._loop.stop()
        self._settle()
        origins = list(self.held)
        if getattr(self._scheduler, "persist", True):
            for origin in origins:
                self.release(origin)
            return []
        return [(origin, request) for origin in origins for request in self.take(origin)]

    def _tend(self) -> None:
        try:
            self._settle()
            self._renew_and_sweep()
        except (OSError, RedisError) as error:
            self._warn("renew or sweep parked requests", error, "trying again in a third of the lease")

    def _settle(self) -> None:
        """Run again each park whose reply was lost: it parks the request if the first run did not."""
        unsettled, self.unsettled = self.unsettled, []
        for index, park in enumerate(unsettled):
            try:
                result = int(self._park(keys=self._park_keys(park.origin), args=park.args))
            except ResponseError:
                if self.keep_here is not None:
                    self.keep_here(park.origin, past_the_dupefilter(park.request), park.released)
                continue
            except (OSError, RedisError):
                self.unsettled.extend(unsettled[index:])
                return
            if result != 1:
                continue
            if park.released:
                self.release(park.origin)
            else:
                self.held[park.origin] = self.held.get(park.origin, 0) + 1

    def _renew_and_sweep(self) -> None:
        if self.held:
            keys = [self._leases, *(self._key(origin) for origin in self.held)]
            self._renew(keys=keys, args=[self._lease_ms, self._lifetime_ms])
        swept = 0
        for key in self._expired(keys=[self._leases], args=[SWEEP_BATCH]):
            swept += int(self._sweep(keys=[self._leases, key, self._queue_key], args=[self._kind]))
        if swept:
            self._outcomes.count(Stat.PARKED_SWEPT, by=swept)
            wake_engine(self._crawler.engine)
            logger.info(
                "Moved %(count)d requests parked by a process that stopped renewing its lease back to the queue",
                {"count": swept},
                extra={"spider": self._crawler.spider},
            )

    def _flush(self) -> None:
        pattern = "".join(f"\\{char}" if char in "*?[]\\" else char for char in self._leases) + "*"
        try:
            keys = list(self._server.scan_iter(match=pattern, count=1000))
            for start in range(0, len(keys), 1000):
                self._server.delete(*keys[start : start + 1000])
        except (OSError, RedisError) as error:
            self._warn("clear the parking keys", error, "they expire by themselves")

    def _warn(self, what: str, error: Exception, then: str) -> None:
        """A warning the first time ``what`` fails, then DEBUG lines (until a park succeeds, for a park)."""
        logger.log(
            logging.DEBUG if what in self._warned else logging.WARNING,
            "Could not %(what)s in the scheduler's Redis (%(error)s): %(then)s",
            {"what": what, "error": error, "then": then},
            extra={"spider": self._crawler.spider},
        )
        self._warned.add(what)

    def _park_keys(self, origin: str) -> list[str]:
        return [self._key(origin), self._leases, self._ids, self._queue_key]

    def _key(self, origin: str) -> str:
        return f"{self._leases}:{origin}"
