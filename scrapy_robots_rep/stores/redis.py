"""``RedisStore``: records shared through Redis, so that a fleet of Scrapy processes fetches each robots.txt once.

Enable it with ``REP_CACHE_BACKEND = "scrapy_robots_rep.RedisStore"``. This module is imported
only then, and it needs the ``redis`` client: ``pip install redis``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import logging
import os
import socket
import time
import uuid
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

try:
    from redis import Redis as SyncRedis
    from redis.asyncio import BlockingConnectionPool, ConnectionPool, Redis
    from redis.asyncio.client import PubSub
    from redis.asyncio.cluster import RedisCluster
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff
    from redis.cluster import RedisCluster as SyncRedisCluster
    from redis.exceptions import AskError, MovedError, RedisClusterException, RedisError
except ImportError:
    raise ImportError("scrapy_robots_rep.RedisStore needs the redis client: pip install redis") from None

from scrapy_robots_rep.policy.settings import SettingsError, rep_settings
from scrapy_robots_rep.stores import compact, redis_scripts
from scrapy_robots_rep.stores.base import Scope, SharedStore, StatsCollector, wait_event

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

CLOSE_WAIT = 10.0
"""Seconds ``close`` waits at most for Redis to take the records made while it was away."""

MAX_CONNECTIONS = 32
"""Connections per process (on a cluster, per node); a call waits for a free one (a burst of
origins is no outage)."""

CLOCK_TOLERANCE = 1.0
"""Seconds by which the clocks of a record's writer and reader may differ (as Redis's clock sees
them) before the reader moves the record's times onto its own clock; within it a record reads
exactly as it was stored."""

IGNORED_PARAMS = ("decode_responses", "redis_cls", "connection_pool")
"""Client options of ``REP_REDIS_PARAMS``/``REDIS_PARAMS`` the store does not take: records are
bytes, and scrapy-redis's ``redis_cls`` names its own client class."""


