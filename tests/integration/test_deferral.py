"""Deferral (docs/behaviour.md §5): held requests occupy no concurrency, are released, and are bounded."""

from __future__ import annotations

import pytest
import pytest_twisted
from scrapy import Request
from scrapy import signals as scrapy_signals
from scrapy import version_info as SCRAPY_VERSION
from scrapy.crawler import Crawler

from scrapy_robots_rep.exceptions import RobotsDisallowed, RobotsUnreachable
from scrapy_robots_rep.policy.records import RecordMaker
from tests.crawling import CrawlingSpider, RequestSpec, Wave, crawl
from tests.sites import PAGE, Answer, Gate, Reply, Site, Sites, text

ALLOW = "User-agent: *\nAllow: /\n"
PAGE_DELAY = 0.03
HANG = 30
"""Seconds a hanging robots.txt stays unanswered at most (the fetch timeout and the deferral are longer)."""


def slow_site(sites: Sites, pages: int, robots: Answer) -> Site:
    routes = {f"/p{index}": Reply(body=PAGE, delay=PAGE_DELAY) for index in range(pages)}
    return sites.start({"/robots.txt": robots, **routes})


@pytest_twisted.ensureDeferred
async def test_a_hanging_origin_does_not_slow_the_others(sites: Sites) -> None:
    """The hanging origin's robots.txt stays unanswered until the other origins' pages were all served
    (then it answers 404): had its 20 waiting requests held the 4 download slots, those pages would
    have waited for them, and the gate's timeout would tell."""
    healthy_served = Gate(needed=10 * 20, timeout=HANG)
    page = healthy_served.opening(Reply(body=PAGE, delay=PAGE_DELAY))
    healthy = [
        sites.start({"/robots.txt": text(ALLOW)} | {f"/p{index}": page for index in range(20)}) for _ in range(10)
    ]
    hanging = slow_site(sites, 20, healthy_served.hold(text("", status=404)))
    healthy_urls = [f"{site.url}/p{index}" for index in range(20) for site in healthy]
    hanging_urls = [f"{hanging.url}/p{index}" for index in range(20)]
    settings = {"CONCURRENT_REQUESTS": 4, "REP_FETCH_TIMEOUT": HANG + 10, "REP_DEFER_MAX_TIME": HANG + 10}

    result = await crawl(hanging_urls + healthy_urls, settings=settings)

    assert len(result.pages) == len(healthy_urls) + len(hanging_urls)
    assert healthy_served.kept_order, "the healthy origins waited for the hanging one"
    assert hanging.paths()[0] == "/robots.txt" and len(hanging.paths()) == 1 + len(hanging_urls)


@pytest_twisted.ensureDeferred
async def test_spider_waits_for_the_retry_and_released_requests_obey_the_rules(sites: Sites) -> None:
    site = sites.start({"/robots.txt": [text("", status=503), text("User-agent: *\nDisallow: /private\n")]})
    result = await crawl([f"{site.url}/page", f"{site.url}/private"])
    by_url = result.by_url()
    assert by_url[f"{site.url}/page"].response is not None
    assert isinstance(by_url[f"{site.url}/private"].error, RobotsDisallowed)
    robots_hits = site.hits("/robots.txt")
    assert len(robots_hits) == 2
    assert robots_hits[1].time - robots_hits[0].time >= 0.9  # backoff, while the spider stayed open
    assert site.paths() == ["/robots.txt", "/robots.txt", "/page"]
    assert result.stats["rep/requests/deferred"] == 2


@pytest_twisted.ensureDeferred
async def test_waiting_requests_are_held_before_the_scheduler_and_not_reported_dropped(sites: Sites) -> None:
    """A request that waits for robots.txt is held instead of being enqueued: every page enters the
    scheduler once (when released, or when its origin already had rules), Scrapy's
    ``request_scheduled`` is sent once for each request (a released one is not scheduled again), and
    ``request_dropped`` only for the duplicate that waited beside its first copy (the dupefilter
    drops it when both are released)."""
    site = sites.start({"/robots.txt": text(ALLOW)} | {f"/p{index}": Reply(body=PAGE) for index in range(5)})
    dropped: list[str] = []
    scheduled: list[str] = []

    def watch(crawler: Crawler) -> None:
        def on_dropped(request: Request, **_: object) -> None:
            dropped.append(request.url)

        def on_scheduled(request: Request, **_: object) -> None:
            scheduled.append(request.url)

        crawler.signals.connect(on_dropped, signal=scrapy_signals.request_dropped, weak=False)
        crawler.signals.connect(on_scheduled, signal=scrapy_signals.request_scheduled, weak=False)

    urls = [f"{site.url}/p{index}" for index in range(5)]
    result = await crawl([*urls, urls[0]], on_crawler=watch)

    assert all(result.by_url()[url].response is not None for url in urls)
    assert result.stat("rep/requests/deferred") >= 1
    assert result.stat("scheduler/enqueued") == len(urls)
    assert sorted(scheduled) == sorted([*urls, urls[0]])
    assert dropped == [urls[0]]
    assert sorted(site.paths()) == ["/p0", "/p1", "/p2", "/p3", "/p4", "/robots.txt"]


