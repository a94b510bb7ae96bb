"""The example project's demo crawl: ``scrapy crawl demo`` against its embedded demo site.

Each crawl runs as a subprocess in example_project/, as ``make demo`` runs it.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.sites import text

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
SCRAPY = str(Path(sys.executable).parent / "scrapy")


def crawl(audit: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """The demo crawl, its audit trail written to ``audit`` (not into the example project)."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [
            SCRAPY,
            "crawl",
            "demo",
            "-s",
            f"REP_AUDIT_DIR={audit}",
            "-s",
            f"REP_REPORT={audit.parent}/report.html",
            *options,
        ],
        cwd=ROOT / "example_project",
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


def report_blocks(output: str) -> dict[str, str]:
    """The report's paragraphs, keyed by their first word (the demo origin's name)."""
    return {block.split()[0]: block for block in output.split("\n\n") if block.strip()}


def counts(block: str) -> tuple[int, int, int]:
    """(allowed, disallowed, dropped) of an origin's paragraph; how many waited depends on timing."""
    found = re.search(
        r"requests: +(\d+) allowed, (\d+) disallowed, (\d+) dropped as unreachable "
        r"\(\d+ waited for robots.txt before being decided\)",
        block,
    )
    assert found is not None, block
    return int(found[1]), int(found[2]), int(found[3])


@pytest.fixture(scope="module")
def demo_audit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("demo") / "audit"


@pytest.fixture(scope="module")
def demo_crawl(demo_audit: Path) -> subprocess.CompletedProcess[str]:
    """One default demo crawl, shared by the tests that read its report."""
    return crawl(demo_audit)


def test_demo_report_shows_every_behaviour(demo_crawl):
    assert demo_crawl.returncode == 0, demo_crawl.stderr
    blocks = report_blocks(demo_crawl.stdout)
    assert blocks["robots.txt"].startswith(
        "robots.txt report: agent 'demobot', matching rfc9309, status policy rfc9309"
    )
    plain = blocks["plain"]
    assert "robots.txt: HTTP 200 -> rules\n" in plain
    assert counts(plain) == (3, 2, 0)
    assert "/private/notes.html  <- line 4: Disallow: /private" in plain
    assert "/shop/checkout  <- line 2: Disallow: /shop" in plain
    assert "/shop/catalog/books" not in plain
    assert "/admin/users  <- line 7: Disallow: /admin" in blocks["agent"]
    assert counts(blocks["agent"]) == (2, 1, 0)
    wildcards = blocks["wildcards"]
    assert "/docs/guide.pdf  <- line 2: Disallow: /*.pdf$" in wildcards
    assert "/cart?sessionid=42  <- line 3: Disallow: /*?sessionid=" in wildcards
    assert counts(wildcards) == (2, 2, 0)
    assert "robots.txt: HTTP 404 -> everything allowed\n" in blocks["missing"]
    assert "robots.txt: HTTP 403 -> everything allowed\n" in blocks["forbidden"]
    assert counts(blocks["forbidden"]) == (2, 0, 0)
    flaky = blocks["flaky"]
    assert "robots.txt: HTTP 503 -> unreachable, then HTTP 200 -> rules\n" in flaky
    assert counts(flaky) == (1, 1, 0)
    deferred = re.search(r"(\d+) waited for robots.txt", flaky)
    assert deferred is not None and int(deferred[1]) >= 1, flaky  # waited for the retry, unless it had ended
    moved = blocks["moved"]
    assert "robots.txt: HTTP 301 -> redirect followed, then HTTP 200 -> rules\n" in moved
    assert "/old/page.html  <- line 2: Disallow: /old" in moved
    assert "delay:      Crawl-delay 1 s" in blocks["slow"]
    spacing = re.search(r"pages were requested ([\d.]+), ([\d.]+) s apart", blocks["slow"])
    assert spacing is not None and min(map(float, spacing.groups())) >= 0.9
    assert counts(blocks["slow"]) == (3, 0, 0)
    sitemaps = blocks["sitemaps"]
    assert "/sitemap.xml" in sitemaps.split("sitemap:    ")[1]
    assert counts(sitemaps) == (3, 1, 0)
    assert "/drafts/next.html  <- line 2: Disallow: /drafts" in sitemaps
    assert "cdn" not in blocks
    assert counts(blocks["missing"]) == (2, 0, 0)
    assert counts(blocks["moved"]) == (1, 1, 0)
    usage = blocks["usage"]
    assert "  usage:      line 4: Content-Usage: /articles/ ai-use=n" in usage
    assert "  license:    http://127.0.0.22:" in usage and "/license.xml (RSL, not enforced)" in usage
    assert counts(usage) == (2, 1, 0)
    assert "/articles/one.html  <- line 4: Content-Usage: /articles/ ai-use=n" in usage
    assert "/articles/free/two.html" not in usage
    assert usage.splitlines()[-4:] == [
        "  items:      1 kept, 1 dropped",
        "  pages:      what each page said, and what the crawl did",
        "    /photos/three.html: Content-Usage: ai-use=n, search=y (header Content-Usage: ai-use=n, search=y)",
        "      -> item dropped",
    ]
    assert re.fullmatch(
        r"total: 30 allowed, 9 disallowed, 0 dropped as unreachable \(\d+ waited for robots.txt before being decided\)",
        blocks["total:"],
    )