class RedisStore(SharedStore):
    """Per-origin robots.txt records shared by a fleet through Redis (``docs/stores.md``).

    Settings:

    - ``REP_REDIS_URL``: the Redis server; by default scrapy-redis's ``REDIS_URL``, else
      ``redis://localhost:6379/0``.
    - ``REP_REDIS_PARAMS``: options of the redis-py client (TLS certificates, username,
      password...); by default scrapy-redis's ``REDIS_PARAMS``.
    - ``REP_REDIS_PREFIX`` (default ``"rep:"``): prefix of every key and channel, to share
      one Redis between fleets or with scrapy-redis.
    - ``REP_REDIS_LOCK_TIMEOUT`` (default 10 s): lifetime of an origin's fetch lock, and the
      lease of the requests a process parked in Redis. The holder renews both every third
      of it, so what a killed process held is taken over within this time.
    - ``REP_REDIS_TIMEOUT`` (default 1 s): connect and command timeout. A slower Redis
      counts as unavailable.

    Besides records, the store paces the fleet's downloads of origins with a Crawl-delay
    (:meth:`reserve_slot`, :meth:`free_slot`).

    The records it is given and returns have their times on ``clock`` (``time.time``, this
    process's clock); between processes Redis's clock decides which record is newer and whether
    one is fresh, so the fleet's machines need not agree on the time.

    When Redis fails or is slow, each method answers as if this process were alone (no
    record, fetch it yourself, storing does nothing), one warning is logged per outage,
    and Redis is tried again every second; records stored meanwhile are written when it
    answers again, and at close (for at most ``CLOSE_WAIT`` seconds).
    """

    stats_prefix = "rep/redis/"
    shares_slots = True

    def __init__(
        self,
        client: Redis | RedisCluster,
        *,
        scope: Scope,
        stats: StatsCollector,
        prefix: str,
        lock_timeout: float,
        keep_after_expiry: float,
        where: str = "",
        clock: Callable[[], float] = time.time,
        cluster_client: Callable[[], RedisCluster] | None = None,
    ) -> None:
        super().__init__(scope=scope, stats=stats)
        self._prefix = prefix
        self._lock_ms = max(1, round(lock_timeout * 1000))
        self._keep_after_expiry = keep_after_expiry
        self._channel = f"{prefix}stored"
        self._token = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:12]}"
        self.where = where
        """Which Redis, and from which setting, for the start-up line."""
        self._clock = clock
        self._use(client)
        self._cluster_client = cluster_client
        """Makes the cluster client when the server did not answer at start (a ``MOVED`` reply then
        says that it is a cluster node); ``None`` once the kind of server is known."""
        self._renewals: dict[str, asyncio.Task[None]] = {}
        self._waiters: dict[str, set[asyncio.Event]] = {}
        self._listener: asyncio.Task[None] | None = None
        self._listen_attempts = 0
        self._in_flight = asyncio.Semaphore(MAX_CONNECTIONS)
        self._cluster_lock = asyncio.Lock()
        self._retired: Redis | None = None
        """The standalone client a cluster client replaced (the listener may still use it), closed at close."""
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
        source = settings.source("redis_url")
        options: dict[str, Any] = {
            "max_connections": MAX_CONNECTIONS,
            "socket_timeout": timeout,
            "socket_connect_timeout": timeout,
            "retry": Retry(NoBackoff(), 1),
        }
        options.update(settings.redis_params)
        for ours in IGNORED_PARAMS:
            options.pop(ours, None)
        shown = _without_password(url)
        setting = source or "REP_REDIS_URL"
        try:
            pool = BlockingConnectionPool.from_url(url, **{"timeout": None, **options})
        except ValueError as error:
            reason = str(error).replace(url, shown)
            raise SettingsError(f"{setting} is not a Redis URL ({reason}): {shown!r}") from None
        untaken = _untaken_options((type(pool), pool.connection_class), settings.redis_params)
        if untaken:
            raise SettingsError(_untaken_message(settings.source("redis_params") or "REDIS_PARAMS", untaken, setting))
        cluster = _check_server(url, options, f"{setting} {shown}")
        cluster_client = functools.partial(_cluster_client, url, options, f"{setting} {shown}")
        return cls(
            cluster_client() if cluster else Redis(connection_pool=pool),
            scope=Scope.of(settings),
            stats=crawler.stats,
            prefix=settings.redis_prefix,
            lock_timeout=settings.redis_lock_timeout,
            keep_after_expiry=settings.unreachable_max_age,
            where=f"{shown} ({'a Redis Cluster, ' if cluster else ''}from {source or 'the default'})",
            cluster_client=cluster_client if cluster is None else None,
        )

    @property
    def description(self) -> str:
        return f"RedisStore at {self.where}" if self.where else "RedisStore"

    async def load(self, origin: str) -> CacheRecord | None:
        """The record Redis holds for ``origin``, fresh or not, its times on this process's clock;
        ``None`` if none or unavailable."""
        nothing: tuple[CacheRecord | None, bool] = (None, False)
        record, _ = await self._guarded(lambda: self._read(origin), nothing)
        self.count("hits" if record else "misses")
        return record

    async def store(self, origin: str, record: CacheRecord) -> None:
        """Share ``record`` and wake the processes waiting for it (kept for later if Redis is down)."""
        written = await self._guarded(lambda: self._write(origin, record), None)
        if written is not None:
            self.count("stores" if written else "refused")
            return
        self._unsynced[origin] = record
        self._unsynced.move_to_end(origin)
        while len(self._unsynced) > MAX_UNSYNCED:
            self._unsynced.popitem(last=False)
        self._start_resync()

    async def acquire_fetch(self, origin: str) -> bool:
        """Take ``origin``'s fetch lock; ``False`` if another process holds it.

        Also ``False`` when a fresh record landed since the caller's :meth:`load`:
        :meth:`wait_for_record` then returns it at once. ``True`` when Redis is
        unavailable: this process then fetches by itself.
        """
        key = self._lock_key(origin)
        keys = [key, self._record_key(origin)]
        taken = await self._guarded(lambda: self._acquire_script(keys=keys, args=[self._token, self._lock_ms]), None)
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
                record, locked = await self._guarded(lambda: self._read(origin), nothing)
                if record is not None and record.is_fresh(self._clock()):
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

    async def reserve_slot(self, origin: str, token: str, lease: float) -> float | None:
        """Seconds until ``origin``'s next download slot, on Redis's clock; 0 when it is ``token``'s now.

        A slot taken is held until :meth:`free_slot` (at most ``lease`` seconds). ``None`` when
        Redis is unavailable: the process then keeps the delay alone.
        """
        key = self._pace_key(origin)
        lease_ms = max(1, round(lease * 1000))
        wait = await self._guarded(lambda: self._reserve_script(keys=[key], args=[token, lease_ms]), None)
        return None if wait is None else int(wait) / 1000

    async def free_slot(self, origin: str, token: str, delay: float) -> None:
        """``token``'s download left the downloader: ``origin``'s next slot is ``delay`` seconds from now."""
        key = self._pace_key(origin)
        delay_ms = max(0, round(delay * 1000))
        await self._guarded(lambda: self._free_script(keys=[key], args=[token, delay_ms]), 0)

    async def close(self) -> None:
        """Write what Redis missed (bounded wait), release the locks this process holds, disconnect."""
        self._closing = True
        if self._resync is not None:
            self._resync.cancel()
        if self._unsynced:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._write_unsynced(retry=True), CLOSE_WAIT)
            if self._unsynced:
                logger.warning(
                    "%d robots.txt records obtained while Redis (REP_CACHE_BACKEND) was away could not "
                    "be written before close (waited up to %gs)",
                    len(self._unsynced),
                    CLOSE_WAIT,
                )
        for origin in list(self._renewals):
            await self.release_fetch(origin)
        tasks = {task for task in (self._listener, self._resync) if task is not None and not task.done()}
        for task in tasks:
            task.cancel()
        if tasks:
            # redis-py may absorb a cancellation in a pub/sub read; the loops also stop on _closing.
            await asyncio.wait(tasks, timeout=POLL_INTERVAL + 1)
        await self._client.aclose()
        if self._retired is not None:
            await self._retired.aclose()

    def unpack(self, data: str | bytes) -> str | bytes:
        """Records are kept packed (``stores/compact.py``)."""
        return compact.unpack(data) if isinstance(data, bytes) else data

    def _use(self, client: Redis | RedisCluster) -> None:
        """Talk to Redis through ``client`` (its own copies of the scripts)."""
        self._client = client
        self._cluster = client if isinstance(client, RedisCluster) else None
        self._cluster_known = False
        self._store_script = client.register_script(redis_scripts.STORE)
        self._read_script = client.register_script(redis_scripts.READ)
        self._acquire_script = client.register_script(redis_scripts.ACQUIRE)
        self._release_script = client.register_script(redis_scripts.RELEASE)
        self._renew_script = client.register_script(redis_scripts.RENEW)
        self._reserve_script = client.register_script(redis_scripts.RESERVE_SLOT)
        self._free_script = client.register_script(redis_scripts.FREE_SLOT)

    def _record_key(self, origin: str) -> str:
        return f"{self._prefix}{{{self.key(origin)}}}"

    def _lock_key(self, origin: str) -> str:
        return f"{self._prefix}{{{self.key(origin)}}}:lock"

    def _pace_key(self, origin: str) -> str:
        return f"{self._prefix}{{{self.key(origin)}}}:pace"

    async def _write(self, origin: str, record: CacheRecord) -> bool:
        """Store ``record``; ``False`` when Redis kept a newer one instead.

        Redis is given durations on this process's clock (the record's age, the freshness it
        has left), which the script places on Redis's clock.
        """
        now = self._clock()
        fresh = record.expires_at - now
        args: list[str | int | bytes] = [
            round((now - record.fetched_at) * 1000),
            round(fresh * 1000),
            compact.pack(self.encode(record)),
            max(1, round((max(fresh, 0.0) + self._keep_after_expiry) * 1000)),
            self._channel,
            self.key(origin),
        ]
        return bool(await self._store_script(keys=[self._record_key(origin)], args=args))

    async def _read(self, origin: str) -> tuple[CacheRecord | None, bool]:
        """``origin``'s record, its times on this process's clock, and whether its fetch lock is held."""
        keys = [self._record_key(origin), self._lock_key(origin)]
        value, age_ms, locked = await self._read_script(keys=keys)
        if value is None:
            return None, bool(locked)
        record = self.decode(origin, value[redis_scripts.RECORD_HEADER.size :])
        if record is not None:
            shift = self._clock() - int(age_ms) / 1000 - record.fetched_at
            if abs(shift) > CLOCK_TOLERANCE:
                record = record.shifted(shift)
        return record, bool(locked)

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
            pubsub: PubSub | None = None
            try:
                pubsub = await self._subscriber()
                await pubsub.subscribe(self._channel)
                await self._dispatch(pubsub)
            except REDIS_ERRORS as error:
                self._note_failure(error)
                self._listen_attempts += 1
            finally:
                if pubsub is not None:
                    close: Callable[[], Awaitable[None]] = pubsub.aclose  # redis-py leaves it untyped
                    await close()
            if not self._closing:
                await asyncio.sleep(RETRY_INTERVAL)

    async def _subscriber(self) -> PubSub:
        """A pub/sub connection. On a cluster, to one node (a record's announcement, a classic
        ``PUBLISH``, reaches every node), the next one after each failure."""
        if self._cluster is None:
            return self._client.pubsub(ignore_subscribe_messages=True)
        await self._know_cluster()
        nodes = self._cluster.get_nodes()
        node = nodes[self._listen_attempts % len(nodes)]
        pool = ConnectionPool(connection_class=node.connection_class, **node.connection_kwargs)
        return PubSub(pool, ignore_subscribe_messages=True)

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
            async with self._in_flight:
                await self._know_cluster()
                result = await call()
        except REDIS_ERRORS as error:
            if isinstance(error, (MovedError, AskError)) and self._become_cluster():
                return await self._guarded(call, fallback)
            self._note_failure(error)
            return fallback
        self._note_success()
        return result

    def _become_cluster(self) -> bool:
        """The server, which did not answer at start, turned out a node of a Redis Cluster: use
        redis-py's cluster client from now on; ``False`` when there is none to use."""
        make, self._cluster_client = self._cluster_client, None
        standalone = self._client
        if make is None or not isinstance(standalone, Redis):
            return False
        try:
            self._use(make())
        except SettingsError as error:
            logger.error("%s", error)
            return False
        self.where = self.where.replace(" (from ", " (a Redis Cluster, from ", 1)
        logger.info("RedisStore at %s: a node of a Redis Cluster; following its redirections", self.where)
        self._retired = standalone
        return True

    async def _know_cluster(self) -> None:
        """On a cluster, learn its nodes and slots before the first command, and again after a
        failure, one call at a time: redis-py's client, learning them in each of a burst of
        commands at once, closes connections other commands are using."""
        if self._cluster is None or self._cluster_known:
            return
        async with self._cluster_lock:
            if not self._cluster_known:
                await self._cluster.initialize()
                self._cluster_known = True

    def _note_failure(self, error: BaseException) -> None:
        self.count("errors")
        self._cluster_known = False
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
        self._start_resync()

    def _start_resync(self) -> None:
        if self._unsynced and not self._closing and (self._resync is None or self._resync.done()):
            self._resync = asyncio.ensure_future(self._write_unsynced(retry=True))

    async def _write_unsynced(self, *, retry: bool) -> None:
        """Share the records stored while Redis was away (a newer one in Redis wins); with
        ``retry``, keep trying every ``RETRY_INTERVAL`` until all are written."""
        while self._unsynced:
            origin, record = next(iter(self._unsynced.items()))
            written = await self._guarded(functools.partial(self._write, origin, record), None)
            if written is not None:
                self._unsynced.pop(origin, None)
                self.count("resynced" if written else "refused")
                continue
            if not retry:
                return
            await asyncio.sleep(max(self._retry_at - time.monotonic(), 0.0) + 0.01)


