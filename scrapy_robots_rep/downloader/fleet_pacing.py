"""``FleetPacing``: robots.txt ``Crawl-delay`` held across a fleet, not only per process.

Each process keeps a Crawl-delay in its own downloader slot (``SlotDelays``). With a store
that shares download slots (``RedisStore``), a request to an origin with a delay first takes
that origin's slot in the store, on the store's clock, and waits until the slot is its turn;
the slot is held while the request is downloaded and the next one starts a delay after the
download left the downloader. So two requests to the origin, from any two processes, are
never closer than the delay (``docs/stores.md``). Origins without a delay never come here.

Within a process the origin's requests take turns for the slot, so only one of them talks to
the store at a time. While the store cannot tell (Redis away), each process keeps the delay
alone, with one warning.

A request that holds the slot but never reaches this process's downloader (a later middleware
answered it, dropped it, or returned another request in its place, which may be crawled by
another process of the fleet) frees it at once, with no delay since nothing was sent; one whose
end this process never sees gives it up when its lease ends, so no origin waits forever and
closing waits on none.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import socket
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scrapy import signals

from scrapy_robots_rep.crawl.meta_keys import FLEET_SLOT
from scrapy_robots_rep.crawl.outcomes import Outcomes
from scrapy_robots_rep.policy.stat_names import Stat

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler

    from scrapy_robots_rep.stores import SharedStore

logger = logging.getLogger(__name__)

PACED = FLEET_SLOT

LEASE_MARGIN = 5.0
"""Seconds a slot is held beyond the download timeout and the delay, in case its process dies."""


@dataclass(slots=True)
class _Held:
    origin: str
    delay: float
    turn: asyncio.Lock
    expiry: asyncio.TimerHandle


class FleetPacing:
    """Takes an origin's fleet-wide download slot before its request is downloaded; frees it after."""

    def __init__(self, crawler: Crawler, outcomes: Outcomes, store: SharedStore) -> None:
        self._crawler = crawler
        self._outcomes = outcomes
        self._store = store
        self._name = f"{socket.gethostname()}:{os.getpid()}"
        self._tokens = itertools.count(1)
        self._turns: dict[str, asyncio.Lock] = {}
        self._held: dict[str, _Held] = {}
        self._freeing: set[asyncio.Future[None]] = set()
        self._not_before: dict[str, float] = {}
        """Per origin, when this process freed its slot plus the delay (asking the store sooner is wasted)."""
        self._timeout = crawler.settings.getfloat("DOWNLOAD_TIMEOUT")
        self._warned = False
        crawler.signals.connect(self._on_request_left, signals.request_left_downloader)

    async def wait(self, request: Request, origin: str, delay: float) -> None:
        """Wait until ``origin``'s slot is ``request``'s, and hold it until the download ends."""
        turn = self._turns.setdefault(origin, asyncio.Lock())
        await turn.acquire()
        token = f"{self._name}:{next(self._tokens)}"
        lease = float(request.meta.get("download_timeout", self._timeout)) + delay + LEASE_MARGIN
        outcomes = self._outcomes
        try:
            pause = self._not_before.pop(origin, 0.0) - asyncio.get_running_loop().time()
            if pause > 0:
                await asyncio.sleep(pause)
            while True:
                wait = await self._store.reserve_slot(origin, token, lease)
                if wait is None:
                    self._warn_once(origin)
                    turn.release()
                    return
                if wait <= 0:
                    break
                outcomes.count(Stat.CRAWL_DELAY_FLEET_WAITS)
                await asyncio.sleep(min(wait, delay))
        except BaseException:
            turn.release()
            raise
        outcomes.count(Stat.CRAWL_DELAY_FLEET_SLOTS)
        request.meta[PACED] = token
        expiry = asyncio.get_running_loop().call_later(lease, self._give_up, token)
        self._held[token] = _Held(origin, delay, turn, expiry)

    def done(self, request: Request) -> None:
        """``request`` (or a copy of it) ended without reaching this process's downloader: a later
        middleware answered it, dropped it, or returned another request in its place (the copy
        comes back here or goes to the scheduler): free its slot, with no delay (nothing was sent)."""
        self._free(request, downloaded=False)

    async def close(self) -> None:
        """At close: stop holding every slot (the store's leases end by themselves), and let the
        slots being freed reach the store before it closes (each is bounded by its timeout)."""
        for token in list(self._held):
            self._give_up(token)
        if self._freeing:
            await asyncio.wait(set(self._freeing))

    def _on_request_left(self, request: Request, **kwargs: Any) -> None:
        self._free(request, downloaded=True)

    def _free(self, request: Request, downloaded: bool) -> None:
        token = request.meta.pop(PACED, None)
        held = self._held.pop(token, None) if token is not None else None
        if held is not None:
            held.expiry.cancel()
            freeing = asyncio.ensure_future(self._free_slot(token, held, held.delay if downloaded else 0.0))
            self._freeing.add(freeing)
            freeing.add_done_callback(self._freeing.discard)

    async def _free_slot(self, token: str, held: _Held, delay: float) -> None:
        try:
            await self._store.free_slot(held.origin, token, delay)
            self._not_before[held.origin] = asyncio.get_running_loop().time() + delay
        finally:
            held.turn.release()

    def _give_up(self, token: str) -> None:
        """The slot's lease ended and its request never came back (or the spider closes): the
        origin's next request here may ask the store again, which frees the slot at the same time."""
        held = self._held.pop(token, None)
        if held is None:
            return
        held.expiry.cancel()
        self._outcomes.count(Stat.CRAWL_DELAY_FLEET_SLOTS_GIVEN_UP)
        held.turn.release()

    def _warn_once(self, origin: str) -> None:
        if self._warned:
            return
        self._warned = True
        logger.warning(
            "The shared store cannot pace downloads now (Redis away): each process keeps the Crawl-delay "
            "of %(origin)s and other origins alone, so the fleet may send up to as many requests per delay "
            "as it has processes until it returns",
            {"origin": origin},
            extra={"spider": self._crawler.spider},
        )
