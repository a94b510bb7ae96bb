"""``SlotDelays``: robots.txt ``Crawl-delay`` as a floor under the delay of Scrapy's downloader slots.

The one component that owns slot delays for this plugin (``docs/behaviour.md`` §7). A
delay never lowers what the user configured, and holds under everything that adjusts
slot delays afterwards: AutoThrottle sets a slot's delay in its ``response_downloaded``
handler, and the floor is put back right after it, before the slot sends its next request.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from scrapy import signals

from scrapy_robots_rep.crawl.outcomes import Outcomes
from scrapy_robots_rep.policy.stat_names import Stat

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.core.downloader import Downloader, Slot
    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)


class SlotDelays:
    """Keeps each downloader slot's delay at or above its origin's robots.txt delay (capped)."""

    def __init__(self, crawler: Crawler, outcomes: Outcomes, maximum: float) -> None:
        self._crawler = crawler
        self._outcomes = outcomes
        self._maximum = maximum
        self._floors: dict[str, float] = {}
        self.applied: dict[str, tuple[float, float]] = {}
        """Per origin, the delay robots.txt asked for and the one applied (capped)."""

    def apply(self, request: Request, origin: str, crawl_delay: float) -> None:
        """Make ``crawl_delay`` (capped at ``REP_CRAWL_DELAY_MAX``) the floor of ``request``'s slot."""
        delay = min(crawl_delay, self._maximum)
        downloader = self._downloader()
        key = downloader.get_slot_key(request)
        if self._floors.get(key, 0.0) < delay:
            if not self._floors:
                # From the first floor on, put floors back after each response; until then there is
                # none to hold, and a crawl without Crawl-delay pays no handler per response.
                # Extensions (AutoThrottle) connected theirs when the crawler was built, so this one
                # runs after theirs for the same response.
                self._crawler.signals.connect(self._on_response_downloaded, signals.response_downloaded)
            self._floors[key] = delay
            self._announce(origin, crawl_delay, delay)
            slot_settings = downloader.per_slot_settings.get(key, {})
            if slot_settings.get("delay", downloader.settings.getfloat("DOWNLOAD_DELAY")) < delay:
                # "jitter" is Scrapy's newer name for "randomize_delay"; a random factor
                # below 1 would undercut the floor.
                downloader.per_slot_settings[key] = {
                    **slot_settings,
                    "delay": delay,
                    "jitter": 0.0,
                    "randomize_delay": False,
                }
        self._hold(key, downloader.slots.get(key))

    def _on_response_downloaded(self, response: Response, request: Request, **kwargs: Any) -> None:
        key = request.meta.get("download_slot")
        if key is not None and key in self._floors:
            self._hold(key, self._downloader().slots.get(key))

    def _hold(self, key: str, slot: Slot | None) -> None:
        floor = self._floors[key]
        if slot is None or slot.delay >= floor:
            return
        slot.delay = floor
        if hasattr(slot, "jitter"):
            slot.jitter = 0.0
        else:
            slot.randomize_delay = False

    def _announce(self, origin: str, crawl_delay: float, delay: float) -> None:
        """Log and count a delay once per origin."""
        if origin in self.applied:
            return
        self.applied[origin] = (crawl_delay, delay)
        outcomes = self._outcomes
        outcomes.count(Stat.CRAWL_DELAY_APPLIED)
        if delay < crawl_delay:
            outcomes.count(Stat.CRAWL_DELAY_CAPPED)
            logger.info(
                "robots.txt of %(origin)s asks for a %(asked)gs delay; capped at REP_CRAWL_DELAY_MAX = %(delay)gs",
                {"origin": origin, "asked": crawl_delay, "delay": delay},
                extra={"spider": self._crawler.spider},
            )
        else:
            logger.info(
                "Crawl-delay of %(origin)s: %(delay)gs between requests",
                {"origin": origin, "delay": delay},
                extra={"spider": self._crawler.spider},
            )

    def _downloader(self) -> Downloader:
        engine = self._crawler.engine
        assert engine is not None
        return engine.downloader
