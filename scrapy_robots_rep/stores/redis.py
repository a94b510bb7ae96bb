"""``RedisStore``: records shared through Redis, so that a fleet of Scrapy processes fetches each robots.txt once.

Enable it with ``REP_CACHE_BACKEND = "scrapy_robots_rep.RedisStore"``. This module is imported
only then, and it needs the ``redis`` client: ``pip install redis``.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import socket
import time
import uuid
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

try:
    from redis.asyncio import Redis
    from redis.asyncio.client import PubSub
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff
    from redis.exceptions import RedisError
except ImportError:
    raise ImportError("scrapy_robots_rep.RedisStore needs the redis client: pip install redis") from None

from scrapy_robots_rep.crawl.outcomes import Outcomes
from scrapy_robots_rep.crawl.settings import rep_settings
from scrapy_robots_rep.policy.settings import SettingsError
from scrapy_robots_rep.stores.base import Scope, SharedStore, wait_event

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

    from scrapy_robots_rep.policy.record_cache import CacheRecord

logger = logging.getLogger(__name__)

_T = TypeVar("_T")

POLL_INTERVAL = 1.0
"""Seconds between a waiter's own checks, so that a lost notification cannot hang it."""

RETRY_INTERVAL = 1.0
"""Seconds during which Redis is left alone after a failure before it is tried again."""

MAX_UNSYNCED = 10_000
"""Records kept to write to Redis when it returns (the most recent ones; older are dropped)."""

# KEYS: record key. ARGV: fetched_at, expires_at, record JSON, key lifetime (ms), channel, store key.
# Keeps a newer record another process stored; tells waiters that a record landed.
_STORE_SCRIPT = """
local current = redis.call('HGET', KEYS[1], 'fetched_at')
if current and tonumber(current) > tonumber(ARGV[1]) then
    return 0
end
redis.call('HSET', KEYS[1], 'fetched_at', ARGV[1], 'expires_at', ARGV[2], 'record', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PUBLISH', ARGV[5], ARGV[6])
return 1
"""

# KEYS: lock key, record key. ARGV: token, lock lifetime (ms), now. Takes the lock unless it is
# held or a fresh record landed since the caller looked (then there is nothing to fetch).
_ACQUIRE_SCRIPT = """
local expires_at = redis.call('HGET', KEYS[2], 'expires_at')
if expires_at and tonumber(expires_at) > tonumber(ARGV[3]) then
    return 0
end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
    return 1
end
return 0
"""

