"""What obeying robots.txt costs a whole crawl, in CPU time per page.

Loopback sites (one asyncio server in this process, each origin on its own 127.0.1.x
address, so each has its own Scrapy downloader slot as distinct hosts would) serve the
same site at every origin: ``--pages`` HTML pages of 30 to 60 KB, each linking to about
62 others of its site (all of them when the site has fewer), so that most links a page
yields were already seen, as on real sites. Each origin's robots.txt is a different real
file of the corpus (the full corpus next to the repository, else the shipped sample) that
allows every page to the crawl's agent for both this project and Protego, with no
Crawl-delay and no Content-Signal. The spider starts at each origin's first page, yields
one item per page and follows every link of the page (all are on the page's own origin).

Two shapes of crawl (``--shape``; ``--origins`` and ``--pages`` override either):

* ``deep`` (the default): 100 origins x 100 pages, each origin's robots.txt paid by
  100 pages; with ``--instructions``, 2 origins x 100 pages;
* ``broad``: 500 origins x 2 pages, as a fleet crawls many sites a few pages each, so
  that each origin's robots.txt trip is paid by two pages; with ``--instructions``,
  100 origins x 2 pages (``--origins 500`` works under callgrind too, about 3 minutes a crawl).

The same crawl runs three ways, each in its own subprocess (reactors do not clash):

* ``none``: no robots.txt handling;
* ``builtin``: Scrapy's ``ROBOTSTXT_OBEY`` (``RobotsTxtMiddleware`` with Protego);
* ``rep``: this project's add-on (``ADDONS``: the robots middleware and the page-level
  spider middleware).

``--modes`` may also name ``signed``: ``rep`` with every request signed for Web Bot Auth (a new
Ed25519 key in ``REP_SIGNING_KEY``), to count what signing adds; and ``robots``: ``rep`` with
``REP_PAGE_DIRECTIVES = False`` (robots.txt only, as the built-in does), to split the add-on's cost
into its robots.txt handling and its page-level pass.

What is compared is the CPU time (user + system) of each whole crawl process as the OS
counted it, per page crawled: wall time on a shared machine moves far more than the few
per cent at stake. Rounds take turns (each round starts with another mode), and the
result is the median over rounds of each round's ratio to ``none``. Every crawl must
fetch every page, and the robots.txt of each origin exactly once.

``--instructions`` counts instead what each crawl process executes (valgrind's callgrind),
which other work on the machine does not change: each mode crawls one site, then all of
them, and a page's instructions are the difference over the other sites' pages (start-up
left out; each origin's robots.txt trip included). ``--keep DIR`` leaves callgrind's output
of each crawl there, for ``callgrind_annotate``.

    python benchmarks/bench_crawl.py                # deep: 100 origins x 100 pages, 9 rounds
    python benchmarks/bench_crawl.py --shape broad  # broad: 500 origins x 2 pages, 9 rounds
    python benchmarks/bench_crawl.py --rounds 5 --origins 50
    python benchmarks/bench_crawl.py --profile DIR  # each mode under cProfile (CPU time): DIR/<mode>.prof
    python benchmarks/bench_crawl.py --instructions # deep: instructions per page, counted by valgrind (callgrind)
    python benchmarks/bench_crawl.py --instructions --shape broad   # broad: the same, 100 origins x 2 pages
    python benchmarks/bench_crawl.py --instructions --origins 2 --modes rep,signed  # what signing costs
    python benchmarks/bench_crawl.py --instructions --shape broad --modes builtin,robots,rep  # robots.txt alone
    python benchmarks/bench_crawl.py --smoke        # 4 origins x 10 pages, one round
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from loopback import LoopbackSites, run_child

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.corpus import corpus_dir  # noqa: E402

MODES = ("none", "builtin", "rep")
SHAPES: dict[str, dict[str, tuple[int, int]]] = {
    "deep": {"cpu": (100, 100), "instructions": (2, 100)},
    "broad": {"cpu": (500, 2), "instructions": (100, 2)},
}
"""Each shape's (origins, pages per origin): for CPU rounds and under callgrind (``--instructions``)."""
AGENT = "benchbot/1.0 (+http://example.test/bot)"
LINKS_PER_PAGE = 62
CRAWL_SETTINGS: dict[str, Any] = {
    "CONCURRENT_REQUESTS": 64,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
    "LOG_LEVEL": "WARNING",
    "TELNETCONSOLE_ENABLED": False,
    "COOKIES_ENABLED": False,
    "USER_AGENT": AGENT,
}
MODE_SETTINGS: dict[str, dict[str, Any]] = {
    "none": {"ROBOTSTXT_OBEY": False},
    "builtin": {"ROBOTSTXT_OBEY": True},
    "rep": {"ADDONS": {"scrapy_robots_rep.Addon": 0}},
    "signed": {"ADDONS": {"scrapy_robots_rep.Addon": 0}, "REP_SIGNATURE_AGENT": "https://bot.example.test"},
    "robots": {"ADDONS": {"scrapy_robots_rep.Addon": 0}, "REP_PAGE_DIRECTIVES": False},
}
"""How each mode is set up; ``signed`` also gets a new key's file as ``REP_SIGNING_KEY`` (in the child)."""
TEXT = (
    "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut "
    "labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco. "
)