REDIS_ERRORS = (OSError, RedisError, RedisClusterException)
"""What a failing or unreachable Redis raises (the cluster client's "cannot be connected" is no ``RedisError``)."""

SUPPORTED = {"redis": (6, 2), "valkey": (7, 2)}
"""The oldest server of each kind the fleet supports and is tested on (``docs/stores.md``); an older
one is refused at start."""


def unsupported_server(info: Mapping[str, object]) -> str | None:
    """Why the server whose ``INFO server`` is ``info`` cannot hold the fleet's keys; ``None`` when it can."""
    kind = "valkey" if info.get("server_name") == "valkey" or "valkey_version" in info else "redis"
    found = str(info.get(f"{kind}_version") or info.get("redis_version") or "")
    try:
        version = tuple(int(part) for part in found.split(".")[:2])
    except ValueError:
        version = ()
    needed = SUPPORTED[kind]
    if len(version) == 2 and version >= needed:
        return None
    name = "Valkey" if kind == "valkey" else "Redis"
    return f"runs {name} {found or '(no version in INFO)'}; RedisStore needs {name} {needed[0]}.{needed[1]} or later"


def _check_server(url: str, options: Mapping[str, object], where: str) -> bool | None:
    """One start-up look at the server: whether it is a node of a Redis Cluster (``INFO cluster``),
    ``None`` when it does not answer yet (the store waits for it as for any outage). An unsupported
    server (on a cluster: any node) is a start-up error."""
    plain = {key: value for key, value in options.items() if key not in ("max_connections", "timeout", "retry")}
    try:
        with SyncRedis.from_url(url, **plain) as client:
            infos = {"": client.info("server")}
            cluster = client.info("cluster").get("cluster_enabled") == 1
        if cluster:
            with SyncRedisCluster.from_url(url, **plain) as nodes:
                infos = nodes.info("server", target_nodes=SyncRedisCluster.ALL_NODES)
    except REDIS_ERRORS:
        return None
    for node, info in sorted(infos.items()):
        reason = unsupported_server(info)
        if reason is not None:
            which = f"cluster node {node} " if node else ""
            raise SettingsError(f"The Redis of REP_CACHE_BACKEND ({where}) {which}{reason}")
    return bool(cluster)