@pytest_twisted.ensureDeferred
async def test_deferral_is_bounded_then_drops_for_a_window_then_starts_again(sites: Sites) -> None:
    site = sites.start({"/robots.txt": text("", status=503)})
    robots_hits_when_requested: list[int] = []

    def wave(path: str) -> RequestSpec:
        def build(spider: CrawlingSpider) -> Request:
            robots_hits_when_requested.append(len(site.hits("/robots.txt")))
            return Request(f"{site.url}{path}", callback=spider.parse, errback=spider.failed)

        return build

    defer_max_time = 2
    result = await crawl(
        [wave("/a")],
        [wave("/b")],
        Wave([wave("/c")], pause=defer_max_time + 0.3),
        settings={"REP_DEFER_MAX_TIME": defer_max_time, "REP_STATUS_POLICY": "legacy"},
    )
    by_url = result.by_url()
    for path in ("/a", "/b", "/c"):
        assert isinstance(by_url[f"{site.url}{path}"].error, RobotsUnreachable)
    # /a's cycle fetched and retried (how often depends on how long each fetch took); /b, inside the
    # drop window, was dropped without a fetch; /c, after the window, started a new cycle
    before_a, before_b, before_c = robots_hits_when_requested
    assert before_a == 0 and before_b >= 2 and before_c == before_b
    assert len(site.hits("/robots.txt")) > before_c
    assert [path for path in site.paths() if path != "/robots.txt"] == []
    assert result.stats["rep/requests/dropped_unreachable"] == 3
    for path in ("/a", "/b", "/c"):
        lines = [message for message in result.messages() if message.startswith(f"Dropped {site.url}{path}:")]
        assert len(lines) == 1
    assert result.middleware.accounting.unbalanced() == {}


@pytest.mark.skipif(
    SCRAPY_VERSION < (2, 15),
    reason="before Scrapy 2.15 released start requests join the start queue behind a burst scheduled while they waited",
)
@pytest_twisted.ensureDeferred
async def test_released_requests_are_not_starved_by_a_busy_scheduler(sites: Sites) -> None:
    busy = sites.start(
        {"/robots.txt": text(ALLOW)} | {f"/p{index}": Reply(body=PAGE, delay=0.1) for index in range(21)}
    )
    newcomer = sites.start({"/robots.txt": text(ALLOW)})
    busy_urls = [f"{busy.url}/p{index}" for index in range(1, 21)]
    newcomer_urls = [f"{newcomer.url}/q{index}" for index in range(5)]
    result = await crawl([f"{busy.url}/p0"], newcomer_urls + busy_urls, settings={"CONCURRENT_REQUESTS": 1})
    by_url = result.by_url()
    assert all(by_url[url].response is not None for url in busy_urls + newcomer_urls)
    # the scheduler never ran dry before the busy origin's pages were done (2 s at least, one at a
    # time), yet the newcomer's released requests went out along with them
    assert max(by_url[url].time for url in newcomer_urls) < max(by_url[url].time for url in busy_urls)


@pytest_twisted.ensureDeferred
async def test_an_error_while_obtaining_robots_txt_drops_the_waiting_requests(
    sites: Sites, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bug in reading the answer must not strand the parked requests (the spider would never close)."""
    site = sites.start({"/robots.txt": text("User-agent: *\nAllow: /\n")})

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(RecordMaker, "conclude", broken)
    urls = [f"{site.url}/a", f"{site.url}/b"]
    result = await crawl(urls, settings={"REP_DEFER_MAX_TIME": 30})
    assert [result.by_url()[url].error_type for url in urls] == [RobotsUnreachable, RobotsUnreachable]
    assert site.paths() == ["/robots.txt"]
    assert result.seconds < 10
    assert result.messages(contains="Error while obtaining robots.txt")