# KEYS: lock key. ARGV: token. Deletes the lock only for its owner.
_RELEASE_SCRIPT = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('DEL', KEYS[1])
end
return 0
"""

# KEYS: lock key. ARGV: token, lock lifetime (ms). Extends the lock only for its owner.
_RENEW_SCRIPT = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""


class RedisStore(SharedStore):
    """Per-origin robots.txt records shared by a fleet through Redis.

    Settings:

    - ``REP_REDIS_URL`` (default ``redis://127.0.0.1:6379/0``): the Redis server.
    - ``REP_REDIS_PREFIX`` (default ``"rep:"``): prefix of every key and channel, to share
      one Redis between fleets or with scrapy-redis.
    - ``REP_REDIS_LOCK_TIMEOUT`` (default 10 s): lifetime of an origin's fetch lock. The
      fetching process renews it every third of that while it fetches, so a crashed
      fetcher frees the origin for another process within this time.
    - ``REP_REDIS_TIMEOUT`` (default 1 s): connect and command timeout. A slower Redis
      counts as unavailable.

    In Redis, the record of origin ``o`` in scope ``s`` (:attr:`Scope.key`, e.g.
    ``mybot/rfc9309/rfc9309``) is the hash ``<prefix>origin:<s>:<o>`` holding ``record`` (the
    JSON of ``CacheRecord.to_dict()``, never pickle), ``fetched_at`` (an older record never
    replaces a newer one) and ``expires_at`` (no lock is handed out while the record is
    fresh). The key lives until the record's ``expires_at`` plus ``REP_UNREACHABLE_MAX_AGE``
    (30 days), so the last good copy and the unreachable-since time outlive the record's
    freshness for stale-on-error and the 30-day rule. The fetch lock is
    ``<prefix>lock:<s>:<o>`` (its value names the holder: ``host:pid:random``); every store
    is announced on the channel ``<prefix>stored``.

    When Redis fails or is slow, each method answers as if this process were alone (no
    record, fetch it yourself, storing does nothing), one warning is logged per outage,
    and Redis is tried again after a second; records stored meanwhile are written when it
    returns.

    Crawl stats (``rep/redis/...``): ``hits`` and ``misses`` (loads, a miss also while Redis
    is away), ``stores``, ``lock/acquired``, ``lock/busy`` (another process fetches, or just
    did), ``wait/woken`` (a waiter got a record), ``wait/given_up`` (a wait ended without
    one), ``errors`` (failed Redis calls), ``outages`` (warnings logged), ``resynced``
    (records written back after an outage) and ``invalid_records`` (unreadable records,
    read as missing).
    """

    stats_prefix = "rep/redis/"

    def __init__(
        self,
        client: Redis,
        *,
        scope: Scope,
        outcomes: Outcomes,
        prefix: str,
        lock_timeout: float,
        keep_after_expiry: float,
    ) -> None:
        super().__init__(scope=scope, outcomes=outcomes)
        self._client = client
        self._prefix = prefix
        self._lock_ms = max(1, round(lock_timeout * 1000))
        self._keep_after_expiry = keep_after_expiry
        self._channel = f"{prefix}stored"
        self._token = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:12]}"
        self._store_script = client.register_script(_STORE_SCRIPT)
        self._acquire_script = client.register_script(_ACQUIRE_SCRIPT)
        self._release_script = client.register_script(_RELEASE_SCRIPT)
        self._renew_script = client.register_script(_RENEW_SCRIPT)
        self._renewals: dict[str, asyncio.Task[None]] = {}
        self._waiters: dict[str, set[asyncio.Event]] = {}
        self._listener: asyncio.Task[None] | None = None
        self._unsynced: OrderedDict[str, CacheRecord] = OrderedDict()
        self._resync: asyncio.Task[None] | None = None
        self._retry_at = 0.0
        self._failing = False
        self._closing = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RedisStore:
        """Build from the crawler's settings (``REP_REDIS_*``, the scope's, ``REP_UNREACHABLE_MAX_AGE``)."""
        settings = rep_settings(crawler.settings)
        url = settings.redis_url
        timeout = settings.redis_timeout
        try:
            client = Redis.from_url(
                url,
                socket_timeout=timeout,
                socket_connect_timeout=timeout,
                retry=Retry(NoBackoff(), 1),
            )
        except ValueError as error:
            raise SettingsError(f"REP_REDIS_URL is not a Redis URL ({error}): {url!r}") from None
        return cls(
            client,
            scope=Scope.of(settings),
            outcomes=Outcomes.of(crawler),
            prefix=settings.redis_prefix,
            lock_timeout=settings.redis_lock_timeout,
            keep_after_expiry=settings.unreachable_max_age,
        )

    async def load(self, origin: str) -> CacheRecord | None:
        """The record Redis holds for ``origin``, fresh or not; ``None`` if none or unavailable."""
        data = await self._guarded(lambda: self._client.hget(self._record_key(origin), "record"), None)
        record = self.decode(origin, data)
        self.count("hits" if record else "misses")
        return record

    async def store(self, origin: str, record: CacheRecord) -> None:
        """Share ``record`` and wake the processes waiting for it (kept for later if Redis is down)."""
        if await self._guarded(lambda: self._write(origin, record), False):
            self.count("stores")
            return
        self._unsynced[origin] = record
        self._unsynced.move_to_end(origin)
        while len(self._unsynced) > MAX_UNSYNCED:
            self._unsynced.popitem(last=False)

    async def acquire_fetch(self, origin: str) -> bool:
        """Take ``origin``'s fetch lock; ``False`` if another process holds it.

        Also ``False`` when a fresh record landed since the caller's :meth:`load`:
        :meth:`wait_for_record` then returns it at once. ``True`` when Redis is
        unavailable: this process then fetches by itself.
        """
        key = self._lock_key(origin)
        keys = [key, self._record_key(origin)]
        taken = await self._guarded(
            lambda: self._acquire_script(keys=keys, args=[self._token, self._lock_ms, repr(time.time())]), None
        )
        if taken is None:
            return True
        if not taken:
            self.count("lock/busy")
            return False
        self.count("lock/acquired")
        self._stop_renewal(origin)
        self._renewals[origin] = asyncio.ensure_future(self._renew(key))
        return True

    async def release_fetch(self, origin: str) -> None:
        """Release ``origin``'s fetch lock if this process holds it; waiters then look again."""
        self._stop_renewal(origin)
        key = self._lock_key(origin)
        await self._guarded(lambda: self._release_script(keys=[key], args=[self._token]), 0)

    async def wait_for_record(self, origin: str, timeout: float) -> CacheRecord | None:
        """Wait up to ``timeout`` seconds for a fresh record of ``origin``.

        Returns it as soon as one is stored (or already there), or ``None`` at the timeout,
        when nobody holds the fetch lock any more (the caller should try to take it), or
        when Redis is unavailable.
        """
        name = self.key(origin)
        landed = asyncio.Event()
        self._waiters.setdefault(name, set()).add(landed)
        self._start_listener()
        deadline = time.monotonic() + timeout
        try:
            while True:
                landed.clear()
                nothing: tuple[CacheRecord | None, bool] = (None, False)
                record, locked = await self._guarded(lambda: self._peek(origin), nothing)
                if record is not None and record.is_fresh(time.time()):
                    self.count("wait/woken")
                    return record
                remaining = deadline - time.monotonic()
                if not locked or remaining <= 0:
                    self.count("wait/given_up")
                    return None
                await wait_event(landed, min(POLL_INTERVAL, remaining))
        finally:
            waiting = self._waiters[name]
            waiting.discard(landed)
            if not waiting:
                del self._waiters[name]

    async def close(self) -> None:
        """Release the locks this process holds and close the connections."""
        self._closing = True
        for origin in list(self._renewals):
            await self.release_fetch(origin)
        tasks = {task for task in (self._listener, self._resync) if task is not None and not task.done()}
        for task in tasks:
            task.cancel()
        if tasks:
            # redis-py may absorb a cancellation in a pub/sub read; the loops also stop on _closing.
            await asyncio.wait(tasks, timeout=POLL_INTERVAL + 1)
        await self._client.aclose()

    def _record_key(self, origin: str) -> str:
        return f"{self._prefix}origin:{self.key(origin)}"

    def _lock_key(self, origin: str) -> str:
        return f"{self._prefix}lock:{self.key(origin)}"

    async def _write(self, origin: str, record: CacheRecord) -> bool:
        lifetime = max(record.expires_at - time.time(), 0.0) + self._keep_after_expiry
        args: list[str | int] = [
            repr(record.fetched_at),
            repr(record.expires_at),
            self.encode(record),
            max(1, round(lifetime * 1000)),
            self._channel,
            self.key(origin),
        ]
        await self._store_script(keys=[self._record_key(origin)], args=args)
        return True

    async def _peek(self, origin: str) -> tuple[CacheRecord | None, bool]:
        async with self._client.pipeline(transaction=False) as pipe:
            pipe.hget(self._record_key(origin), "record")
            pipe.exists(self._lock_key(origin))
            data, locked = await pipe.execute()
        return self.decode(origin, data), bool(locked)

    async def _renew(self, key: str) -> None:
        """Keep the lock alive while this process fetches; stops once it is no longer ours."""
        while True:
            await asyncio.sleep(self._lock_ms / 3000)
            if not await self._guarded(lambda: self._renew_script(keys=[key], args=[self._token, self._lock_ms]), 1):
                return

    def _stop_renewal(self, origin: str) -> None:
        task = self._renewals.pop(origin, None)
        if task is not None:
            task.cancel()

    def _start_listener(self) -> None:
        if self._listener is None or self._listener.done():
            self._listener = asyncio.ensure_future(self._listen())

    async def _listen(self) -> None:
        """Wake this process's waiters when any process announces a stored record."""
        while not self._closing:
            pubsub = self._client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self._channel)
                await self._dispatch(pubsub)
            except (OSError, RedisError) as error:
                self._note_failure(error)
            finally:
                close: Callable[[], Awaitable[None]] = pubsub.aclose  # redis-py leaves it untyped
                await close()
            if not self._closing:
                await asyncio.sleep(RETRY_INTERVAL)

    async def _dispatch(self, pubsub: PubSub) -> None:
        while not self._closing:
            message = await pubsub.get_message(timeout=POLL_INTERVAL)
            if message is None:
                continue
            name = message["data"].decode()
            for landed in self._waiters.get(name, ()):
                landed.set()

    async def _guarded(self, call: Callable[[], Awaitable[_T]], fallback: _T) -> _T:
        """Run one Redis call; on failure, or while Redis is being left alone, ``fallback``."""
        if self._failing and time.monotonic() < self._retry_at:
            return fallback
        try:
            result = await call()
        except (OSError, RedisError) as error:
            self._note_failure(error)
            return fallback
        self._note_success()
        return result

    def _note_failure(self, error: BaseException) -> None:
        self.count("errors")
        self._retry_at = time.monotonic() + RETRY_INTERVAL
        if self._failing:
            return
        self._failing = True
        self.count("outages")
        logger.warning(
            "Redis (REP_CACHE_BACKEND) is unavailable (%s). Until it returns, this process "
            "keeps its own robots.txt cache, so other processes may fetch the same robots.txt.",
            str(error).rstrip(".") or type(error).__name__,
        )

    def _note_success(self) -> None:
        if not self._failing:
            return
        self._failing = False
        logger.info("Redis (REP_CACHE_BACKEND) is available again; sharing robots.txt records again.")
        if self._unsynced and (self._resync is None or self._resync.done()):
            self._resync = asyncio.ensure_future(self._write_unsynced())

    async def _write_unsynced(self) -> None:
        """Share the records stored while Redis was away (a newer one in Redis wins)."""
        while self._unsynced and not self._failing:
            origin, record = self._unsynced.popitem(last=False)
            if not await self._guarded(functools.partial(self._write, origin, record), False):
                self._unsynced[origin] = record
                return
            self.count("resynced")