def _cluster_client(url: str, options: Mapping[str, object], where: str) -> RedisCluster:
    """redis-py's cluster client, starting from the node ``url`` names, with the store's options
    (``max_connections`` per node; the store also bounds the commands it has in flight)."""
    taken = inspect.signature(RedisCluster.__init__).parameters
    left_out = sorted(name for name in options if name not in taken)
    if left_out:
        logger.warning(
            "The Redis of REP_CACHE_BACKEND (%s) is a Redis Cluster, whose client does not take the option(s) %s: "
            "left out",
            where,
            ", ".join(left_out),
        )
    try:
        return RedisCluster.from_url(url, **{name: value for name, value in options.items() if name in taken})
    except RedisClusterException as error:
        raise SettingsError(f"The Redis of REP_CACHE_BACKEND ({where}) is a Redis Cluster node: {error}") from None


def _untaken_options(takers: tuple[type, ...], options: Mapping[str, object]) -> list[str]:
    """The ``options`` neither of ``takers`` (the pool and its connections) takes, each of which
    would fail every connection: each one's ``__init__`` keywords and those of the ``__init__`` it
    hands the rest on to."""
    taken = set(IGNORED_PARAMS)
    for taker in takers:
        for cls in taker.__mro__:
            init = vars(cls).get("__init__")
            if init is None:
                continue
            parameters = inspect.signature(init).parameters.values()
            taken.update(p.name for p in parameters if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))
            if not any(p.kind is p.VAR_KEYWORD for p in parameters):
                break
    return sorted(name for name in options if name not in taken)


def _untaken_message(params_setting: str, untaken: list[str], url_setting: str) -> str:
    """The start-up error for client options redis-py does not take (``ssl``: TLS is the URL's ``rediss://``)."""
    message = f"{params_setting} has option(s) redis-py's client does not take: {', '.join(untaken)}"
    if "ssl" in untaken:
        message += f" (TLS is asked for by the URL: name the server with a rediss:// URL in {url_setting})"
    return message


def _without_password(url: str) -> str:
    """``url`` as it may be logged: a password replaced by ``***``."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))
