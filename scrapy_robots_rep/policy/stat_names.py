"""The one table of crawl stats the package writes: each name, and the line ``docs/operating.md`` shows.

A name with a ``<part>`` is a family (``rep/robots/status/<code>``): :meth:`Stat.key` fills the
part. ``Outcomes.count`` takes a :class:`Stat`, never a free string, so a stat is added here (and
in the stats table of ``docs/operating.md``: a test keeps them equal) or not at all. Scrapy's own
``robotstxt/*`` keys that the package keeps writing are rows too.
"""

from __future__ import annotations

from enum import Enum


class Stat(Enum):
    """A crawl stat (or family of stats): its name, and what it counts."""

    REQUESTS_ALLOWED = ("rep/requests/allowed", "requests let through")
    REQUESTS_DISALLOWED = ("rep/requests/disallowed", "requests refused by a rule (or by `REP_PURPOSES`, below)")
    REQUESTS_REFUSED_PURPOSES = (
        "rep/requests/refused_purposes",
        "of those, requests refused because robots.txt (`Content-Signal`, and `Content-Usage` for the URL's "
        "path) refuses every purpose in `REP_PURPOSES`",
    )
    REQUESTS_DROPPED_UNREACHABLE = (
        "rep/requests/dropped_unreachable",
        "requests dropped because their origin's robots.txt stayed unreachable",
    )
    REQUESTS_DEFERRED = ("rep/requests/deferred", "times a request waited for its origin's robots.txt")
    REQUESTS_STILL_DEFERRED = (
        "rep/requests/still_deferred",
        "requests still waiting when the spider closed (set at close, only when some waited)",
    )
    ROBOTS_FETCHES = ("rep/robots/fetches", "robots.txt fetches started (first fetches, retries, refreshes)")
    ROBOTS_STATUS = ("rep/robots/status/<code>", "robots.txt answers by HTTP status, redirect hops included")
    ROBOTS_ERROR = (
        "rep/robots/error/<exception>",
        "robots.txt requests that failed without an answer, by exception class name",
    )
    ROBOTS_OUTCOME = (
        "rep/robots/outcome/<outcome>",
        "what fetches came to: `rules`, `allow_all`, `disallow_all`, `unreachable`, `deferred`",
    )
    ROBOTS_CHANGED = (
        "rep/robots/changed",
        "refreshes that gave the agent different rules, delay or `Content-Signal` "
        "([evidence.md](evidence.md#change-detection))",
    )
    ROBOTS_LIFETIME = (
        "rep/robots/lifetime/<source>",
        "where a fetched record's lifetime came from: `max-age`, `expires`, `no-cache`, `default`",
    )
    ROBOTS_REVALIDATED = (
        "rep/robots/revalidated/<answer>",
        "conditional refreshes answered 304 (`not_modified`), or with a new file (`modified`)",
    )
    CACHE_HITS = ("rep/cache/hits", "requests decided from rules held in memory")
    CACHE_MISSES = ("rep/cache/misses", "times an origin's rules had to be obtained")
    CACHE_SHARED_HITS = ("rep/cache/shared_hits", "rules taken from the shared store (`REP_CACHE_BACKEND`)")
    CACHE_EVICTIONS = (
        "rep/cache/evictions",
        "origins evicted from the in-memory cache (`REP_CACHE_MAX_ORIGINS`)",
    )
    CRAWL_DELAY_APPLIED = ("rep/crawl_delay/applied", "origins given a `Crawl-delay`")
    CRAWL_DELAY_CAPPED = ("rep/crawl_delay/capped", "origins whose delay was capped (`REP_CRAWL_DELAY_MAX`)")
    CRAWL_DELAY_FLEET_SLOTS = (
        "rep/crawl_delay/fleet_slots",
        "download slots taken in Redis by fleet pacing ([stores.md](stores.md))",
    )
    CRAWL_DELAY_FLEET_WAITS = (
        "rep/crawl_delay/fleet_waits",
        "waits for another worker's download slot ([stores.md](stores.md))",
    )
    CRAWL_DELAY_FLEET_SLOTS_GIVEN_UP = (
        "rep/crawl_delay/fleet_slots_given_up",
        "fleet download slots given up at their lease: the request never came back to this worker "
        "([stores.md](stores.md))",
    )
    PARKED_SWEPT = (
        "rep/parked/swept",
        "requests a dead worker left parked in Redis, moved back to the queue ([stores.md](stores.md))",
    )
    STORE = (
        "<stats_prefix><counter>",
        "the shared store's own counters (hits, misses, stores, locks, waits, errors) under its prefix: "
        "`rep/redis/`, `rep/memory_store/`, `rep/store/` ([stores.md](stores.md))",
    )
    PAGE_DIRECTIVE = (
        "rep/page/directive/<directive>",
        "responses carrying a page-level restriction ([page-directives.md](page-directives.md))",
    )
    PAGE_REQUESTS_DROPPED = (
        "rep/page/requests_dropped/<reason>",
        "requests a page yielded, dropped for its directives ([page-directives.md](page-directives.md))",
    )
    PAGE_ITEMS_DROPPED = (
        "rep/page/items_dropped/<reason>",
        "items a page yielded, dropped for its directives ([page-directives.md](page-directives.md))",
    )
    SCRAPY_FORBIDDEN = ("robotstxt/forbidden", "Scrapy's key, kept: the same count as `rep/requests/disallowed`")
    SCRAPY_REQUEST_COUNT = (
        "robotstxt/request_count",
        "Scrapy's key, kept: robots.txt requests, redirect hops included",
    )
    SCRAPY_RESPONSE_COUNT = (
        "robotstxt/response_count",
        "Scrapy's key, kept: robots.txt answers, redirect hops included",
    )
    SCRAPY_RESPONSE_STATUS = (
        "robotstxt/response_status_count/<code>",
        "Scrapy's key, kept: the same count as `rep/robots/status/<code>`",
    )

    def __init__(self, pattern: str, doc: str) -> None:
        self.pattern = pattern
        self.doc = doc
        start = pattern.find("<")
        self._prefix = pattern[:start] if start >= 0 else None

    def key(self, part: object = None) -> str:
        """The stat's name; for a family (a ``<part>`` in its pattern) with ``part`` in its place."""
        if part is None and self._prefix is None:
            return self.pattern
        if part is not None and self._prefix is not None:
            return self._prefix + str(part)
        raise ValueError(f"{self.pattern} takes {'no part' if self._prefix is None else 'a part'}, got {part!r}")
