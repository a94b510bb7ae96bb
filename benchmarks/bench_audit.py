"""CPU cost of the audit trail: the same crawl with ``REP_AUDIT_DIR`` off and on, interleaved.

Each crawl runs in a subprocess with the robots.txt middleware and the page-level middleware
(so decisions.jsonl, fetches.jsonl and pages.jsonl are all written when the trail is on). The
crawls alternate, off then on then on then off, so that a machine growing busier or quieter
weighs on both alike. Reported: CPU seconds (user + sys) per 1,000 pages, of the whole crawl
process (``getrusage(RUSAGE_CHILDREN)``) and of its crawl alone (spider opened to closed,
measured in the process), the median of the rounds, and on/off.

    python benchmarks/bench_audit.py             # 20,000 pages over 200 origins, 5 rounds
    python benchmarks/bench_audit.py --pages 5000 --rounds 4   # shorter, on a busy machine
    python benchmarks/bench_audit.py --smoke     # a tiny run to check that it works
    python benchmarks/bench_audit.py --instructions   # the crawls under valgrind's callgrind, 400 pages

``--instructions`` counts CPU instructions instead of time (meaningful on a busy machine): the crawl
with the trail off and on, and off with a quarter of the pages, whose difference gives what one
page costs without the trail.
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from loopback import LoopbackSites, run_child

PAGE = b"<html><head><title>page</title></head><body>" + b"<p>some text</p>" * 40 + b"</body></html>"
ROBOTS = (
    b"User-agent: *\nDisallow: /admin/\nDisallow: /cart\nDisallow: /*?sessionid=\nDisallow: /*.pdf$\n"
    b"Allow: /admin/public/\nDisallow: /search\nDisallow: /private/*/drafts\n\n"
    b"User-agent: otherbot\nDisallow: /\n\nSitemap: https://example.com/sitemap.xml\n"
)
CRAWL_SETTINGS: dict[str, Any] = {
    "CONCURRENT_REQUESTS": 64,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
    "LOG_LEVEL": "WARNING",
    "TELNETCONSOLE_ENABLED": False,
    "COOKIES_ENABLED": False,
    "USER_AGENT": "benchbot/1.0 (+http://example.test/bot)",
}

MODES = ("off", "on")


def child_crawl(mode: str, bases: list[str], pages: int) -> None:
    """The crawl itself (in the subprocess)."""
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

    cpu: dict[str, float] = {}

    def mark(name: str) -> None:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        cpu.setdefault(name, usage.ru_utime + usage.ru_stime)

    with tempfile.TemporaryDirectory() as audit:
        settings = {
            **CRAWL_SETTINGS,
            "ROBOTSTXT_OBEY": False,
            "DOWNLOADER_MIDDLEWARES": {"scrapy_robots_rep.RobotsMiddleware": 100},
            "SPIDER_MIDDLEWARES": {"scrapy_robots_rep.PageDirectivesMiddleware": 550},
        }
        if mode == "on":
            settings["REP_AUDIT_DIR"] = audit
        process = CrawlerProcess(settings)
        crawler = process.create_crawler(BenchSpider)
        crawler.signals.connect(lambda: mark("opened"), signals.spider_opened, weak=False)
        crawler.signals.connect(lambda: mark("closed"), signals.spider_closed, weak=False)
        process.crawl(crawler)
        process.start()
    print(json.dumps({"mode": mode, "pages": BenchSpider.downloaded, "crawl_cpu": cpu["closed"] - cpu["opened"]}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smoke", action="store_true", help="200 pages over 20 origins, one round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of the two crawls")
    parser.add_argument("--child", choices=MODES, help=argparse.SUPPRESS)
    parser.add_argument("--pages", type=int, default=20_000, help="pages per crawl (default: %(default)s)")
    parser.add_argument("--bases", help=argparse.SUPPRESS)
    parser.add_argument("--instructions", action="store_true", help="count instructions with valgrind (400 pages)")
    args = parser.parse_args()
    if args.child:
        child_crawl(args.child, args.bases.split(","), args.pages)
        return
    if args.instructions:
        bench_instructions(20, 400)
        return

    origins, pages, rounds = (20, 200, 1) if args.smoke else (200, args.pages, args.rounds)
    sites = LoopbackSites(origins, ROBOTS, lambda path: (PAGE, b"text/html"))
    process_cpu: dict[str, list[float]] = {mode: [] for mode in MODES}
    crawl_cpu: dict[str, list[float]] = {mode: [] for mode in MODES}
    try:
        for round_number in range(rounds):
            for mode in MODES if round_number % 2 == 0 else reversed(MODES):
                before = _children_cpu()
                report = run_child(__file__, mode, sites.bases, pages)
                spent = _children_cpu() - before
                if report["pages"] != pages:
                    raise SystemExit(f"{mode} crawl downloaded {report['pages']} of {pages} pages")
                process_cpu[mode].append(spent / pages * 1000)
                crawl_cpu[mode].append(report["crawl_cpu"] / pages * 1000)
                print(
                    f"round {round_number + 1} audit {mode:3}: {spent:6.2f} s CPU (process), "
                    f"{report['crawl_cpu']:6.2f} s (crawl)",
                    flush=True,
                )
                time.sleep(0.5)
    finally:
        sites.stop()

    print(f"\n{pages} pages over {origins} origins, {rounds} interleaved round(s); CPU s per 1,000 pages, median")
    print(f"{'':18} {'audit off':>10} {'audit on':>10} {'on/off':>8}")
    for name, figures in (("whole process", process_cpu), ("crawl only", crawl_cpu)):
        off, on = statistics.median(figures["off"]), statistics.median(figures["on"])
        print(f"{name:18} {off:10.3f} {on:10.3f} {on / off:8.3f}")


def bench_instructions(origins: int, pages: int) -> None:
    """Each mode's crawl under callgrind; a page's instructions from two crawl sizes with the trail off."""
    sites = LoopbackSites(origins, ROBOTS, lambda path: (PAGE, b"text/html"))
    try:
        counts = {mode: instructions(mode, sites.bases, pages) for mode in MODES}
        smaller = instructions("off", sites.bases, pages // 4)
    finally:
        sites.stop()
    per_page = (counts["off"] - smaller) / (pages - pages // 4)
    added = (counts["on"] - counts["off"]) / pages
    print(f"instructions: {pages} pages over {origins} origins; whole crawl off {counts['off']:,}, on {counts['on']:,}")
    print(f"  per page with the trail off: {per_page:,.0f}; the trail adds {added:,.0f} ({added / per_page:.2%})")


def instructions(mode: str, bases: list[str], pages: int) -> int:
    """The CPU instructions of one crawl, counted by valgrind's callgrind."""
    with tempfile.NamedTemporaryFile(suffix=".callgrind") as output:
        run_child(
            __file__, mode, bases, pages, prefix=("valgrind", "--tool=callgrind", f"--callgrind-out-file={output.name}")
        )
        totals = re.search(rb"^totals: (\d+)", Path(output.name).read_bytes(), re.MULTILINE)
    if totals is None:
        sys.exit(f"no instruction count in callgrind's output for {mode}")
    return int(totals.group(1))


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    main()
