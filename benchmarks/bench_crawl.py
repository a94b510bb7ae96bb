"""Crawl throughput with and without robots.txt handling, over loopback.

One asyncio server in this process serves every origin, each on its own
127.0.1.x address (so each has its own Scrapy downloader slot, as distinct
hosts would). The same crawl then runs three ways, each in a subprocess so
that reactors do not clash:

* ``none``: no robots.txt handling;
* ``builtin``: Scrapy's ``ROBOTSTXT_OBEY`` (RobotsTxtMiddleware + Protego);
* ``rep``: ``scrapy_robots_rep.RobotsMiddleware``.

It reports pages/s, the ratio to ``none``, and robots.txt fetches per origin
as the server counted them (must be exactly 1).

    python benchmarks/bench_crawl.py            # 20,000 pages over 200 origins, best of 3 rounds
    python benchmarks/bench_crawl.py --smoke    # a tiny run to check that it works
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from typing import Any

from loopback import LoopbackSites, run_child

MODES = ("none", "builtin", "rep")
PAGE = b"<html><head><title>page</title></head><body>" + b"<p>some text</p>" * 40 + b"</body></html>"
ROBOTS = "\n".join(
    [
        "User-agent: *",
        "Disallow: /admin/",
        "Disallow: /cart",
        "Disallow: /*?sessionid=",
        "Disallow: /*.pdf$",
        "Allow: /admin/public/",
        "Disallow: /search",
        "Disallow: /private/*/drafts",
        "",
        "User-agent: otherbot",
        "Disallow: /",
        "",
        "Sitemap: https://example.com/sitemap.xml",
        "",
    ]
).encode()

CRAWL_SETTINGS: dict[str, Any] = {
    "CONCURRENT_REQUESTS": 64,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
    "LOG_LEVEL": "WARNING",
    "TELNETCONSOLE_ENABLED": False,
    "COOKIES_ENABLED": False,
    "USER_AGENT": "benchbot/1.0 (+http://example.test/bot)",
}
MODE_SETTINGS: dict[str, dict[str, Any]] = {
    "none": {"ROBOTSTXT_OBEY": False},
    "builtin": {"ROBOTSTXT_OBEY": True},
    "rep": {"ROBOTSTXT_OBEY": False, "DOWNLOADER_MIDDLEWARES": {"scrapy_robots_rep.RobotsMiddleware": 100}},
}


def child_crawl(mode: str, bases: list[str], pages: int) -> None:
    """The crawl itself (in the subprocess): ``pages`` pages spread over ``bases``."""
    from scrapy import Request, Spider, signals
    from scrapy.crawler import CrawlerProcess

    class BenchSpider(Spider):
        name = "bench"
        downloaded = 0

        async def start(self) -> Any:
            for index in range(pages):
                yield Request(f"{bases[index % len(bases)]}/page/{index}", callback=self.parse)

        def parse(self, response: Any) -> None:
            BenchSpider.downloaded += 1

    timing: dict[str, float] = {}
    process = CrawlerProcess({**CRAWL_SETTINGS, **MODE_SETTINGS[mode]})
    crawler = process.create_crawler(BenchSpider)
    crawler.signals.connect(lambda: timing.setdefault("opened", time.perf_counter()), signals.spider_opened, weak=False)
    crawler.signals.connect(lambda: timing.setdefault("closed", time.perf_counter()), signals.spider_closed, weak=False)
    process.crawl(crawler)
    process.start()
    stats = crawler.stats.get_stats()
    seconds = timing["closed"] - timing["opened"]
    print(
        json.dumps(
            {
                "mode": mode,
                "pages": BenchSpider.downloaded,
                "seconds": seconds,
                "pages_per_second": BenchSpider.downloaded / seconds,
                "stats": {key: value for key, value in stats.items() if isinstance(value, (int, float))},
            }
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smoke", action="store_true", help="200 pages over 20 origins, one round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the three crawls; the best is reported")
    parser.add_argument("--child", choices=MODES, help=argparse.SUPPRESS)
    parser.add_argument("--pages", type=int, default=20_000, help=argparse.SUPPRESS)
    parser.add_argument("--bases", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child_crawl(args.child, args.bases.split(","), args.pages)
        return

    origins, pages, rounds = (20, 200, 1) if args.smoke else (200, 20_000, args.rounds)
    sites = LoopbackSites(origins, ROBOTS, lambda path: (PAGE, b"text/html"))
    best: dict[str, dict[str, Any]] = {}
    fetches: dict[str, Counter[str]] = {}
    try:
        for round_number in range(rounds):
            for mode in MODES:
                sites.robots_hits.clear()
                report = run_child(__file__, mode, sites.bases, pages)
                fetches[mode] = Counter(sites.robots_hits)
                print(
                    f"round {round_number + 1} {mode:8} {report['pages_per_second']:8.0f} pages/s "
                    f"({report['pages']} pages in {report['seconds']:.2f}s)",
                    flush=True,
                )
                if mode not in best or report["pages_per_second"] > best[mode]["pages_per_second"]:
                    best[mode] = report
    finally:
        sites.stop()

    print(f"\n{pages} pages over {origins} origins, best of {rounds} round(s), Scrapy loopback crawl")
    print(f"{'mode':8} {'pages/s':>9} {'vs none':>8} {'robots.txt fetches per origin':>30}")
    baseline = best["none"]["pages_per_second"]
    for mode in MODES:
        per_origin = sorted(set(fetches[mode][host] for host in _hosts(sites.bases))) if mode != "none" else [0]
        print(
            f"{mode:8} {best[mode]['pages_per_second']:9.0f} {best[mode]['pages_per_second'] / baseline:8.3f} "
            f"{'/'.join(map(str, per_origin)):>30}"
        )
    if fetches["rep"] and set(fetches["rep"][host] for host in _hosts(sites.bases)) != {1}:
        sys.exit("robots.txt was not fetched exactly once per origin by scrapy_robots_rep")


def _hosts(bases: list[str]) -> list[str]:
    return [base.split("//", 1)[1].rsplit(":", 1)[0] for base in bases]


if __name__ == "__main__":
    main()
