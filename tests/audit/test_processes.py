"""Crawls in processes of their own sharing one audit directory; one of them killed with SIGKILL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from scrapy_robots_rep.audit import AuditDirectory
from scrapy_robots_rep.audit.verify import verify
from scrapy_robots_rep.cli import main
from tests.audit.files import lines
from tests.sites import PAGE, Reply, Sites, text

ROOT = Path(__file__).resolve().parents[2]
ROBOTS = b"User-agent: *\nDisallow: /slow/7\n"


def wait_for(condition: Callable[[], bool], seconds: float = 120.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.05)


def start_crawl(directory: Path, urls: list[str], compress: bool = False) -> subprocess.Popen[bytes]:
    options = ["--compress"] if compress else []
    return subprocess.Popen(
        [sys.executable, "-m", "tests.audit.crawl_process", *options, str(directory), *urls],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def test_a_killed_crawl_leaves_whole_lines_and_a_fleet_shares_the_directory(sites: Sites, tmp_path: Path) -> None:
    slow_page = Reply(body=PAGE, headers={"Content-Type": "text/html"}, delay=0.2)
    site = sites.start({"/robots.txt": text(ROBOTS), **{f"/slow/{n}": slow_page for n in range(200)}})
    audit = tmp_path / "audit"
    killed = start_crawl(audit, [f"{site.url}/slow/{n}" for n in range(200)], compress=True)
    try:
        wait_for(lambda: len(site.hits()) >= 6)
        seen = {f"{site.url}{path}" for path in site.paths() if path != "/robots.txt"}
        # While the crawl runs, every request the server saw is in the files already: flushed, never closed.
        directory = AuditDirectory(audit)
        wait_for(lambda: seen <= {line["url"] for line in directory.lines("decisions")})
        assert killed.poll() is None
        killed.send_signal(signal.SIGKILL)
    finally:
        killed.kill()
        killed.wait()
    assert killed.returncode == -signal.SIGKILL

    # A second process of the fleet, same directory, other URLs, to the end.
    second = start_crawl(audit, [f"{site.url}/other", f"{site.url}/slow/7"])
    _, errors = second.communicate(timeout=300)
    assert second.returncode == 0, errors.decode()[-2000:]

    # The killed process wrote gzip-compressed files, the second plain ones; each its own.
    assert {path.name.rsplit("-", 1)[1] for path in audit.glob("decisions.*")} == {
        f"{killed.pid}.jsonl.gz",
        f"{second.pid}.jsonl",
    }
    decisions = lines(audit, "decisions")  # every line of both processes parses, none is cut
    urls = [line["url"] for line in decisions]
    assert seen <= set(urls)
    assert f"{site.url}/other" in urls
    assert [path.name for path in (audit / "robots").iterdir()] == [lines(audit, "fetches")[0]["sha256"] + ".txt"]
    # The directory answers as one: a URL of the killed process, and one of the second.
    assert main(["audit", str(audit), sorted(seen)[0]]) == 0
    assert main(["audit", str(audit), f"{site.url}/other"]) == 0
    # Both processes' chains hold: the killed one's up to its last flushed line, the second's to its close.
    verification = verify(audit)
    assert verification.ok, verification.problems
    assert sorted(path.name for path in audit.glob("manifest.*")) == sorted(
        f"manifest.{tag}.json" for tag in {path.name.split(".")[1] for path in audit.glob("decisions.*")}
    )
    unclosed = [
        line for line in verification.checked if line.endswith("(process did not close: killed or still running)")
    ]
    assert {line.split(":")[0].split(".")[1] for line in unclosed} == {f"{os.uname().nodename}-{killed.pid}"}
    assert main(["audit", "verify", str(audit)]) == 0
