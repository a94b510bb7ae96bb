"""Many origins through a small cache (issue 6): memory stays bounded, every origin decided right.

The issue asks for 10,000 origins through ``REP_CACHE_MAX_ORIGINS=1000``; the suite runs the
same ratio at a scale that fits its time budget (``ORIGINS`` below). Every origin is a distinct
host name under ``.test`` resolved to one loopback site, which answers by ``Host`` header.
Each origin is visited twice, all origins in between, so its rules are evicted and fetched again.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import pytest_twisted
from twisted.internet import defer

from scrapy_robots_rep.downloader.fetcher import FETCHES_PER_CONCURRENT_REQUEST
from tests.crawling import CrawlResult, crawl
from tests.hardening.memory import peak_mb, reset_peak
from tests.sites import PAGE, Hit, Reply, Site, Sites, loopback_test_names

ORIGINS = 1000
CACHE_MAX_ORIGINS = ORIGINS // 10
CONCURRENCY = 32
CLOSE = {"Connection": "close"}


def origin_number(hit: Hit) -> int:
    return int(hit.headers["Host"].split(".", 1)[0][1:])


class RobotsServer:
    """Answers every origin's robots.txt (even origins disallow ``/a``, odd ones ``/b``) and
    measures how many robots.txt requests it was answering at once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._answering = 0
        self.most_at_once = 0

    def reply(self, hit: Hit) -> Reply:
        with self._lock:
            self._answering += 1
            self.most_at_once = max(self.most_at_once, self._answering)
        path = "/a" if origin_number(hit) % 2 == 0 else "/b"
        body = f"User-agent: *\nDisallow: {path}\n".encode()
        return Reply(body=lambda: self._answered(body), headers={"Content-Type": "text/plain", **CLOSE}, delay=0.05)

    def _answered(self, body: bytes) -> Iterator[bytes]:
        try:
            yield body
        finally:
            with self._lock:
                self._answering -= 1


def page(hit: Hit) -> Reply:
    return Reply(body=PAGE, headers={"Content-Type": "text/html", **CLOSE})


@dataclass
class ManyOrigins:
    site: Site
    robots: RobotsServer
    result: CrawlResult
    peak_growth_mb: float

    def robots_fetches(self) -> Counter[int]:
        return Counter(origin_number(hit) for hit in self.site.hits("/robots.txt"))


@pytest.fixture(scope="module")
def many_origins() -> Iterator[ManyOrigins]:
    """One crawl: every origin's ``/a``, then (once all have ended) every origin's ``/b``."""
    robots = RobotsServer()
    with Sites() as sites:
        site = sites.start({"/robots.txt": robots.reply, "/a": page, "/b": page}, host="127.0.0.1")
        hosts = [f"http://o{number}.test:{site.port}" for number in range(ORIGINS)]
        before = reset_peak()
        with loopback_test_names():
            result = pytest_twisted.blockon(
                defer.ensureDeferred(
                    crawl(
                        [host + "/a" for host in hosts],
                        [host + "/b" for host in hosts],
                        settings={
                            "REP_CACHE_MAX_ORIGINS": CACHE_MAX_ORIGINS,
                            "CONCURRENT_REQUESTS": CONCURRENCY,
                            "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
                            "DOWNLOAD_TIMEOUT": 10,
                            "RETRY_ENABLED": False,
                            "LOG_LEVEL": "INFO",
                        },
                        lean=True,
                    )
                )
            )
        crawled = ManyOrigins(site, robots, result, peak_mb() - before)
        print(
            f"\n{ORIGINS} origins, cache of {CACHE_MAX_ORIGINS}: {2 * ORIGINS} requests in {result.seconds:.1f} s, "
            f"{sum(crawled.robots_fetches().values())} robots.txt requests seen by the server "
            f"({result.stat('rep/robots/fetches')} fetches made), "
            f"{result.stat('rep/cache/evictions')} evictions, peak RSS growth {crawled.peak_growth_mb:.1f} MB, "
            f"at most {robots.most_at_once} robots.txt requests at once"
        )
        yield crawled


def test_every_origin_is_decided_by_its_own_rules(many_origins: ManyOrigins) -> None:
    result = many_origins.result
    pages = Counter((origin_number(hit), hit.path) for hit in many_origins.site.hits() if hit.path != "/robots.txt")
    assert pages == Counter({(number, "/b" if number % 2 == 0 else "/a"): 1 for number in range(ORIGINS)})
    assert len(result.pages) == ORIGINS
    assert result.stat("rep/requests/allowed") == ORIGINS
    assert result.stat("rep/requests/disallowed") == ORIGINS


def test_evicted_origins_are_fetched_again_and_evictions_counted(many_origins: ManyOrigins) -> None:
    """Only origins still among the last CACHE_MAX_ORIGINS cached when the second visits began may skip a fetch."""
    fetches = many_origins.robots_fetches()
    assert set(fetches) == set(range(ORIGINS))
    assert set(fetches.values()) <= {1, 2}
    assert sum(fetches.values()) >= 2 * ORIGINS - CACHE_MAX_ORIGINS
    evictions = many_origins.result.stat("rep/cache/evictions")
    assert 2 * ORIGINS - 2 * CACHE_MAX_ORIGINS <= evictions <= sum(fetches.values()) - CACHE_MAX_ORIGINS


def test_memory_stays_bounded(many_origins: ManyOrigins) -> None:
    assert len(many_origins.result.middleware.cache) == CACHE_MAX_ORIGINS
    assert many_origins.peak_growth_mb < 400


def test_robots_txt_fetches_in_flight_are_bounded(many_origins: ManyOrigins) -> None:
    """At most FETCHES_PER_CONCURRENT_REQUEST x CONCURRENT_REQUESTS robots.txt fetches at once."""
    assert many_origins.robots.most_at_once <= FETCHES_PER_CONCURRENT_REQUEST * CONCURRENCY
