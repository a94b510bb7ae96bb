"""What conditional revalidation saves: 1,000 origins whose robots.txt is refreshed once.

    python benchmarks/bench_revalidation.py            # 1,000 origins, 5 rounds
    python benchmarks/bench_revalidation.py --smoke    # 50 origins, one round: a smoke run

One asyncio server in this process answers every origin (``o<n>.test``, all resolved to
127.0.0.1, told apart by their ``Host`` header) with a real robots.txt from the corpus
(``tests/corpus.py``: the full corpus when present, else the shipped sample), ``max-age=1``.
A crawl, run in a subprocess so that its CPU time is its own, requests one page of every
origin, waits until the rules have expired, then requests a second page of every origin:
each of those starts one refresh. Three ways:

* ``validators``: the robots.txt came with ``ETag`` and ``Last-Modified``; the refresh is
  conditional and the server answers ``304 Not Modified``;
* ``no validators``: the refresh is a plain GET, answered 200 with the whole file, parsed again;
* ``no refresh``: ``max-age=3600``, nothing is refreshed: the cost of the second pages alone.

Reported: the robots.txt answers of the refresh as the server counted them, the bytes it sent
for them (status line, headers and body), the body bytes the crawl read (a file over
``REP_MAX_SIZE`` is cut there), and the crawl's CPU time (``time.process_time``) from the first
second page until every second page and every refresh has ended; "refresh CPU" subtracts the
``no refresh`` crawl's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass
from email.utils import formatdate
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.corpus import corpus_dir  # noqa: E402

MODES = ("validators", "no validators", "no refresh")
LAST_MODIFIED = formatdate(946684800, usegmt=True)
PAGE = b"<html><body>ok</body></html>"
PAUSE = 1.2
"""Seconds between the end of the first pages and the second ones: rules of ``max-age=1`` have expired."""

CRAWL_SETTINGS: dict[str, Any] = {
    "DOWNLOADER_MIDDLEWARES": {"scrapy_robots_rep.RobotsMiddleware": 100},
    "ROBOTSTXT_OBEY": False,
    "USER_AGENT": "benchbot/1.0 (+http://example.test/bot)",
    "CONCURRENT_REQUESTS": 64,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
    "DOWNLOAD_TIMEOUT": 30,
    "RETRY_ENABLED": False,
    "COOKIES_ENABLED": False,
    "TELNETCONSOLE_ENABLED": False,
    "LOG_LEVEL": "WARNING",
    "REP_CACHE_TTL_MIN": 0,
    "REP_CRAWL_DELAY": False,
}


@dataclass
class Refresh:
    """The second robots.txt request of every origin, as the server answered them."""

    statuses: Counter[int]
    bytes_sent: int


class RobotsServer:
    """One keep-alive HTTP/1.1 server on 127.0.0.1 for every origin, in a thread."""

    def __init__(self, bodies: list[bytes]) -> None:
        self.bodies = bodies
        self.mode = MODES[0]
        self._lock = threading.Lock()
        self._requests: Counter[str] = Counter()
        self._refresh_statuses: Counter[int] = Counter()
        self._refresh_bytes = 0
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        self._ready.wait()

    def reset(self, mode: str) -> None:
        with self._lock:
            self.mode = mode
            self._requests.clear()
            self._refresh_statuses.clear()
            self._refresh_bytes = 0

    def refresh(self) -> Refresh:
        with self._lock:
            return Refresh(Counter(self._refresh_statuses), self._refresh_bytes)

    def stop(self) -> None:
        self._loop.call_soon_threadsafe(self._server.close)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._server = self._loop.run_until_complete(asyncio.start_server(self._serve, "127.0.0.1", 0, backlog=1024))
        self.port = self._server.sockets[0].getsockname()[1]
        self._ready.set()
        self._loop.run_forever()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
                request_line, *lines = head.split("\r\n")
                fields = {
                    name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)
                }
                path = request_line.split(" ")[1]
                writer.write(
                    self._robots(fields)
                    if path == "/robots.txt"
                    else _response(200, {"Content-Type": "text/html"}, PAGE)
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    def _robots(self, fields: dict[str, str]) -> bytes:
        host = fields.get("host", "").split(":")[0]
        number = int(host.split(".")[0][1:])
        body = self.bodies[number % len(self.bodies)]
        headers = {
            "Content-Type": "text/plain",
            "Cache-Control": "max-age=3600" if self.mode == "no refresh" else "max-age=1",
        }
        if self.mode == "validators":
            headers.update(ETag=f'"r{number}"', **{"Last-Modified": LAST_MODIFIED})
        status = 304 if self.mode == "validators" and fields.get("if-none-match") == headers["ETag"] else 200
        response = _response(status, headers, b"" if status == 304 else body)
        with self._lock:
            self._requests[host] += 1
            if self._requests[host] == 2:
                self._refresh_statuses[status] += 1
                self._refresh_bytes += len(response)
        return response


def _response(status: int, headers: dict[str, str], body: bytes) -> bytes:
    reason = {200: "OK", 304: "Not Modified"}[status]
    lines = [
        f"HTTP/1.1 {status} {reason}",
        f"Date: {formatdate(usegmt=True)}",
        *(f"{k}: {v}" for k, v in headers.items()),
    ]
    if status != 304:
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def child_crawl(mode: str, port: int, origins: int) -> None:
    """The crawl (in the subprocess): first pages, pause, second pages; prints a JSON report."""
    from scrapy.utils.reactor import install_reactor

    install_reactor("twisted.internet.asyncioreactor.AsyncioSelectorReactor")
    from scrapy import Request, Spider, signals
    from scrapy.crawler import CrawlerRunner
    from twisted.internet import reactor

    from scrapy_robots_rep import signals as rep_signals
    from tests.sites import loopback_test_names

    bases = [f"http://o{number}.test:{port}" for number in range(origins)]
    counts = Counter[str]()
    changed = asyncio.Event()
    report: dict[str, Any] = {}

    def count(name: str, amount: int = 1) -> None:
        counts[name] += amount
        changed.set()

    async def until(condition: Any) -> None:
        while not condition():
            changed.clear()
            await changed.wait()

    class RefreshSpider(Spider):
        name = "bench_revalidation"

        async def start(self) -> Any:
            for base in bases:
                yield Request(f"{base}/a", callback=self.ended, errback=self.ended, dont_filter=True)
            await until(lambda: counts["ended"] >= origins and counts["obtained"] >= origins)
            await asyncio.sleep(PAUSE)
            cpu = time.process_time()
            wall = time.perf_counter()
            refreshes = counts["obtained"]
            counts["robots body bytes"] = 0
            for base in bases:
                yield Request(f"{base}/b", callback=self.ended, errback=self.ended, dont_filter=True)
            expected = origins if mode != "no refresh" else 0
            await until(lambda: counts["ended"] >= 2 * origins and counts["obtained"] - refreshes >= expected)
            report.update(
                cpu_seconds=time.process_time() - cpu,
                wall_seconds=time.perf_counter() - wall,
                body_bytes=counts["robots body bytes"],
            )

        def ended(self, _: Any) -> None:
            count("ended")

    runner = CrawlerRunner(CRAWL_SETTINGS)
    crawler = runner.create_crawler(RefreshSpider)
    crawler.signals.connect(lambda **_: count("obtained"), signal=rep_signals.robots_obtained, weak=False)

    def received(data: bytes, request: Request, **_: Any) -> None:
        if request.url.endswith("/robots.txt"):
            count("robots body bytes", len(data))

    crawler.signals.connect(received, signal=signals.bytes_received, weak=False)
    with loopback_test_names():
        finished = runner.crawl(crawler)
        finished.addBoth(lambda _: reactor.stop())
        reactor.run()
    print(json.dumps(report))


def run_child(mode: str, port: int, origins: int) -> dict[str, Any]:
    command = [sys.executable, __file__, "--child", mode, "--port", str(port), "--origins", str(origins)]
    completed = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)
    lines = completed.stdout.strip().splitlines()
    if completed.returncode != 0 or not lines or not lines[-1].startswith("{"):
        raise RuntimeError(f"{mode} crawl failed:\n{completed.stderr[-3000:]}")
    report: dict[str, Any] = json.loads(lines[-1])
    if not report:
        raise RuntimeError(f"{mode} crawl ended before its second pages did:\n{completed.stderr[-3000:]}")
    return report


def corpus_bodies(count: int) -> tuple[Path, list[bytes]]:
    folder = corpus_dir()
    files = sorted((folder / "robots").glob("*.txt"))[:count]
    return folder, [path.read_bytes() for path in files]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smoke", action="store_true", help="50 origins, one round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of the three crawls")
    parser.add_argument("--child", choices=MODES, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--origins", type=int, default=1000, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child_crawl(args.child, args.port, args.origins)
        return

    origins, rounds = (50, 1) if args.smoke else (args.origins, args.rounds)
    folder, bodies = corpus_bodies(origins)
    server = RobotsServer(bodies)
    cpu: dict[str, list[float]] = {mode: [] for mode in MODES}
    best: dict[str, dict[str, Any]] = {}
    refreshes: dict[str, Refresh] = {}
    try:
        for round_number in range(rounds):
            for mode in MODES:
                server.reset(mode)
                report = run_child(mode, server.port, origins)
                refreshes[mode] = server.refresh()
                print(
                    f"round {round_number + 1} {mode:14} {report['cpu_seconds']:.3f} s CPU "
                    f"({report['wall_seconds']:.2f} s)",
                    flush=True,
                )
                cpu[mode].append(report["cpu_seconds"])
                if mode not in best or report["cpu_seconds"] < best[mode]["cpu_seconds"]:
                    best[mode] = report
    finally:
        server.stop()

    used = sum(len(bodies[number % len(bodies)]) for number in range(origins))
    print(f"\n{origins} origins refreshed once; robots.txt from {folder} ({len(bodies)} files, {used:,} bytes in all)")
    print(f"CPU from the first second page until all second pages and refreshes ended: least and median of {rounds}")
    columns = f"{'200s':>5} {'304s':>5} {'bytes sent':>11} {'body bytes read':>16} {'CPU s':>13} {'refresh CPU s':>14}"
    print(f"{'mode':14} {columns}")
    baseline = [min(cpu["no refresh"]), statistics.median(cpu["no refresh"])]
    for mode in MODES:
        report, refresh = best[mode], refreshes[mode]
        spent = [min(cpu[mode]), statistics.median(cpu[mode])]
        extra = (
            "-" if mode == "no refresh" else " / ".join(f"{a - b:.2f}" for a, b in zip(spent, baseline, strict=True))
        )
        print(
            f"{mode:14} {refresh.statuses[200]:5} {refresh.statuses[304]:5} {refresh.bytes_sent:11,} "
            f"{report['body_bytes']:16,} {' / '.join(f'{value:.2f}' for value in spent):>13} {extra:>14}"
        )
    if refreshes["validators"].statuses[304] != origins or refreshes["no validators"].statuses[200] != origins:
        sys.exit("not every origin was refreshed once the expected way (all 304 with validators, all 200 without)")


if __name__ == "__main__":
    main()
