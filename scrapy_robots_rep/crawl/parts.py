"""``CrawlParts``: what the components of one crawler share, made together, once.

Both middlewares, the shared store and the HTTP-cache policy are built by Scrapy, each from the
crawler. What they must share (the validated settings, the one :class:`Outcomes` and the
:class:`Evidence` that is one of its sinks) is made here in one go on the first component's
``from_crawler``, with nothing added later: each component's ``from_crawler`` takes the parts it
needs from :meth:`CrawlParts.of` and hands them to its constructor.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple
from weakref import WeakKeyDictionary

from scrapy_robots_rep.crawl.outcomes import Outcomes
from scrapy_robots_rep.crawl.settings import rep_settings

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

    from scrapy_robots_rep.crawl.evidence import Evidence
    from scrapy_robots_rep.policy.settings import RepSettings

_MADE: WeakKeyDictionary[Crawler, CrawlParts] = WeakKeyDictionary()


class CrawlParts(NamedTuple):
    """One crawler's settings, outcome owner and evidence (``None`` unless the audit settings ask);
    one per crawler, kept by :meth:`of`."""

    settings: RepSettings
    outcomes: Outcomes
    evidence: Evidence | None

    @classmethod
    def of(cls, crawler: Crawler) -> CrawlParts:
        """The crawler's parts, made on the first call with every sink in place."""
        parts = _MADE.get(crawler)
        if parts is None:
            settings = rep_settings(crawler.settings)
            evidence = None
            if settings.keeps_evidence:  # imported only then: a crawl without them never loads the audit trail
                from scrapy_robots_rep.crawl.evidence import Evidence

                evidence = Evidence(crawler, settings)
            outcomes = Outcomes.from_crawler(crawler, *([evidence] if evidence is not None else []))
            parts = _MADE[crawler] = cls(settings, outcomes, evidence)
        return parts
