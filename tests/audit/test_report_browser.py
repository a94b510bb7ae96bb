"""The HTML report of a real crawl, opened in a real browser (Debian's chromium, headless, offline).

One crawl writes the page at its end (``REP_REPORT = "report.html"``); ``audit report`` writes the
same page from the trail. Chromium opens it with the network off: its DOM shows the trail's
numbers, the charts drawn, and a hostile robots.txt's ``<script>`` as text that never ran.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest_twisted

from scrapy_robots_rep.cli import main
from tests.audit.files import lines
from tests.crawling import crawl
from tests.sites import Reply, Sites, text

HOSTILE = (
    b"# <script>document.title='PWNED';document.body.dataset.pwned='yes'</script>\n"
    b"User-agent: *\n"
    b"Disallow: /closed\n"
    b"Disallow: /private\n"
    b"Content-Signal: ai-train=no\n"
)
PLAIN = b"User-agent: *\nDisallow: /admin\nAllow: /\n"
NOINDEX_PAGE = b'<html><head><meta name="robots" content="noindex"></head><body><a href="/x">x</a></body></html>'
OFFLINE = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND",
    "--proxy-server=http://127.0.0.1:9",
    "--window-size=1280,1400",
)


def an_item(response: Any, spider: Any) -> Iterator[Any]:
    yield {"url": response.url}


def chromium(tmp_path: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    browser = shutil.which("chromium")
    assert browser is not None, "Debian's chromium is needed (make test installs it)"
    profile = tmp_path / "chromium-profile"
    command = [browser, *OFFLINE, f"--user-data-dir={profile}", *arguments]
    return subprocess.run(command, capture_output=True, text=True, timeout=180, check=True)


@pytest_twisted.ensureDeferred
async def test_the_report_opens_offline_in_chromium_with_the_trails_numbers(sites: Sites, tmp_path: Path) -> None:
    hostile = sites.start(
        {"/robots.txt": text(HOSTILE), "/noindex": Reply(body=NOINDEX_PAGE, headers={"Content-Type": "text/html"})}
    )
    plain = sites.start({"/robots.txt": text(PLAIN)})
    audit, page = tmp_path / "audit", tmp_path / "report.html"
    urls = [f"{hostile.url}/open", f"{hostile.url}/private/a", f"{hostile.url}/closed", f"{hostile.url}/noindex"]
    urls += [f"{plain.url}/a", f"{plain.url}/admin/b", f"{plain.url}/c"]
    await crawl(
        urls,
        page=an_item,
        settings={
            "REP_AUDIT_DIR": str(audit),
            "REP_REPORT": str(page),
            "SPIDER_MIDDLEWARES": {"scrapy_robots_rep.PageDirectivesMiddleware": 550},
        },
    )
    decisions = lines(audit, "decisions")
    outcomes = Counter(line["decision"] for line in decisions)
    assert outcomes["disallowed"] == 3 and outcomes["allowed"] >= 4
    assert main(["audit", "verify", str(audit)]) == 0

    # The end-of-crawl page and the command's are the same page (but for when each was made).
    again = tmp_path / "again.html"
    assert main(["audit", "report", str(audit), "-o", str(again)]) == 0
    generated = re.compile(r"generated [0-9TZ:.-]+")
    html = page.read_text()
    assert generated.sub("", html) == generated.sub("", again.read_text())

    # Nothing in the file reaches the network: links stay in the page, nothing is loaded.
    assert re.findall(r"""\b(?:src|href|action)\s*=\s*(?!["']?#)""", html) == []
    assert "url(" not in html and "@import" not in html
    assert "<script>document.title" not in html

    dom = chromium(tmp_path, "--dump-dom", page.as_uri()).stdout
    screenshot = tmp_path / "report.png"
    chromium(tmp_path, f"--screenshot={screenshot}", page.as_uri())
    assert screenshot.stat().st_size > 10_000

    # The page's own script ran (it marks the body); the robots.txt's did not, and shows as text.
    body = re.search(r"<body[^>]*>", dom)
    assert body is not None and 'data-filters="2"' in body.group(0) and "pwned" not in body.group(0)
    assert "<title>robots.txt compliance report" in dom and "PWNED</title>" not in dom
    assert "# &lt;script&gt;document.title='PWNED'" in dom

    # The trail was verified, and the page says so.
    assert '<p id="verification" class="holds">' in dom
    # The numbers shown are the trail's.
    total = re.search(r'<span id="total-decisions">(\d+)</span>', dom)
    assert total is not None and int(total.group(1)) == len(decisions)
    shown = dict(re.findall(r'<span class="n" data-outcome="(\w+)">(\d+)</span>', dom))
    assert {name: int(count) for name, count in shown.items()} == dict(outcomes)
    assert f"{hostile.url}/private/a" in dom and 'href="#o1-' in dom
    # The charts are drawn: one for the crawl and one per origin, bars as SVG rectangles.
    assert len(re.findall(r'<svg class="chart"', dom)) == 3
    assert len(re.findall(r"<rect ", dom)) >= 3
    # Page-level drops and the usage lines of the hostile origin.
    assert "items/noindex" in dom
    assert "Content-Signal: ai-train=no" in dom
