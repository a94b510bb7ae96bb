"""The audit trail of a real crawl (docs/evidence.md), judged by what the servers saw and by the files."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest_twisted
from warcio.archiveiterator import ArchiveIterator

from scrapy_robots_rep.audit.times import parse_rfc3339
from scrapy_robots_rep.cli import main
from scrapy_robots_rep.exceptions import RobotsDisallowed, RobotsUnreachable
from tests.audit.files import lines
from tests.crawling import AGENT, BASE_SETTINGS, crawl
from tests.project import in_example_project
from tests.sites import Reply, Sites, redirect, text

# A byte order mark, CRLF line ends and non-ASCII text: stored byte for byte, quoted by line.
ROBOTS = (
    "\ufeff# Règles du site — ünïcode\r\n"
    "User-agent: *\r\n"
    "Disallow: /privé\r\n"
    "Disallow: /private\r\n"
    "Allow: /private/open\r\n"
    "Content-Signal: ai-train=no\r\n"
).encode()
NOINDEX_PAGE = b'<html><head><meta name="robots" content="noindex, nofollow"></head><body>x</body></html>'


@contextmanager
def time_zone(name: str) -> Iterator[None]:
    """Run with the process's local time zone set to ``name``."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = name
    time.tzset()
    try:
        yield
    finally:
        if before is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = before
        time.tzset()


def items_and_links(response: Any, spider: Any) -> Iterator[Any]:
    yield {"url": response.url}
    yield response.follow("/linked-from-page")


@pytest_twisted.ensureDeferred
async def test_every_decision_fetch_and_page_is_written(sites: Sites, tmp_path: Path) -> None:
    rules = sites.start(
        {"/robots.txt": text(ROBOTS), "/noindex": Reply(body=NOINDEX_PAGE, headers={"Content-Type": "text/html"})}
    )
    missing = sites.start({"/robots.txt": text("gone", status=404)})
    down = sites.start({"/robots.txt": text("", status=503)})
    moved = sites.start({"/robots.txt": redirect(f"{rules.url}/robots.txt")})
    audit = tmp_path / "audit"
    urls = [
        f"{rules.url}/page",
        f"{rules.url}/private/secret",
        f"{rules.url}/private/open",
        f"{rules.url}/noindex",
        f"{missing.url}/anything",
        f"{down.url}/waits",
        f"{moved.url}/private/x",
    ]
    started = time.time()
    with time_zone("Asia/Kolkata"):
        result = await crawl(
            urls,
            page=items_and_links,
            settings={
                "REP_AUDIT_DIR": str(audit),
                "REP_AUDIT_WARC": True,
                "REP_PROVENANCE_FIELD": "robots_provenance",
                "REP_DEFER_MAX_TIME": 0,
                "SPIDER_MIDDLEWARES": {"scrapy_robots_rep.PageDirectivesMiddleware": 550},
            },
        )
    ended = time.time()
    failures = result.failures
    assert failures[f"{rules.url}/private/secret"] is RobotsDisallowed
    assert failures[f"{down.url}/waits"] is RobotsUnreachable

    # One decisions line per request a server saw (robots.txt aside), and one per dropped request.
    decisions = lines(audit, "decisions")
    seen = [
        f"{site.url}{path}" for site in (rules, missing, down, moved) for path in site.paths() if path != "/robots.txt"
    ]
    allowed = sorted(line["url"] for line in decisions if line["decision"] == "allowed")
    assert allowed == sorted(seen)
    dropped = {line["url"]: line for line in decisions if line["decision"] != "allowed"}
    assert set(dropped) == {f"{rules.url}/private/secret", f"{down.url}/waits", f"{moved.url}/private/x"}
    assert len(decisions) == len(seen) + len(dropped)

    secret = dropped[f"{rules.url}/private/secret"]
    stored = (audit / "robots" / f"{secret['sha256']}.txt").read_bytes()
    assert stored == ROBOTS  # byte for byte: BOM, CRLF, non-ASCII
    assert secret["rule"] == {"line": 4, "text": "Disallow: /private"}
    assert secret["group"] == ["*"]
    assert (secret["agent"], secret["user_agent"]) == (AGENT, BASE_SETTINGS["USER_AGENT"])
    assert dropped[f"{down.url}/waits"]["decision"] == "dropped_unreachable"
    # The redirect's target body decided for the origin first asked, and is stored once.
    assert dropped[f"{moved.url}/private/x"]["sha256"] == secret["sha256"]
    assert [path.name for path in (audit / "robots").iterdir()] == [f"{secret['sha256']}.txt"]

    # Times are RFC 3339 UTC whatever TZ says.
    for line in decisions + lines(audit, "fetches") + lines(audit, "pages"):
        assert line["time"].endswith("Z")
        assert started - 1 <= parse_rfc3339(line["time"]) <= ended + 1

    fetches = {line["origin"]: line for line in lines(audit, "fetches")}
    assert fetches[rules.url]["outcome"] == "rules" and fetches[rules.url]["status"] == 200
    assert fetches[missing.url]["outcome"] == "allow_all" and fetches[missing.url]["sha256"] is None
    assert fetches[down.url]["outcome"] == "unreachable" and fetches[down.url]["error"]
    assert fetches[moved.url]["redirects"] == [f"{rules.url}/robots.txt"]

    # Pages: what each page said and what was dropped because of it.
    pages = {line["url"]: line for line in lines(audit, "pages")}
    noindex = pages[f"{rules.url}/noindex"]
    assert noindex["noindex"] and noindex["nofollow"] and not noindex["noarchive"]
    assert noindex["dropped"] == {"items/noindex": 1, "requests/nofollow": 1}
    assert noindex["purposes"]["ai-train"] is False and noindex["purposes"]["search"] is True
    assert any("noindex" in source for source in noindex["sources"])
    assert pages[f"{rules.url}/page"]["dropped"] == {} and not pages[f"{rules.url}/page"]["noindex"]

    # Provenance: on the response and on every item.
    page = result.by_url()[f"{rules.url}/page"].response
    assert page is not None
    provenance = page.meta["robots_provenance"]
    assert provenance["sha256"] == secret["sha256"] and provenance["status"] == 200
    assert provenance["page"]["purposes"]["ai-train"] is False
    items = {item["url"]: item for item in result.items}
    assert items[f"{rules.url}/page"]["robots_provenance"]["sha256"] == secret["sha256"]
    assert items[f"{missing.url}/anything"]["robots_provenance"]["sha256"] is None
    assert f"{rules.url}/noindex" not in items

    # WARC: request and response records of every robots.txt fetch, the 404, the 503 and the
    # redirect hop included, with digests warcio checks.
    (warc,) = audit.glob("robots.*.warc.gz")
    records = []
    with warc.open("rb") as stream:
        for record in ArchiveIterator(stream, check_digests="raise"):
            content = record.content_stream().read()
            status = record.http_headers.get_statuscode() if record.rec_type == "response" else None
            records.append((record.rec_type, record.rec_headers.get_header("WARC-Target-URI"), status, content))
            assert record.rec_headers.protocol == "WARC/1.1"
    robots_hits = sum(len(site.hits("/robots.txt")) for site in (rules, missing, down, moved))
    assert sum(kind == "request" for kind, *_ in records) == robots_hits
    statuses = sorted(status for kind, _, status, _ in records if kind == "response")
    assert statuses == sorted(["200", "200", "301", "404", "503"])
    assert ("response", f"{rules.url}/robots.txt", "200", ROBOTS) in records


