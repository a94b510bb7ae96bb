"""Requests in the downloader that must not take the download capacity pages need.

Scrapy stops feeding the downloader once ``CONCURRENT_REQUESTS`` requests are in it. A
robots.txt fetch, and a request that bypassed the scheduler and waits for its origin's
robots.txt, are in it too; while they are, the limit is raised by one each, so that
hanging or unreachable origins never hold back the others (``docs/behaviour.md`` §5).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scrapy.crawler import Crawler


@contextmanager
def beside_pages(crawler: Crawler) -> Iterator[None]:
    """While inside, one request in the downloader does not count against ``CONCURRENT_REQUESTS``."""
    engine = crawler.engine
    assert engine is not None
    downloader = engine.downloader
    extra = 1 if downloader.total_concurrency > 0 else 0  # 0 means no limit
    downloader.total_concurrency += extra
    try:
        yield
    finally:
        downloader.total_concurrency -= extra
