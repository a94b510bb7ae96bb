"""What the crawl benchmarks share: loopback sites served from a thread, and crawls run in subprocesses.

``LoopbackSites`` serves every origin from one asyncio server per loopback address (each
address is its own Scrapy downloader slot, as distinct hosts would be), answering robots.txt
with ``robots`` (one body for all, or one per origin) and every other path with ``page(path)``.
``run_child`` runs one crawl of a benchmark script in a subprocess (so that reactors do not
clash) and returns its JSON report, with the CPU time the OS counted for that process;
``instruction_counts`` counts each mode's crawl under valgrind's callgrind, and one page's share.
"""

from __future__ import annotations

import asyncio
import json
import re
import resource
import subprocess
import sys
import tempfile
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent


class LoopbackSites:
    """A minimal HTTP/1.1 keep-alive server on many loopback addresses, in a thread."""

    def __init__(
        self,
        origins: int,
        robots: bytes | Sequence[bytes],
        page: Callable[[bytes], tuple[bytes, bytes]],
        network: str = "127.0",
    ) -> None:
        self.robots_hits: Counter[str] = Counter()
        self.bases: list[str] = []
        self._robots = [robots] if isinstance(robots, bytes) else list(robots)
        self._page = page
        self._network = network
        self._origins = origins
        self._servers: list[asyncio.Server] = []
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        self._ready.wait()

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._start())
        self._ready.set()
        self._loop.run_forever()

    async def _start(self) -> None:
        for index in range(self._origins):
            host = f"{self._network}.{1 + index // 250}.{1 + index % 250}"
            robots = self._robots[index % len(self._robots)]
            server = await asyncio.start_server(
                lambda r, w, h=host, b=robots: self._serve(r, w, h, b), host, 0, backlog=512
            )
            self._servers.append(server)
            self.bases.append(f"http://{host}:{server.sockets[0].getsockname()[1]}")

    async def _serve(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host: str, robots: bytes
    ) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                path = head.split(b" ", 2)[1]
                if path == b"/robots.txt":
                    self.robots_hits[host] += 1
                    body, kind = robots, b"text/plain"
                else:
                    body, kind = self._page(path)
                writer.write(
                    b"HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s" % (kind, len(body), body)
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    def stop(self) -> None:
        for server in self._servers:
            self._loop.call_soon_threadsafe(server.close)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)


def run_child(
    script: str, mode: str, bases: list[str], pages: int, prefix: Sequence[str] = (), extra: Sequence[str] = ()
) -> dict[str, Any]:
    """Run one crawl of ``script`` (``--child MODE``, then ``extra`` arguments) in a subprocess, under
    ``prefix`` (a command such as valgrind) if given; return its JSON report, plus
    ``process_cpu_seconds``: the user + system CPU time of the whole process, as the OS counted it.

    One child runs at a time, so the growth of this process's ``RUSAGE_CHILDREN`` is that child's.
    """
    command = [*prefix, sys.executable, script, "--child", mode, "--pages", str(pages), "--bases", ",".join(bases)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    completed = subprocess.run([*command, *extra], cwd=REPO, capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if completed.returncode != 0:
        raise RuntimeError(f"{mode} crawl failed:\n{completed.stderr[-3000:]}")
    report: dict[str, Any] = json.loads(completed.stdout.strip().splitlines()[-1])
    report["process_cpu_seconds"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return report


def callgrind_instructions(script: str, mode: str, bases: list[str], pages: int) -> int:
    """The CPU instructions of one crawl of ``script``, counted by valgrind's callgrind."""
    with tempfile.NamedTemporaryFile(suffix=".callgrind") as output:
        run_child(
            script, mode, bases, pages, prefix=("valgrind", "--tool=callgrind", f"--callgrind-out-file={output.name}")
        )
        totals = re.search(rb"^totals: (\d+)", Path(output.name).read_bytes(), re.MULTILINE)
    if totals is None:
        sys.exit(f"no instruction count in callgrind's output for {mode}")
    return int(totals.group(1))


def instruction_counts(script: str, modes: Sequence[str], bases: list[str], pages: int) -> tuple[dict[str, int], float]:
    """Each mode's crawl of ``pages`` under callgrind, and the instructions of one page in the first
    mode (the plugin off): the difference of two crawl sizes over their difference in pages."""
    counts = {mode: callgrind_instructions(script, mode, bases, pages) for mode in modes}
    smaller = callgrind_instructions(script, modes[0], bases, pages // 4)
    return counts, (counts[modes[0]] - smaller) / (pages - pages // 4)