@pytest_twisted.ensureDeferred
async def test_the_audit_command_answers_for_a_crawl(sites: Sites, tmp_path: Path, capsys: Any) -> None:
    site = sites.start({"/robots.txt": text(ROBOTS)})
    audit = tmp_path / "audit"
    await crawl([f"{site.url}/page", f"{site.url}/private/secret"], settings={"REP_AUDIT_DIR": str(audit)})
    capsys.readouterr()

    assert main(["audit", str(audit), f"{site.url}/private/secret"]) == 0
    said = capsys.readouterr().out
    assert said.startswith(f"{site.url}/private/secret: dropped")
    assert "rule: line 4: 'Disallow: /private' (quoted from the stored copy)" in said
    assert "status 200, outcome rules" in said

    assert main(["audit", str(audit), f"{site.url}/page", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["verdict"] == "fetched" and answer["decision"]["decision"] == "allowed"
    assert answer["robots_txt"]["fetch"]["status"] == 200
    assert Path(answer["robots_txt"]["path"]).read_bytes() == ROBOTS

    # Inside a project: scrapy robots audit, the same answer.
    project = in_example_project("robots", "audit", str(audit), f"{site.url}/private/secret")
    assert project.returncode == 0, project.stderr
    assert "rule: line 4: 'Disallow: /private' (quoted from the stored copy)" in project.stdout

    # python -m scrapy_robots_rep audit: the same command.
    assert main(["audit", str(audit), f"{site.url}/private/secret", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["robots_txt"]["rule_quoted"] == "Disallow: /private"

    assert main(["audit", str(audit), f"{site.url}/never"]) == 1
    assert capsys.readouterr().out.strip() == f"{site.url}/never: never seen"
    # Before the crawl, the URL had not been seen.
    assert main(["audit", str(audit), f"{site.url}/page", "--at", "2001-01-01T00:00:00Z"]) == 1
