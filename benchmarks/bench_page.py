"""What reading page-level directives costs (docs/behaviour.md §10).

Two measurements:

* ``crawl``: the same loopback crawl (2,000 pages of about 50 KB with a small head, over several
  origins, one asyncio server in this process) with ``PageDirectivesMiddleware`` off, on, and on
  with the ``<meta`` search written in Python (what an install without a C compiler runs), runs
  interleaved (each round in another order), each in a subprocess. Reported: pages/s of each run
  and pages per CPU second of the crawling process (steadier on a shared machine), the median of
  each mode and its ratio to off (the target: on within 3 % of off).
* ``parser``: ``PageDirectives.parse`` alone: MB/s over realistic HTML heads, and the time for a
  5 MB page whose head is small.

* ``instructions`` (``--instructions``, needs valgrind): the same crawls counted in CPU
  instructions rather than timed, which no other work on the machine changes. Reported: the
  instructions the middleware adds per page, as a share of a page's instructions with it off.

    python benchmarks/bench_page.py                  # crawl and parser, 5 rounds of the crawl
    python benchmarks/bench_page.py --smoke          # a smoke run: 200 pages, 1 round, short parser loops
    python benchmarks/bench_page.py --instructions   # the crawls under valgrind, 400 pages each
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from loopback import LoopbackSites, instruction_counts, run_child

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

MODES = ("off", "on", "on-python")
AGENT = "benchbot/1.0 (+http://example.test/bot)"
CRAWL_SETTINGS: dict[str, Any] = {
    "CONCURRENT_REQUESTS": 32,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
    "LOG_LEVEL": "WARNING",
    "TELNETCONSOLE_ENABLED": False,
    "COOKIES_ENABLED": False,
    "ROBOTSTXT_OBEY": False,
    "USER_AGENT": AGENT,
    "DOWNLOADER_MIDDLEWARES": {"scrapy_robots_rep.downloader.middleware.RobotsMiddleware": 100},
}
MODE_SETTINGS: dict[str, dict[str, Any]] = {
    "off": {},
    "on": {"SPIDER_MIDDLEWARES": {"scrapy_robots_rep.page.middleware.PageDirectivesMiddleware": 950}},
}
MODE_SETTINGS["on-python"] = MODE_SETTINGS["on"]
ROBOTS = b"User-agent: *\nDisallow: /admin/\n"


def head(index: int) -> str:
    """A small, realistic head: metas, links, a style block and a script."""
    return (
        '<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Article {index}: a page of the benchmark site</title>"
        '<meta name="description" content="A page with enough text to look like an article.">'
        '<meta name="robots" content="index, follow, max-image-preview:large">'
        '<meta property="og:title" content="Article"><link rel="canonical" href="/page/0">'
        '<link rel="stylesheet" href="/static/site.css"><style>body{font-family:sans-serif}a{color:#06c}</style>'
        '<script>window.dataLayer = window.dataLayer || []; if (1 < 2) { dataLayer.push({"page": "x"}); }</script>'
    )


def page(index: int, size: int = 50_000) -> bytes:
    """An HTML page of about ``size`` bytes: a small head, then paragraphs, links and scripts."""
    block = (
        "<div class='post'><h2>Section</h2><p>"
        + "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor. " * 6
        + "</p><ul>"
        + "".join(f'<li><a href="/topic/{n}" title="topic {n}">Topic {n}</a></li>' for n in range(8))
        + "</ul><script>track('section');</script><!-- section end --></div>"
    )
    body = block * max(1, size // len(block))
    document = f"<!DOCTYPE html><html lang='en'><head>{head(index)}</head><body>{body}</body></html>"
    return document.encode()


PAGES = [page(index) for index in range(16)]
"""What the loopback sites serve: 16 pages, each path getting one of them."""


def child_crawl(mode: str, bases: list[str], pages: int) -> None:
    """The crawl itself (in the subprocess): ``pages`` pages over ``bases``, an item per page."""
    from scrapy import Request, Spider, signals
    from scrapy.crawler import CrawlerProcess

    from scrapy_robots_rep.core.page import markup, tag_search

    if mode == "on-python":
        markup.find_wanted_meta = tag_search.find_wanted_meta_in_python

    class BenchSpider(Spider):
        name = "bench_page"
        downloaded = 0

        async def start(self) -> Any:
            for index in range(pages):
                yield Request(f"{bases[index % len(bases)]}/page/{index}", callback=self.parse)

        def parse(self, response: Any) -> Any:
            BenchSpider.downloaded += 1
            yield {"url": response.url, "size": len(response.body)}
            yield Request(response.url)  # a duplicate: filtered, after the middleware has seen it

    timing: dict[str, tuple[float, float]] = {}

    def mark(name: str) -> None:
        timing.setdefault(name, (time.perf_counter(), time.process_time()))

    process = CrawlerProcess({**CRAWL_SETTINGS, **MODE_SETTINGS[mode]})
    crawler = process.create_crawler(BenchSpider)
    crawler.signals.connect(lambda: mark("opened"), signals.spider_opened, weak=False)
    crawler.signals.connect(lambda: mark("closed"), signals.spider_closed, weak=False)
    process.crawl(crawler)
    process.start()
    assert crawler.stats is not None
    seconds = timing["closed"][0] - timing["opened"][0]
    cpu_seconds = timing["closed"][1] - timing["opened"][1]
    report = {
        "mode": mode,
        "pages": BenchSpider.downloaded,
        "items": crawler.stats.get_value("item_scraped_count", 0),
        "seconds": seconds,
        "pages_per_second": BenchSpider.downloaded / seconds,
        "pages_per_cpu_second": BenchSpider.downloaded / cpu_seconds,
    }
    print(json.dumps(report))


def bench_crawl(origins: int, pages: int, rounds: int) -> None:
    sites = LoopbackSites(origins, ROBOTS, lambda path: (PAGES[hash(path) % len(PAGES)], b"text/html; charset=utf-8"))
    rates: dict[str, list[float]] = {mode: [] for mode in MODES}
    cpu_rates: dict[str, list[float]] = {mode: [] for mode in MODES}
    try:
        for round_number in range(rounds):
            shift = round_number % len(MODES)
            for mode in MODES[shift:] + MODES[:shift]:
                report = run_child(__file__, mode, sites.bases, pages)
                if report["pages"] != pages or report["items"] != pages:
                    sys.exit(f"{mode}: {report['pages']} pages and {report['items']} items, expected {pages}")
                rates[mode].append(report["pages_per_second"])
                cpu_rates[mode].append(report["pages_per_cpu_second"])
                print(
                    f"round {round_number + 1} {mode:9} {report['pages_per_second']:7.0f} pages/s "
                    f"{report['pages_per_cpu_second']:7.0f} pages per CPU second",
                    flush=True,
                )
    finally:
        sites.stop()
    from scrapy_robots_rep.core.page import tag_search

    build = "compiled" if tag_search.COMPILED else "not built here: on runs the Python search too"
    print(f"\ncrawl: {pages} pages of ~50 KB over {origins} origins, {rounds} interleaved round(s), medians")
    print(f"  <meta search of 'on': {build}; target: on/off >= 0.970")
    for label, table in (("pages/s", rates), ("pages per CPU second", cpu_rates)):
        off, on, python = (statistics.median(table[mode]) for mode in MODES)
        print(
            f"  {label:20}  off {off:7.0f}  on {on:7.0f} ({on / off:.3f})  "
            f"on, Python search {python:7.0f} ({python / off:.3f})"
        )


def bench_instructions(origins: int, pages: int) -> None:
    """Each mode's crawl under callgrind; a page's instructions from two crawl sizes with it off."""
    sites = LoopbackSites(origins, ROBOTS, lambda path: (PAGES[hash(path) % len(PAGES)], b"text/html; charset=utf-8"))
    try:
        counts, per_page = instruction_counts(__file__, MODES, sites.bases, pages)
    finally:
        sites.stop()
    print(f"\ninstructions: {pages} pages of ~50 KB, {per_page:,.0f} per page with the middleware off")
    for mode in MODES[1:]:
        added = (counts[mode] - counts["off"]) / pages
        print(f"  {mode:9}  {added:9,.0f} more per page: {added / per_page:6.2%} (target <= 3 %)")


def bench_parser(smoke: bool) -> None:
    from scrapy_robots_rep.core.page import PageDirectives, tag_search

    print(f"\nparser: <meta search {'compiled' if tag_search.COMPILED else 'in Python (not compiled here)'}")
    headers = {"Content-Type": "text/html; charset=utf-8", "X-Robots-Tag": "otherbot: noindex"}
    heads = [f"<!DOCTYPE html><html><head>{head(index)}</head>".encode() for index in range(50)]
    loops = 20 if smoke else 400
    started = time.perf_counter()
    for _ in range(loops):
        for document in heads:
            PageDirectives.parse(document, headers, agent=AGENT)
    seconds = time.perf_counter() - started
    megabytes = loops * sum(map(len, heads)) / 1e6
    average = sum(map(len, heads)) / len(heads)
    print(f"\nparser: HTML heads ({average:.0f} bytes each): {megabytes / seconds:.1f} MB/s")

    typical = page(0)
    repeats = 20 if smoke else 300
    started = time.perf_counter()
    for _ in range(repeats):
        PageDirectives.parse(typical, headers, agent=AGENT)
    print(f"parser: a {len(typical) / 1e3:.0f} KB page: {(time.perf_counter() - started) / repeats * 1e3:.3f} ms")

    # The AIPREF Content-Usage header: read with http-sf, remembered per value (a site sends the
    # same value on every page); what each reading costs when a value is new.
    with_usage = {**headers, "Content-Usage": "train-ai=n, search=y"}
    started = time.perf_counter()
    for _ in range(loops):
        for document in heads:
            PageDirectives.parse(document, with_usage, agent=AGENT)
    seconds = time.perf_counter() - started
    print(f"parser: HTML heads with a Content-Usage header: {megabytes / seconds:.1f} MB/s")
    from scrapy_robots_rep.core.usage_preferences import read_header, read_statement

    values = [f"train-ai=n, search=y, ai-use=?0, x{index}=(1 2);p" for index in range(2_000 if not smoke else 200)]
    for name, reader in (("http-sf", read_header), ("the robots.txt reader", read_statement)):
        reader.cache_clear()
        started = time.perf_counter()
        for value in values:
            reader(value)
        per_value = (time.perf_counter() - started) / len(values)
        print(f"parser: a new Content-Usage value read by {name}: {per_value * 1e6:.1f} us")

    huge = page(0, size=5_000_000)
    for links in (False, True):
        repeats = 3 if smoke else 20
        started = time.perf_counter()
        for _ in range(repeats):
            PageDirectives.parse(huge, headers, agent=AGENT, links=links)
        per_page = (time.perf_counter() - started) / repeats
        label = "with rel=nofollow links" if links else "meta tags only"
        print(f"parser: a {len(huge) / 1e6:.1f} MB page with a small head ({label}): {per_page * 1e3:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smoke", action="store_true", help="a smoke run: 200 pages, 1 round, short parser loops")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds of the off/on crawls")
    parser.add_argument("--origins", type=int, default=8, help="loopback origins the pages are spread over")
    parser.add_argument("--only", choices=("crawl", "parser"), help="run one of the two measurements")
    parser.add_argument("--instructions", action="store_true", help="count the crawls' instructions (valgrind)")
    parser.add_argument("--child", choices=MODES, help=argparse.SUPPRESS)
    parser.add_argument("--pages", type=int, default=2_000, help=argparse.SUPPRESS)
    parser.add_argument("--bases", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child_crawl(args.child, args.bases.split(","), args.pages)
        return
    if args.instructions:
        bench_instructions(args.origins, 100 if args.smoke else 400)
        return
    pages, rounds = (200, 1) if args.smoke else (args.pages, args.rounds)
    if args.only != "parser":
        bench_crawl(args.origins, pages, rounds)
    if args.only != "crawl":
        bench_parser(args.smoke)


if __name__ == "__main__":
    main()
