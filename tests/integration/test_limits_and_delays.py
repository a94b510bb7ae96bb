"""REP_MAX_SIZE cuts the robots.txt download, compressed bodies are bounded, Crawl-delay spaces downloads."""

from __future__ import annotations

import gzip
from itertools import pairwise

import pytest_twisted

from scrapy_robots_rep.exceptions import RobotsDisallowed
from tests.crawling import crawl
from tests.sites import Reply, Site, Sites, streamed, text

MAX_SIZE = 100_000
TOTAL = 50_000_000


@pytest_twisted.ensureDeferred
async def test_max_size_stops_the_download_and_the_rules_before_the_cut_apply(sites: Sites) -> None:
    head = b"User-agent: *\nDisallow: /private\n" + b"#" * (MAX_SIZE + 20_000) + b"\n"
    produced: list[int] = []
    body = streamed(head, b"Disallow: /late\n" * 4096, TOTAL, produced)
    site = sites.start({"/robots.txt": Reply(body=body, headers={"Content-Type": "text/plain"})})
    result = await crawl([f"{site.url}/private", f"{site.url}/late"], settings={"REP_MAX_SIZE": MAX_SIZE})

    by_url = result.by_url()
    assert isinstance(by_url[f"{site.url}/private"].error, RobotsDisallowed)
    assert by_url[f"{site.url}/late"].response is not None
    assert site.paths() == ["/robots.txt", "/late"]
    assert produced[-1] < TOTAL / 5, f"the server produced {produced[-1]} bytes: the connection was not cut"
    assert result.stats["rep/robots/outcome/rules"] == 1


def page_gaps(site: Site, pages: int) -> list[float]:
    times = [hit.time for hit in site.hits() if hit.path != "/robots.txt"]
    assert len(times) == pages
    return [later - earlier for earlier, later in pairwise(times)]


@pytest_twisted.ensureDeferred
async def test_crawl_delay_is_applied_capped_and_never_lowers_a_user_delay(sites: Sites) -> None:
    delayed = sites.start({"/robots.txt": text("User-agent: *\nCrawl-delay: 1\n")})
    capped = sites.start({"/robots.txt": text("User-agent: *\nCrawl-delay: 30\n")})
    user_slower = sites.start({"/robots.txt": text("User-agent: *\nCrawl-delay: 0.2\n")})
    pages = 3
    urls = [f"{site.url}/p{index}" for site in (delayed, capped, user_slower) for index in range(pages)]
    result = await crawl(
        urls,
        settings={
            "REP_CRAWL_DELAY_MAX": 1.2,
            "DOWNLOAD_DELAY_JITTER": 0.5,
            # "jitter" from Scrapy 2.14 on, "randomize_delay" before (read only where "jitter" is not)
            "DOWNLOAD_SLOTS": {user_slower.host: {"delay": 1.5, "jitter": 0, "randomize_delay": False}},
        },
    )
    assert len(result.pages) == len(result.outcomes) == len(urls)
    assert min(page_gaps(delayed, pages)) >= 0.9
    assert all(1.1 <= gap < 5 for gap in page_gaps(capped, pages))
    assert min(page_gaps(user_slower, pages)) >= 1.4


@pytest_twisted.ensureDeferred
async def test_a_compressed_robots_txt_is_decoded_only_up_to_max_size(sites: Sites) -> None:
    rules = b"User-agent: *\nDisallow: /private\n"
    bomb = gzip.compress(rules + b"#" * (MAX_SIZE * 400) + b"\nDisallow: /late\n")
    headers = {"Content-Type": "text/plain", "Content-Encoding": "gzip"}
    bombed = sites.start({"/robots.txt": Reply(body=bomb, headers=headers)})
    gentle = sites.start({"/robots.txt": Reply(body=gzip.compress(rules), headers=headers)})
    urls = [f"{bombed.url}/private", f"{bombed.url}/late", f"{gentle.url}/private", f"{gentle.url}/page"]
    result = await crawl(urls, settings={"REP_MAX_SIZE": MAX_SIZE})
    by_url = result.by_url()
    assert len(bomb) < MAX_SIZE  # small on the wire: only decoding gives it away
    assert isinstance(by_url[f"{bombed.url}/private"].error, RobotsDisallowed)
    assert by_url[f"{bombed.url}/late"].response is not None  # past REP_MAX_SIZE once decoded: ignored
    assert isinstance(by_url[f"{gentle.url}/private"].error, RobotsDisallowed)
    assert by_url[f"{gentle.url}/page"].response is not None
    assert result.stats["rep/robots/outcome/rules"] == 2
