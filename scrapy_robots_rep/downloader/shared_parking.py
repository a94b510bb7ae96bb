"""``SharedParking``: with a shared scheduler (scrapy-redis), parked requests wait in Redis, not in a process.

A process that parks a request until its origin's robots.txt is obtained writes it into the
scheduler's Redis, serialised as the scheduler serialises requests, under a lease the process
renews. Whichever process obtains the origin's rules moves all of that origin's parked requests,
whoever parked them, into the shared queue in one atomic step; a process that dies leaves its
lease to run out, and every process sweeps requests whose lease ran out back into the queue.
So a worker killed at any moment loses no waiting request (``docs/stores.md``).

Parking stands in for the scheduler's ``enqueue_request``: its dupefilter judges the request
then, once. Released requests go straight into the queue, serialised with ``dont_filter``, so
that nothing later takes them for duplicates of themselves. Keys, on the scheduler's Redis:
``<queue key>:rep_parked:<origin>`` (a sorted set scored as scrapy-redis's priority queue scores)
and ``<queue key>:rep_parked`` (the leases, per origin key, on Redis's clock).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError

from scrapy_robots_rep.crawl.outcomes import Outcomes
from scrapy_robots_rep.crawl.scrapy_compat import engine_scheduler, looping_call
from scrapy_robots_rep.policy.stat_names import Stat
from scrapy_robots_rep.stores import redis_scripts

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

QUEUE_KINDS = {
    "scrapy_redis.queue.PriorityQueue": "zset",
    "scrapy_redis.queue.FifoQueue": "list",
    "scrapy_redis.queue.LifoQueue": "list",
}
"""scrapy-redis queues whose layout the release script writes: a sorted set scored ``-priority``,
or a list pushed on the left (both FIFO and LIFO queues push so)."""

SWEEP_BATCH = 100
"""Origins whose requests one sweep moves back to the queue at most."""


class SharedParking:
    """Parked requests in the scheduler's Redis, under a lease; built by :meth:`of` for a scrapy-redis scheduler."""

    def __init__(self, crawler: Crawler, outcomes: Outcomes, scheduler: Any, kind: str, lease: float) -> None:
        self._crawler = crawler
        self._outcomes = outcomes
        self._scheduler = scheduler
        self._kind = kind
        self._lease_ms = max(1, round(lease * 1000))
        server = scheduler.server
        self._queue_key: str = scheduler.queue.key
        self._serializer = scheduler.queue.serializer
        self._leases = f"{self._queue_key}:rep_parked"
        self._park = server.register_script(redis_scripts.PARK)
        self._renew = server.register_script(redis_scripts.RENEW_PARKED)
        self._release = server.register_script(redis_scripts.RELEASE_PARKED)
        self._take = server.register_script(redis_scripts.TAKE_PARKED)
        self._sweep = server.register_script(redis_scripts.SWEEP_PARKED)
        self.held: dict[str, int] = {}
        """Per origin, the requests this process parked and has not released."""
        self._loop: Any = None

    @classmethod
    def of(cls, crawler: Crawler, outcomes: Outcomes, lease: float) -> SharedParking | None:
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
        return cls(crawler, outcomes, scheduler, kind, lease)

    def start(self) -> None:
        """Renew this process's leases and sweep expired ones, every third of the lease."""
        self._loop = looping_call(self._tend)
        self._loop.start(self._lease_ms / 3000, now=True)

    def stop(self) -> None:
        if self._loop is not None and self._loop.running:
            self._loop.stop()

    def park(self, origin: str, request: Request) -> bool:
        """Keep ``request`` in Redis until ``origin``'s rules are obtained (by any process); ``False``
        when Redis failed (the caller keeps it).

        Parking takes the place of the scheduler's ``enqueue_request``, so the scheduler's dupefilter
        sees the request here: a duplicate is dropped as scrapy-redis would drop it.
        """
        dupefilter = self._scheduler.df
        if not request.dont_filter and dupefilter.request_seen(request):
            dupefilter.log(request, self._crawler.spider)
            return True
        data = self._serializer.dumps(request.replace(dont_filter=True).to_dict(spider=self._crawler.spider))
        try:
            self._park(keys=[self._key(origin), self._leases], args=[self._lease_ms, -request.priority, data])
        except (OSError, RedisError) as error:
            logger.warning("Could not park a request in the scheduler's Redis (%s); it waits in this process", error)
            return False
        self.held[origin] = self.held.get(origin, 0) + 1
        return True

    def release(self, origin: str) -> int:
        """Move every request parked for ``origin`` into the shared queue; how many (also others')."""
        self.held.pop(origin, None)
        try:
            moved = self._release(keys=[self._key(origin), self._leases, self._queue_key], args=[self._kind])
        except (OSError, RedisError) as error:
            # They stay parked: once the lease runs out, a process that reaches Redis moves them.
            logger.warning("Could not release the requests parked for %s (%s)", origin, error)
            return 0
        return int(moved)

    def take(self, origin: str) -> list[Request]:
        """Remove and return the requests parked for ``origin`` (its deferral cycle failed: they are dropped)."""
        from scrapy.utils.request import request_from_dict

        self.held.pop(origin, None)
        entries = self._take(keys=[self._key(origin), self._leases])
        spider = self._crawler.spider
        return [request_from_dict(self._serializer.loads(data), spider=spider) for data in entries]

    def give_back_all(self) -> int:
        """At close: this process's parked requests go back to the queue now, not after the lease."""
        return sum(self.release(origin) for origin in list(self.held))

    def _tend(self) -> None:
        try:
            self._renew_and_sweep()
        except (OSError, RedisError) as error:
            logger.warning("Could not renew or sweep parked requests in the scheduler's Redis (%s)", error)

    def _renew_and_sweep(self) -> None:
        if self.held:
            self._renew(keys=[self._key(origin) for origin in self.held], args=[self._lease_ms, self._leases])
        swept = int(self._sweep(keys=[self._leases, self._queue_key], args=[self._kind, SWEEP_BATCH]))
        if swept:
            self._outcomes.count(Stat.PARKED_SWEPT, by=swept)
            logger.info(
                "Moved %(count)d requests parked by a process that stopped renewing its lease back to the queue",
                {"count": swept},
                extra={"spider": self._crawler.spider},
            )

    def _key(self, origin: str) -> str:
        return f"{self._leases}:{origin}"
