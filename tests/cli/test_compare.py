"""``check --compare``: both matching modes side by side for the same URLs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.console import run

ROBOTS = """\
User-agent: *
Disallow: /shop
Allow: /shop/catalog
Crawl-delay: 2

User-agent: mybot
Disallow: /private
User-agent: mybot
Crawl-delay: 5
Disallow: /tmp

Sitemap: https://example.com/sitemap.xml
"""


@pytest.fixture
def robots_file(tmp_path: Path) -> str:
    path = tmp_path / "robots.txt"
    path.write_text(ROBOTS)
    return str(path)


def test_compare_shows_each_mode_per_url_and_exits_1_when_they_differ(capsys, robots_file):
    status, out, _ = run(
        capsys,
        "check",
        robots_file,
        "https://example.com/shop/catalog/books",
        "https://example.com/about",
        "--agent",
        "somebot",
        "--compare",
    )

    assert status == 1
    assert out.splitlines() == [
        "agent 'somebot', matching rfc9309 and legacy compared",
        f"robots.txt {robots_file}: read from file",
        "  crawl-delay 2 s",
        "  sitemap     https://example.com/sitemap.xml",
        "",
        "https://example.com/shop/catalog/books  (the modes differ)",
        "  rfc9309  allowed     group line 1  rule line 3: Allow: /shop/catalog  (longest match)",
        "  legacy   disallowed  group line 1  rule line 2: Disallow: /shop  (first match)",
        "",
        "https://example.com/about  (same in both modes)",
        "  rfc9309  allowed     group line 1  rule none  (no rule matched)",
        "  legacy   allowed     group line 1  rule none  (no rule matched)",
    ]


def test_compare_exits_0_when_the_modes_agree(capsys, robots_file):
    status, out, _ = run(capsys, "check", robots_file, "https://example.com/about", "--agent", "x", "--compare")

    assert status == 0
    assert "(same in both modes)" in out


def test_groups_and_facts_that_differ_are_shown_per_mode(capsys, robots_file):
    # rfc9309 merges both mybot groups (delay 5, /tmp disallowed); legacy takes the first record only.
    status, out, _ = run(capsys, "check", robots_file, "https://example.com/tmp/a", "--agent", "mybot", "--compare")

    assert status == 1
    assert out.splitlines()[2:] == [
        "  sitemap     https://example.com/sitemap.xml",
        "  rfc9309  crawl-delay 5 s",
        "",
        "https://example.com/tmp/a  (the modes differ)",
        "  rfc9309  disallowed  group lines 6, 8  rule line 10: Disallow: /tmp  (longest match)",
        "  legacy   allowed     group line 6  rule none  (no rule matched)",
    ]


def test_compare_json(capsys, robots_file):
    status, out, _ = run(
        capsys,
        "check",
        robots_file,
        "https://example.com/shop/catalog/books",
        "--agent",
        "somebot",
        "--compare",
        "--json",
    )

    document = json.loads(out)
    assert status == 1
    assert (document["agent"], document["matching"]) == ("somebot", ["rfc9309", "legacy"])
    [result] = document["robots"]["results"]
    assert (result["url"], result["differ"]) == ("https://example.com/shop/catalog/books", True)
    assert (result["rfc9309"]["verdict"], result["rfc9309"]["rule"]["line"]) == ("allowed", 3)
    assert (result["legacy"]["verdict"], result["legacy"]["rule"]["line"]) == ("disallowed", 2)
    assert result["legacy"]["group_lines"] == [{"line": 1, "text": "User-agent: *"}]
