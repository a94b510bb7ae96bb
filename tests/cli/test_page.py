"""``python -m scrapy_robots_rep check --page``: a page's robots directives, from a file or a live URL.

Live pages run as subprocesses, so every fetch crawl gets a fresh Twisted reactor.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scrapy_robots_rep.cli import main
from tests.cli.console import run
from tests.sites import Reply, closed_port_url, text

ROOT = Path(__file__).resolve().parents[2]
META = '<meta name="robots" content="noindex, nofollow">'
AGENT_META = '<meta name="MyBot" content="noarchive, unavailable_after: 2099-12-31">'
PAGE = f"""<!DOCTYPE html>
<html><head><title>An article</title>
{META}
{AGENT_META}
<meta name="robots" content="noai">
</head><body><p>Hello</p></body></html>
"""


@pytest.fixture
def page_file(tmp_path: Path) -> str:
    path = tmp_path / "article.html"
    path.write_text(PAGE)
    return str(path)


def test_a_file_shows_what_applies_to_the_agent_and_which_tag_set_it(capsys, page_file):
    status, out, err = run(capsys, "check", "--page", page_file, "--agent", "MyBot/1.0 (+https://example.com/bot)")

    assert status == 1
    assert err == ""
    assert out.splitlines() == [
        "agent 'MyBot/1.0 (+https://example.com/bot)' (read as 'mybot'), page directives",
        f"page {page_file}: read from file (no headers: read as text/html)",
        "",
        "restricted  noindex, nofollow, noarchive",
        f"  noindex      noindex ({META} in the head)",
        f"  nofollow     nofollow ({META} in the head)",
        f"  noarchive    noarchive ({AGENT_META} in the head)",
        "purposes    search allowed, ai-input refused, ai-train refused",
        '  ai-input     noai (<meta name="robots" content="noai"> in the head)',
        '  ai-train     noai (<meta name="robots" content="noai"> in the head)',
        "",
        "directives",
        f"  noindex ({META} in the head): noindex",
        f"  nofollow ({META} in the head): nofollow",
        f"  noarchive ({AGENT_META} in the head): noarchive",
        f"  unavailable_after: 2099-12-31 ({AGENT_META} in the head): 2099-12-31T00:00:00+00:00 not yet passed",
        '  noai (<meta name="robots" content="noai"> in the head): ai-train=no, ai-input=no',
    ]


def test_another_agent_gets_only_the_robots_tags(capsys, page_file):
    status, out, _ = run(capsys, "check", "--page", page_file, "--agent", "otherbot")

    assert status == 1
    assert "restricted  noindex, nofollow\n" in out
    assert "noarchive" not in out and "unavailable_after" not in out


def test_a_page_without_directives_restricts_nothing_and_exits_0(capsys, tmp_path):
    path = tmp_path / "plain.html"
    path.write_text("<html><head><title>Plain</title></head><body>Hi</body></html>")

    status, out, _ = run(capsys, "check", "--page", str(path), "--agent", "mybot")

    assert status == 0
    assert out.splitlines()[2:] == [
        "",
        "restricted  nothing",
        "purposes    search allowed, ai-input allowed, ai-train allowed",
        "",
        "directives",
        "  no robots directives: nothing restricted",
    ]


def test_standard_input_is_read_as_a_page(page_file):
    completed = subprocess.run(
        [sys.executable, "-m", "scrapy_robots_rep", "check", "--page", "-", "--agent", "mybot"],
        cwd=ROOT,
        input=Path(page_file).read_text(),
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert completed.returncode == 1
    assert completed.stdout.splitlines()[1] == "page <stdin>: read from standard input (no headers: read as text/html)"
    assert "restricted  noindex, nofollow, noarchive\n" in completed.stdout


def test_json_has_the_same_content(capsys, page_file):
    status, out, _ = run(capsys, "check", "--page", page_file, "--agent", "mybot", "--json")

    document = json.loads(out)
    assert status == 1
    assert document["token"] == "mybot"
    assert document["robots"] is None
    assert document["restricted"] == {
        "noindex": f"noindex ({META} in the head)",
        "nofollow": f"nofollow ({META} in the head)",
        "noarchive": f"noarchive ({AGENT_META} in the head)",
    }
    assert set(document["refused"]) == {"ai-input", "ai-train"}
    assert document["unavailable_after"] == "2099-12-31T00:00:00+00:00"
    assert document["directives"][0] == {
        "name": "noindex",
        "value": None,
        "text": "noindex",
        "source": {"kind": "meta", "text": META, "in_head": True},
    }
    assert document["explain"][0] == f"noindex ({META} in the head): noindex"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["robots.txt", "--page", "a.html", "--agent", "mybot"], "--page reads the page"),
        (["--page", "a.html"], "the following arguments are required: --agent"),
        (["--page", "a.html", "--agent", "mybot", "--lint"], "--page cannot be combined with --lint or --compare"),
        (["--agent", "mybot"], "the following arguments are required: ROBOTS"),
    ],
)
def test_usage_errors(capsys, argv, message):
    with pytest.raises(SystemExit) as exited:
        main(["check", *argv])

    assert exited.value.code == 2
    assert message in capsys.readouterr().err


def test_a_missing_file_is_a_usage_error(capsys, tmp_path):
    with pytest.raises(SystemExit) as exited:
        main(["check", "--page", str(tmp_path / "missing.html"), "--agent", "mybot"])

    assert exited.value.code == 2
    assert f"cannot read PAGE file '{tmp_path / 'missing.html'}'" in capsys.readouterr().err


def check_live(url: str, *options: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "scrapy_robots_rep", "check", "--page", url, "--agent", "mybot", *options]
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=60)


ROBOTS = "User-agent: *\nContent-Signal: search=yes, ai-train=no\nDisallow: /private\n"
ARTICLE = Reply(
    body=b'<html><head><meta name="robots" content="nofollow"></head><body>x</body></html>',
    headers={
        "Content-Type": "text/html; charset=utf-8",
        # Two X-Robots-Tag headers (the site's headers are a dict: two spellings of the name).
        "X-Robots-Tag": "mybot: noindex",
        "x-robots-tag": "otherbot: noarchive",
    },
)


def test_a_live_page_counts_its_headers_and_its_origins_content_signal(sites):
    site = sites.start({"/robots.txt": text(ROBOTS), "/article": ARTICLE})

    completed = check_live(f"{site.url}/article")

    assert completed.returncode == 1, completed.stderr
    assert completed.stdout.splitlines() == [
        "agent 'mybot', page directives",
        f"page {site.url}/article: returned 200 (text/html; charset=utf-8)",
        f"robots.txt {site.url}/robots.txt: robots.txt returned 200: rules parsed",
        "  fetching     allowed (no rule matched)",
        "",
        "restricted  noindex, nofollow",
        "  noindex      noindex (header X-Robots-Tag: mybot: noindex)",
        '  nofollow     nofollow (<meta name="robots" content="nofollow"> in the head)',
        "purposes    search allowed, ai-input allowed, ai-train refused",
        "  ai-train     ai-train=no (robots.txt Content-Signal)",
        "",
        "directives",
        "  noindex (header X-Robots-Tag: mybot: noindex): noindex",
        '  nofollow (<meta name="robots" content="nofollow"> in the head): nofollow',
        "  noarchive (header X-Robots-Tag: otherbot: noarchive): ignored, scoped to another agent",
        "  search=yes (robots.txt Content-Signal)",
        "  ai-train=no (robots.txt Content-Signal)",
    ]
    assert site.paths() == ["/robots.txt", "/article"]
    assert {hit.headers["User-Agent"] for hit in site.hits()} == {"mybot"}


def test_a_page_robots_txt_disallows_is_still_shown(sites):
    site = sites.start({"/robots.txt": text(ROBOTS)})

    completed = check_live(f"{site.url}/private/a", "--json")

    document = json.loads(completed.stdout)
    assert completed.returncode == 1
    assert document["robots"] == {
        "location": f"{site.url}/robots.txt",
        "status": 200,
        "outcome": "rules",
        "summary": "robots.txt returned 200: rules parsed",
        "content_signals": {"search": True, "ai-train": False},
        "fetching": "disallowed",
        "rule": "Disallow: /private",
        "reason": "longest match",
    }
    assert document["restricted"] == {}
    assert site.paths() == ["/robots.txt", "/private/a"]


def test_a_non_html_page_is_judged_by_its_headers_only(sites):
    pdf = Reply(
        body=b'%PDF-1.4 <meta name="robots" content="nofollow">',
        headers={"Content-Type": "application/pdf", "X-Robots-Tag": "noindex"},
    )
    site = sites.start({"/robots.txt": text("Not here", status=404), "/doc.pdf": pdf})

    completed = check_live(f"{site.url}/doc.pdf")

    assert completed.returncode == 1
    lines = completed.stdout.splitlines()
    assert lines[2:4] == [
        f"robots.txt {site.url}/robots.txt: robots.txt returned 404: rfc9309 policy allows everything",
        "  fetching     allowed (robots.txt returned 404)",
    ]
    assert "restricted  noindex\n" in completed.stdout
    assert completed.stdout.endswith(
        "directives\n  noindex (header X-Robots-Tag: noindex): noindex\n  the body was not read: not an HTML response\n"
    )


def test_a_redirected_page_says_where_it_ended(sites):
    site = sites.start({"/old": Reply(status=301, headers={"Location": "/new"})})

    completed = check_live(f"{site.url}/old")

    assert completed.returncode == 0
    assert (
        completed.stdout.splitlines()[1]
        == f"page {site.url}/old: returned 200 (text/html), redirected to {site.url}/new"
    )


def test_a_page_that_cannot_be_fetched_exits_2():
    url = closed_port_url()

    completed = check_live(f"{url}/page")

    assert completed.returncode == 2
    assert completed.stdout == ""
    assert completed.stderr.startswith(f"error: could not fetch the page {url}/page: ")
