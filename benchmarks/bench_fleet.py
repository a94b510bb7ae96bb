"""A fleet of Scrapy processes over one scrapy-redis queue, with and without the Redis cache.

    python benchmarks/bench_fleet.py [--origins 100] [--pages 10] [--workers 1 2 4] [--smoke]

Serves ``--origins`` loopback origins (each on its own 127.0.0.x address) with ``--pages``
allowed pages and one disallowed page each, and a robots.txt answered after
``--robots-delay`` seconds (a robots.txt fetch is not instant on the Internet either). For
each worker count, the same URLs are crawled by that many worker processes sharing one
scrapy-redis queue, once with the in-memory cache only and once with
``REP_CACHE_BACKEND = "scrapy_robots_rep.RedisStore"``. Reported from the servers' own request
logs: robots.txt fetches per origin, disallowed pages fetched (must be 0), and pages/s from the
first page to the last one (worker start-up and idle shutdown excluded). Needs redis-server
(Debian package) and the ``redis`` and ``scrapy-redis`` Python packages.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.redis.fleet import Worker, push, stop_all  # noqa: E402
from tests.redis.server import MISSING, RedisServer, find_redis_server  # noqa: E402
from tests.sites import Reply, Site, Sites  # noqa: E402

ROBOTS = b"User-agent: *\nDisallow: /private\n"


@dataclass
class Run:
    workers: int
    backend: str
    robots_per_origin: float
    max_robots_per_origin: int
    disallowed_fetched: int
    pages: int
    seconds: float
    pages_per_second: float


def start_site(sites: Sites, pages: int, robots_delay: float) -> Site:
    routes = {"/robots.txt": Reply(body=ROBOTS, headers={"Content-Type": "text/plain"}, delay=robots_delay)}
    return sites.start(routes)


def urls(origins: list[Site], pages: int) -> list[str]:
    paths = [f"/page/{number}" for number in range(pages)] + ["/private/0"]
    return [origin.url + path for origin in origins for path in paths]


def crawl(origins: list[Site], pages: int, workers: int, with_cache: bool, workdir: Path, executable: str) -> Run:
    """One crawl of every origin by ``workers`` processes, on a fresh Redis (queue and cache)."""
    queue = cache = RedisServer(executable)
    queue.start()
    try:
        for origin in origins:
            origin.log.clear()
        push(queue, urls(origins, pages))
        started = [
            Worker.start(f"w{number}", workdir, queue, cache if with_cache else None, lock_timeout=10.0)
            for number in range(workers)
        ]
        for worker in started:
            worker.finish(timeout=600)
    finally:
        queue.stop()
    hits = [hit for origin in origins for hit in origin.hits()]
    page_hits = [hit for hit in hits if hit.path.startswith("/page/")]
    robots_counts = [len(origin.hits("/robots.txt")) for origin in origins]
    seconds = max(hit.time for hit in page_hits) - min(hit.time for hit in page_hits)
    return Run(
        workers=workers,
        backend="redis" if with_cache else "memory",
        robots_per_origin=sum(robots_counts) / len(origins),
        max_robots_per_origin=max(robots_counts),
        disallowed_fetched=sum(1 for hit in hits if hit.path.startswith("/private")),
        pages=len(page_hits),
        seconds=round(seconds, 3),
        pages_per_second=round(len(page_hits) / seconds, 1) if seconds else float("inf"),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--origins", type=int, default=100)
    parser.add_argument("--pages", type=int, default=10, help="allowed pages per origin")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--robots-delay", type=float, default=0.2, help="seconds each robots.txt takes")
    parser.add_argument("--smoke", action="store_true", help="a tiny run: 10 origins, 3 pages, 1 and 2 workers")
    parser.add_argument("--json", type=Path, help="also write the results here")
    options = parser.parse_args()
    if options.smoke:
        options.origins, options.pages, options.workers = 10, 3, [1, 2]
    executable = find_redis_server()
    if executable is None:
        sys.exit(MISSING)

    runs: list[Run] = []
    with Sites() as sites, tempfile.TemporaryDirectory() as workdir:
        origins = [start_site(sites, options.pages, options.robots_delay) for _ in range(options.origins)]
        try:
            for workers in options.workers:
                for with_cache in (False, True):
                    run = crawl(origins, options.pages, workers, with_cache, Path(workdir), executable)
                    runs.append(run)
                    print(
                        f"{run.workers} worker(s), {run.backend:6} cache: "
                        f"{run.robots_per_origin:.2f} robots.txt fetches/origin (max {run.max_robots_per_origin}), "
                        f"{run.pages} pages in {run.seconds:.2f}s = {run.pages_per_second:.0f} pages/s, "
                        f"disallowed fetched: {run.disallowed_fetched}",
                        flush=True,
                    )
        finally:
            stop_all(origins)
    if options.json:
        options.json.write_text(json.dumps([asdict(run) for run in runs], indent=2))
    if any(run.disallowed_fetched for run in runs):
        sys.exit("a disallowed page was fetched")


if __name__ == "__main__":
    main()
