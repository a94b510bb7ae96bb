"""``audit report`` without a browser: filters, the URL table's cap, time buckets, versions and changes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scrapy_robots_rep.audit import AuditTrail
from scrapy_robots_rep.audit.report import BUCKETS_KEPT, URLS_KEPT, read_report
from scrapy_robots_rep.audit.times import any_rfc3339
from scrapy_robots_rep.cli import main

OLD = b"User-agent: *\nDisallow: /old\n"
NEW = b"User-agent: *\nDisallow: /old\nDisallow: /new\nContent-Usage: train-ai=n\n"
START = 1_795_000_000.0  # 2026-11-18


def write_trail(directory: Path, decisions: int) -> None:
    """Two origins; a's robots.txt changes halfway; one decision a second."""
    trail = AuditTrail(directory, common={"agent": "bot", "matching": "rfc9309", "status_policy": "rfc9309"})
    old, new = trail.store_body(OLD), trail.store_body(NEW)
    change = {"added": [{"line": 3, "text": "Disallow: /new"}], "removed": [], "crawl_delay": None}
    for origin, sha256, when, changed in (
        ("http://a.example", old, START, None),
        ("http://b.example", old, START, None),
        ("http://a.example", new, START + decisions / 2, change),
    ):
        trail.fetch({"time": any_rfc3339(when), "origin": origin, "status": 200, "sha256": sha256, "changed": changed})
    for number in range(decisions):
        origin = "http://a.example" if number % 2 else "http://b.example"
        refused = number % 4 == 1
        trail.decision(
            {
                "time": any_rfc3339(START + number),
                "url": f"{origin}/{'old' if refused else 'page'}/{number}",
                "origin": origin,
                "decision": "disallowed" if refused else "allowed",
                "sha256": old,
                "group": ["*"],
                "rule": {"line": 2, "text": "Disallow: /old"} if refused else None,
                "reason": "longest match" if refused else "no rule matched",
            }
        )
    trail.close()


def test_the_report_counts_everything_keeps_the_last_urls_and_filters(tmp_path: Path) -> None:
    decisions = 2 * URLS_KEPT + 2 * BUCKETS_KEPT + 10
    write_trail(tmp_path / "audit", decisions)
    report = read_report(tmp_path / "audit")
    a, b = report.origins["http://a.example"], report.origins["http://b.example"]
    refused = len([number for number in range(decisions) if number % 4 == 1])
    assert report.outcomes == {"allowed": decisions - refused, "disallowed": refused}
    assert a.outcomes["disallowed"] == refused and b.outcomes["disallowed"] == 0
    # The URL table keeps each origin's last decisions; the counts cover them all.
    assert len(a.urls) == URLS_KEPT and a.urls[-1].url.endswith(f"/{decisions - 1}")
    # More seconds than buckets kept: the buckets widen, every decision still counted.
    assert a.width == 10 and len(a.by_time) <= BUCKETS_KEPT
    assert sum(sum(counts.values()) for counts in report.by_time.values()) == decisions
    # Versions in force, the change, the usage line, the refusing rule.
    assert len(a.versions) == 2 and len(b.versions) == 1 and a.versions[0].sha256 == b.versions[0].sha256
    assert a.versions[1].changed is not None and a.versions[1].changed["added"][0]["text"] == "Disallow: /new"
    assert [(line.number, line.text) for line in a.versions[1].usage_lines] == [(4, "Content-Usage: train-ai=n")]
    assert [line.kind for line in a.versions[1].lines] == ["", "disallow", "disallow", "usage"]
    assert a.refusing.most_common(1)[0][0][1:] == (2, "Disallow: /old")

    page = tmp_path / "a.html"
    half = any_rfc3339(START + decisions / 2)
    assert (
        main(
            [
                "audit",
                "report",
                str(tmp_path / "audit"),
                "-o",
                str(page),
                "--origin",
                "http://a.example",
                "--since",
                half,
            ]
        )
        == 0
    )
    html = page.read_text()
    assert "http://b.example" not in html
    total = re.search(r'<span id="total-decisions">(\d+)</span>', html)
    kept = len([number for number in range(decisions) if number % 2 and number >= decisions / 2])
    assert total is not None and int(total.group(1)) == kept > URLS_KEPT
    assert f"URLs (the last {URLS_KEPT} of {kept} decisions)" in html
    assert '<span class="added">+ line 3: <code>Disallow: /new</code></span>' in html
    assert "2026-11-18" in html
    with pytest.raises(SystemExit) as usage:
        main(["audit", "report", str(tmp_path / "audit"), "-o", str(page), "--since", "last week"])
    assert usage.value.code == 2


@pytest.mark.parametrize(("matching", "usage"), [("rfc9309", [2, 4, 5]), ("legacy", [4, 5])])
def test_usage_lines_are_the_lines_the_parser_reads_as_usage_fields(tmp_path: Path, matching, usage) -> None:
    """Content-Signal, Content-Usage and License lines as the crawl's matching mode reads them: rfc9309
    reads a field and its value without a colon (as Google does), legacy does not; a comment is none."""
    body = (
        b"User-agent: *\n"
        b"Content-Signal search=yes\n"
        b"# License: https://example.com/old\n"
        b"content-usage: train-ai=n\n"
        b"LICENSE : https://example.com/license\n"
        b"Disallow: /private\n"
    )
    trail = AuditTrail(tmp_path / "audit", common={"agent": "bot", "matching": matching, "status_policy": "rfc9309"})
    trail.fetch(
        {"time": any_rfc3339(START), "origin": "http://a.example", "status": 200, "sha256": trail.store_body(body)}
    )
    trail.close()

    [version] = read_report(tmp_path / "audit").origins["http://a.example"].versions

    assert [line.number for line in version.usage_lines] == usage
    assert [line.number for line in version.lines if line.kind == "usage"] == usage