def page(index: int, pages: int) -> bytes:
    """Page ``index`` of a site of ``pages`` pages: 30 to 60 KB, a realistic head, links to others."""
    size = 30_000 + (index * 7_919) % 30_001
    chooser = random.Random(index)
    targets = chooser.sample(range(pages), min(LINKS_PER_PAGE, pages))
    head = (
        '<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Article {index}</title>"
        '<meta name="description" content="A page of the benchmark site.">'
        '<meta name="robots" content="index, follow, max-image-preview:large">'
        f'<link rel="canonical" href="/page/{index}"><link rel="stylesheet" href="/static/site.css">'
        "<style>body{font-family:sans-serif}a{color:#06c}</style>"
    )
    blocks = [f'<li><a href="/page/{target}" title="article {target}">Article {target}</a></li>' for target in targets]
    filler = max(0, size - len(head) - sum(map(len, blocks)) - 200) // (len(TEXT) + 7)
    body = [f"<p>{TEXT}</p>" for _ in range(filler)]
    step = max(1, len(body) // len(blocks)) if body else 1
    for position, block in enumerate(blocks):
        body.insert(min(len(body), position * (step + 1)), f"<ul>{block}</ul>")
    return f"<!DOCTYPE html><html lang='en'><head>{head}</head><body>{''.join(body)}</body></html>".encode()


def allowing_files(count: int) -> tuple[Path, list[bytes]]:
    """``count`` robots.txt files of the corpus (cycled if it holds fewer) that allow every page
    to the agent for this project and for Protego, with no Crawl-delay and no Content-Signal."""
    from protego import Protego

    from scrapy_robots_rep.core import RobotsTxt

    corpus = corpus_dir()
    urls = [f"http://site.test/page/{index}" for index in range(100)]
    chosen: list[bytes] = []
    for path in sorted((corpus / "robots").glob("*.txt")):
        body = path.read_bytes()
        rules = RobotsTxt.parse(body).for_agent(AGENT)
        if rules.crawl_delay or rules.content_signals or not all(rules.allowed(url) for url in urls):
            continue
        protego = Protego.parse(body.decode("utf-8", "replace"))
        if protego.crawl_delay(AGENT) or not all(protego.can_fetch(url, AGENT) for url in urls):
            continue
        chosen.append(body)
        if len(chosen) == count:
            break
    if not chosen:
        sys.exit(f"no robots.txt file of {corpus} allows every page to {AGENT!r}")
    return corpus, chosen


def child_crawl(mode: str, bases: list[str], pages: int, profile: str | None) -> None:
    """The crawl itself (in the subprocess): every page of every origin of ``bases``."""
    from scrapy import Request, Spider
    from scrapy.crawler import CrawlerProcess

    class BenchSpider(Spider):
        name = "bench_crawl"

        async def start(self) -> Any:
            for base in bases:
                yield Request(f"{base}/page/0")  # filtered as duplicates too, unlike start_urls

        parsed = 0

        def parse(self, response: Any) -> Any:
            BenchSpider.parsed += 1
            yield {"url": response.url}
            for href in response.css("a::attr(href)").getall():
                yield response.follow(href)

    settings = {**CRAWL_SETTINGS, **MODE_SETTINGS[mode]}
    if mode == "signed":
        from scrapy_robots_rep.signing.keys import generate_key, private_pem

        key_file = Path(tempfile.mkdtemp()) / "bench-key.pem"
        key_file.write_bytes(private_pem(generate_key()))
        settings["REP_SIGNING_KEY"] = str(key_file)
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(BenchSpider)
    process.crawl(crawler)
    if profile:
        import cProfile
        import time

        profiler = cProfile.Profile(time.process_time)  # CPU time: other work on the machine does not count
        profiler.runcall(process.start)
        profiler.dump_stats(profile)
    else:
        process.start()
    assert crawler.stats is not None
    stats = crawler.stats.get_stats()
    numbers = {key: value for key, value in stats.items() if isinstance(value, int)}
    print(json.dumps({"mode": mode, "pages": BenchSpider.parsed, "stats": numbers}))


def crawl(
    mode: str, sites: LoopbackSites, pages: int, profile: str | None = None, prefix: tuple[str, ...] = ()
) -> dict[str, Any]:
    """One crawl of ``mode`` (under ``prefix``, a command such as valgrind, if given); its report
    with ``pages``, ``requests`` (yielded) and ``robots_fetches``."""
    sites.robots_hits.clear()
    extra = ("--profile-to", profile) if profile else ()
    report = run_child(__file__, mode, sites.bases, pages, prefix=prefix, extra=extra)
    stats = report["stats"]
    report["requests"] = stats.get("scheduler/enqueued", 0) + stats.get("dupefilter/filtered", 0)
    report["robots_fetches"] = Counter(sites.robots_hits)
    expected = len(sites.bases) * pages
    crawled = stats.get("rep/requests/allowed", 0) if mode in ("rep", "signed", "robots") else report["pages"]
    if report["pages"] != expected or crawled != expected or stats.get("item_scraped_count") != expected:
        sys.exit(f"{mode}: {report['pages']} pages and {stats.get('item_scraped_count')} items, expected {expected}")
    hosts = [base.split("//", 1)[1].rsplit(":", 1)[0] for base in sites.bases]
    wanted = {0} if mode == "none" else {1}
    if {report["robots_fetches"][host] for host in hosts} != wanted:
        sys.exit(f"{mode}: robots.txt fetches per origin {sorted(report['robots_fetches'].values())}")
    return report


def measure(sites: LoopbackSites, origins: int, pages: int, rounds: int) -> None:
    per_page: dict[str, list[float]] = {mode: [] for mode in MODES}
    ratios: dict[str, list[float]] = {mode: [] for mode in MODES}
    requests = 0
    fetches: dict[str, set[int]] = {mode: set() for mode in MODES}
    hosts = [base.split("//", 1)[1].rsplit(":", 1)[0] for base in sites.bases]
    for round_number in range(rounds):
        shift = round_number % len(MODES)
        cpu: dict[str, float] = {}
        for mode in MODES[shift:] + MODES[:shift]:
            report = crawl(mode, sites, pages)
            requests = report["requests"]
            fetches[mode].update(report["robots_fetches"][host] for host in hosts)
            cpu[mode] = report["process_cpu_seconds"] / report["pages"]
            per_page[mode].append(cpu[mode])
        for mode in MODES:
            ratios[mode].append(cpu[mode] / cpu["none"])
        print(
            f"round {round_number + 1}: CPU ms per page "
            + "  ".join(f"{mode} {cpu[mode] * 1e3:.3f}" for mode in MODES)
            + f"  ratios builtin {ratios['builtin'][-1]:.3f} rep {ratios['rep'][-1]:.3f}",
            flush=True,
        )
    total = origins * pages
    print(
        f"\n{total} pages ({origins} origins x {pages} pages of 30-60 KB), {requests} requests yielded "
        f"({requests / total:.1f} per page, {1 - total / requests:.1%} already seen); "
        f"{rounds} interleaved round(s); CPU of each whole crawl process"
    )
    print(f"{'mode':8} {'CPU ms/page':>12} {'vs none':>8} {'rounds':>15} {'robots.txt fetches per origin':>30}")
    for mode in MODES:
        low, high = min(ratios[mode]), max(ratios[mode])
        print(
            f"{mode:8} {statistics.median(per_page[mode]) * 1e3:12.3f} {statistics.median(ratios[mode]):8.3f} "
            f"{f'{low:.3f}-{high:.3f}':>15} {'/'.join(map(str, sorted(fetches[mode]))):>30}"
        )


def instructions(
    origins: int, pages: int, files: list[bytes], serve: Any, modes: list[str], keep: Path | None = None
) -> None:
    """Each mode's instructions per page: a crawl of one site, then of ``origins`` sites; with ``keep``,
    callgrind's output of each crawl is left there (``<mode>-<sites>.callgrind``, for callgrind_annotate)."""
    counts: dict[str, list[int]] = {}
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
    for mode in modes:
        for size in (1, origins):
            sites = LoopbackSites(size, files, serve)
            try:
                with tempfile.TemporaryDirectory() as scratch:
                    output = (keep or Path(scratch)) / f"{mode}-{size}.callgrind"
                    command = ("valgrind", "--tool=callgrind", f"--callgrind-out-file={output}")
                    crawl(mode, sites, pages, prefix=command)
                    totals = re.search(rb"^totals: (\d+)", output.read_bytes(), re.MULTILINE)
            finally:
                sites.stop()
            if totals is None:
                sys.exit(f"no instruction count in callgrind's output for {mode}")
            counts.setdefault(mode, []).append(int(totals.group(1)))
            print(f"{mode} {size} site(s): {int(totals.group(1)):,} instructions", flush=True)
    print(f"\ninstructions per page: the pages of {origins - 1} more site(s) of {pages} pages, callgrind")
    per_page = {mode: (many - one) / ((origins - 1) * pages) for mode, (one, many) in counts.items()}
    for mode in modes:
        ratio = f"{per_page[mode] / per_page['none']:8.3f}" if "none" in per_page else ""
        print(f"{mode:8} {per_page[mode]:14,.0f} {ratio}")


def profile(sites: LoopbackSites, pages: int, folder: Path, modes: list[str]) -> None:
    import pstats

    folder.mkdir(parents=True, exist_ok=True)
    for mode in modes:
        path = folder / f"{mode}.prof"
        crawl(mode, sites, pages, str(path))
        stats = pstats.Stats(str(path))
        print(f"\n{mode}: {stats.total_tt:.2f} s profiled ({path})")  # type: ignore[attr-defined]
        stats.sort_stats("tottime").print_stats(12)
        if mode == "rep":
            stats.sort_stats("cumulative").print_stats("scrapy_robots_rep", 20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smoke", action="store_true", help="4 origins x 10 pages, one round")
    parser.add_argument("--rounds", type=int, default=9, help="interleaved rounds of the three crawls")
    parser.add_argument("--shape", choices=list(SHAPES), default="deep", help="deep or broad crawl")
    parser.add_argument("--origins", type=int, help="loopback origins (sites); default: the shape's")
    parser.add_argument("--pages", type=int, help="pages of each site; default: the shape's")
    parser.add_argument("--profile", type=Path, help="each mode of --modes under cProfile, saved here")
    parser.add_argument("--instructions", action="store_true", help="instructions per page, counted by valgrind")
    parser.add_argument("--modes", default=",".join(MODES), help="with --instructions or --profile: the modes to run")
    parser.add_argument("--keep", type=Path, help="with --instructions: keep callgrind's output of each crawl here")
    parser.add_argument("--child", choices=list(MODE_SETTINGS), help=argparse.SUPPRESS)
    parser.add_argument("--bases", help=argparse.SUPPRESS)
    parser.add_argument("--profile-to", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child_crawl(args.child, args.bases.split(","), args.pages, args.profile_to)
        return

    shape_origins, shape_pages = SHAPES[args.shape]["instructions" if args.instructions else "cpu"]
    origins, pages, rounds = (args.origins or shape_origins, args.pages or shape_pages, args.rounds)
    if args.smoke:
        origins, pages, rounds = 4, 10, 1
    corpus, files = allowing_files(origins)
    print(f"robots.txt: {len(files)} files of {corpus} that allow every page to {AGENT!r}", flush=True)
    pages_served = [page(index, pages) for index in range(pages)]
    sizes = sorted(map(len, pages_served))
    print(f"pages: {sizes[0] / 1e3:.0f} to {sizes[-1] / 1e3:.0f} KB", flush=True)

    def serve(path: bytes) -> tuple[bytes, bytes]:
        return pages_served[int(path.rsplit(b"/", 1)[1])], b"text/html; charset=utf-8"

    if args.instructions:
        instructions(max(2, origins), pages, files, serve, args.modes.split(","), args.keep)
        return
    sites = LoopbackSites(origins, files, serve)
    try:
        if args.profile:
            profile(sites, pages, args.profile, args.modes.split(","))
        else:
            measure(sites, origins, pages, rounds)
    finally:
        sites.stop()


if __name__ == "__main__":
    main()