@pytest.mark.parametrize("folder", ["root", "elsewhere"])
def test_demo_closes_with_a_command_that_works_as_printed(demo_crawl, demo_audit, folder, tmp_path):
    closing = report_blocks(demo_crawl.stdout)["audit"].splitlines()
    assert closing[0].startswith(f"audit trail: {demo_audit}/ (REP_AUDIT_DIR)")
    printed = closing[1].split("ask about a URL: ")[1]
    url = shlex.split(printed)[-1]
    # A fresh shell: no virtualenv on PATH, in the repository's root or any other folder.
    fresh = {"PATH": "/usr/bin:/bin", "HOME": os.environ.get("HOME", "/")}
    answer = subprocess.run(
        printed,
        shell=True,
        cwd=ROOT if folder == "root" else tmp_path,
        env=fresh,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert answer.returncode == 0, (printed, answer.stderr)
    assert answer.stdout.startswith(f"{url}: dropped")
    assert "(quoted from the stored copy)" in answer.stdout
    # The whole trail as one HTML page, written at the end of the crawl.
    page = demo_audit.parent / "report.html"
    assert closing[2] == f"  read it all in a browser: {page} (REP_REPORT), one page that works offline"
    html = page.read_text()
    assert '<span id="total-decisions">39</span>' in html and '<svg class="chart"' in html


def test_demo_report_shows_what_each_page_directive_did(demo_crawl):
    pages = report_blocks(demo_crawl.stdout)["pages"]

    assert counts(pages) == (9, 0, 0)  # 6 pages, and the 3 links their directives let the crawl follow
    assert pages.splitlines()[2:] == [
        "  robots.txt: HTTP 200 -> rules",
        "  signals:    Content-Signal search=yes, ai-train=no (enforced for ai-input)",
        pages.splitlines()[4],  # the requests line, checked above
        "  items:      7 kept, 2 dropped",
        "  pages:      what each page said, and what the crawl did",
        "    /noarchive.html: noarchive (header X-Robots-Tag: noarchive)",
        "      -> item kept, marked archive: no",
        '    /nofollow.html: nofollow (<meta name="robots" content="nofollow"> in the head)',
        "      -> item kept, 2 links not followed",
        '    /noindex.html: noindex (<meta name="robots" content="noindex"> in the head)',
        "      -> item dropped, 1 link followed",
        "    /other-bot.html: noindex, nofollow (header X-Robots-Tag: otherbot: noindex, nofollow): "
        "ignored, for another robot",
        "      -> item kept, 1 link followed",
        "    /scoped.html: noindex (header X-Robots-Tag: demobot: noindex)",
        "      -> item dropped",
        '    /sponsored.html: rel="nofollow" link to /ad.html',
        "      -> item kept, 1 link not followed, 1 followed",
    ]
    usage = report_blocks(demo_crawl.stdout)["usage"]
    # Only origins with pages that carry directives get a listing.
    assert "items:" not in demo_crawl.stdout.replace(pages, "").replace(usage, "")


def test_legacy_settings_show_the_differences(tmp_path):
    completed = crawl(tmp_path, "-s", "REP_MATCHING=legacy", "-s", "REP_STATUS_POLICY=legacy")

    assert completed.returncode == 0, completed.stderr
    blocks = report_blocks(completed.stdout)
    assert "matching legacy, status policy legacy" in blocks["robots.txt"]
    assert "/shop/catalog/books  <- line 2: Disallow: /shop" in blocks["plain"]
    assert counts(blocks["plain"]) == (2, 3, 0)
    assert counts(blocks["wildcards"]) == (4, 0, 0)
    forbidden = blocks["forbidden"]
    assert "robots.txt: HTTP 403 -> everything disallowed\n" in forbidden
    assert counts(forbidden) == (0, 2, 0)
    assert "<- robots.txt returned 403: site closed to robots" in forbidden


def test_start_urls_crawl_real_sites_without_the_demo_site(sites, tmp_path):
    site = sites.start(
        {
            "/robots.txt": text("User-agent: demobot\nDisallow: /secret\n"),
            "/": text(
                '<a href="/open.html">open</a> <a href="/secret/a.html">secret</a>',
                **{"Content-Type": "text/html"},
            ),
        }
    )

    completed = crawl(tmp_path, "-a", f"start_urls={site.url}/")

    assert completed.returncode == 0, completed.stderr
    blocks = report_blocks(completed.stdout)
    assert set(blocks) == {"robots.txt", site.url, "total:", "audit"}
    assert counts(blocks[site.url]) == (2, 1, 0)
    assert f"disallowed {site.url}/secret/a.html  <- line 2: Disallow: /secret" in blocks[site.url]
    assert sorted(site.paths()) == ["/", "/open.html", "/robots.txt"]
    assert site.hits("/")[0].headers["User-Agent"].startswith("demobot/1.0")


def comparable(report: str, audit: Path | None = None) -> str:
    """The report without what varies from run to run: ports, deferral counts, spacing, the audit directory."""
    if audit is not None:
        report = report.replace(str(audit), "/path/to/scrapy-robots-rep/example_project/audit")
        report = report.replace(
            str(audit.parent / "report.html"), "/path/to/scrapy-robots-rep/example_project/report.html"
        )
    report = report.replace(str(Path(sys.executable).parent), "/path/to/scrapy-robots-rep/.venv/bin")
    report = re.sub(r"(127\.0\.0\.\d+):\d+", r"\1:PORT", report)
    report = re.sub(r"\d+ waited for robots.txt", "N waited for robots.txt", report)
    return re.sub(r"requested [\d., ]+ s apart", "requested N s apart", report)


def test_readme_shows_the_report_make_demo_prints(demo_crawl, demo_audit):
    [shown] = re.findall(r"^```text\n(.*?)^```", README, re.MULTILINE | re.DOTALL)

    assert comparable(demo_crawl.stdout, demo_audit) == comparable(shown)
