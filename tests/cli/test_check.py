"""``python -m scrapy_robots_rep check`` on files and standard input: text, JSON, exit status."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scrapy_robots_rep.cli import main
from tests.cli.console import run

ROBOTS = """\
User-agent: *
Disallow: /shop
Allow: /shop/catalog
Disallow: /*.pdf$
Crawl-delay: 2

User-agent: mybot
Disallow: /private

Sitemap: https://example.com/sitemap.xml
"""
CATALOG = "https://example.com/shop/catalog/books"
PDF = "https://example.com/docs/manual.pdf"


@pytest.fixture
def robots_file(tmp_path: Path) -> str:
    path = tmp_path / "robots.txt"
    path.write_text(ROBOTS)
    return str(path)


def test_text_report_names_group_rule_line_and_reason(capsys, robots_file):
    status, out, _ = run(capsys, "check", robots_file, CATALOG, PDF, "--agent", "somebot")

    assert status == 1
    assert out.splitlines() == [
        "agent 'somebot', matching rfc9309",
        f"robots.txt {robots_file}: read from file",
        "  crawl-delay 2 s",
        "  sitemap     https://example.com/sitemap.xml",
        "",
        f"allowed     {CATALOG}",
        "  group     User-agent: * (line 1)",
        "  rule      line 3: Allow: /shop/catalog",
        "  reason    longest match",
        "",
        f"disallowed  {PDF}",
        "  group     User-agent: * (line 1)",
        "  rule      line 4: Disallow: /*.pdf$",
        "  reason    longest match",
    ]


def test_legacy_matching_takes_the_first_prefix_and_ignores_wildcards(capsys, robots_file):
    status, out, _ = run(capsys, "check", robots_file, CATALOG, PDF, "--agent", "somebot", "--matching", "legacy")

    assert status == 1
    assert (
        f"disallowed  {CATALOG}\n  group     User-agent: * (line 1)\n  rule      line 2: Disallow: /shop\n"
        "  reason    first match" in out
    )
    assert (
        f"allowed     {PDF}\n  group     User-agent: * (line 1)\n  rule      none\n  reason    no rule matched" in out
    )


def test_exit_status_is_0_when_every_url_is_allowed(capsys, robots_file):
    status, out, _ = run(capsys, "check", robots_file, CATALOG, "--agent", "somebot")

    assert status == 0
    assert out.count("allowed     ") == 1


def test_agent_specific_group_is_chosen(capsys, robots_file):
    status, out, _ = run(
        capsys,
        "check",
        robots_file,
        "https://example.com/private/a",
        "https://example.com/shop",
        "--agent",
        "mybot",
    )

    assert status == 1
    assert (
        "disallowed  https://example.com/private/a\n  group     User-agent: mybot (line 7)\n"
        "  rule      line 8: Disallow: /private" in out
    )
    assert "allowed     https://example.com/shop\n  group     User-agent: mybot (line 7)\n  rule      none" in out


@pytest.mark.parametrize(
    ("matching", "catalog_allowed", "pdf_allowed", "reason"),
    [("rfc9309", True, False, "longest match"), ("legacy", False, True, "first match")],
)
def test_json_report(capsys, robots_file, matching, catalog_allowed, pdf_allowed, reason):
    status, out, _ = run(
        capsys,
        "check",
        robots_file,
        CATALOG,
        PDF,
        "--agent",
        "somebot",
        "--matching",
        matching,
        "--json",
    )

    document = json.loads(out)
    assert status == 1
    assert (document["agent"], document["matching"]) == ("somebot", matching)
    [source] = document["robots"]
    assert source["location"] == robots_file
    assert source["outcome"] == "rules"
    assert source["crawl_delay"] == 2.0
    assert source["sitemaps"] == ["https://example.com/sitemap.xml"]
    catalog, pdf = source["results"]
    assert (catalog["url"], catalog["allowed"], catalog["group"]) == (CATALOG, catalog_allowed, ["*"])
    assert catalog["reason"] == reason
    assert catalog["rule"]["line"] == (3 if matching == "rfc9309" else 2)
    assert pdf["allowed"] is pdf_allowed


def test_json_rule_fields(capsys, robots_file):
    _, out, _ = run(capsys, "check", robots_file, PDF, "--agent", "somebot", "--json")

    [result] = json.loads(out)["robots"][0]["results"]
    assert result["rule"] == {"line": 4, "text": "Disallow: /*.pdf$", "allow": False, "pattern": "/*.pdf$"}


def test_standard_input_is_read_with_dash():
    completed = subprocess.run(
        [sys.executable, "-m", "scrapy_robots_rep", "check", "-", "https://example.com/a", "--agent", "x"],
        input=b"User-agent: *\nDisallow: /a\n",
        capture_output=True,
        timeout=60,
    )

    assert completed.returncode == 1
    assert completed.stdout.decode().splitlines()[1:] == [
        "robots.txt <stdin>: read from standard input",
        "",
        "disallowed  https://example.com/a",
        "  group     User-agent: * (line 1)",
        "  rule      line 2: Disallow: /a",
        "  reason    longest match",
    ]


def test_missing_file_is_a_usage_error(capsys, tmp_path):
    missing = tmp_path / "nope.txt"

    with pytest.raises(SystemExit) as exit_info:
        main(["check", str(missing), CATALOG, "--agent", "x"])

    assert exit_info.value.code == 2
    assert f"cannot read ROBOTS file '{missing}': No such file or directory" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["check", "robots.txt", "--agent", "x", "--compare"], "--compare compares decisions: give a URL"),
        (["check", "robots.txt", CATALOG], "the following arguments are required: --agent"),
        (
            ["check", "robots.txt", CATALOG, "--agent", "x", "--matching", "google"],
            "invalid choice: 'google'",
        ),
        (
            ["check", "robots.txt", CATALOG, "--agent", "x", "--status-policy", "strict"],
            "invalid choice: 'strict'",
        ),
        (
            ["check", "robots.txt", "shop", "--agent", "x"],
            "URL must be an absolute http(s) URL or a path starting with '/', got 'shop'",
        ),
        (
            ["check", "https://example.com/robots.txt?v=1", CATALOG, "--agent", "x"],
            "ROBOTS URL must be <origin>/robots.txt, e.g. https://example.com/robots.txt",
        ),
        (["inspect", "robots.txt"], "invalid choice: 'inspect'"),
        (["check", "robots.txt", CATALOG, "--lint"], "--lint checks ROBOTS itself: give no URL"),
        (["check", "robots.txt", "--lint", "--compare"], "--lint and --compare cannot be combined"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(capsys, argv, message):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)

    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


MERGED = """\
User-agent: *
Disallow: /

User-agent: mybot
Disallow: /private
Content-Signal: search=yes, ai-train=no

User-agent: otherbot
User-agent: mybot
Allow: /private/open
"""


@pytest.fixture
def merged_file(tmp_path: Path) -> str:
    path = tmp_path / "robots.txt"
    path.write_text(MERGED)
    return str(path)


def test_merged_groups_print_each_user_agent_line_once_with_its_number(capsys, merged_file):
    status, out, _ = run(capsys, "check", merged_file, "https://example.com/private/a", "--agent", "mybot")

    assert status == 1
    assert "  group     User-agent: mybot (lines 4, 9), User-agent: otherbot (line 8)\n" in out


def test_json_lists_the_group_lines_and_the_content_signals(capsys, merged_file):
    _, out, _ = run(capsys, "check", merged_file, "https://example.com/private/open/x", "--agent", "mybot", "--json")

    [source] = json.loads(out)["robots"]
    assert source["group_lines"] == [
        {"line": 4, "text": "User-agent: mybot"},
        {"line": 8, "text": "User-agent: otherbot"},
        {"line": 9, "text": "User-agent: mybot"},
    ]
    assert source["content_signals"] == {"search": True, "ai-train": False}
    [result] = source["results"]
    assert (result["verdict"], result["rule"]["line"]) == ("allowed", 10)


def test_content_signals_for_the_agent_are_shown(capsys, merged_file):
    _, mine, _ = run(capsys, "check", merged_file, "https://example.com/", "--agent", "mybot")
    _, others, _ = run(capsys, "check", merged_file, "https://example.com/", "--agent", "somebot")

    assert "  signals     search=yes, ai-train=no\n" in mine
    assert "  signals " not in others


def test_a_full_user_agent_is_read_as_its_product_token(capsys, merged_file):
    urls = ["https://example.com/private/a", "https://example.com/private/open/b", "https://example.com/public"]
    full_status, full, _ = run(
        capsys, "check", merged_file, *urls, "--agent", "mybot/1.0 (+https://example.com/bot)", "--json"
    )
    token_status, token, _ = run(capsys, "check", merged_file, *urls, "--agent", "mybot", "--json")
    _, text, _ = run(capsys, "check", merged_file, urls[0], "--agent", "mybot/1.0 (+https://example.com/bot)")

    assert full_status == token_status == 1
    assert json.loads(full)["robots"] == json.loads(token)["robots"]
    assert [result["verdict"] for result in json.loads(full)["robots"][0]["results"]] == [
        "disallowed",
        "allowed",
        "allowed",
    ]
    assert text.splitlines()[0] == "agent 'mybot/1.0 (+https://example.com/bot)' (read as 'mybot'), matching rfc9309"


def test_an_agent_no_group_can_name_is_warned_about(capsys, robots_file):
    status, _, err = run(capsys, "check", robots_file, CATALOG, "--agent", "360bot")

    assert status == 0
    assert err.startswith("warning: the product token '360bot' has characters outside A-Z")


def test_a_url_of_another_origin_is_a_warning(capsys, robots_file):
    status, out, _ = run(capsys, "check", robots_file, CATALOG, "https://other.example/shop", "--agent", "x")

    assert status == 1
    assert out.endswith(
        "disallowed  https://other.example/shop\n"
        "  group     User-agent: * (line 1)\n"
        "  rule      line 2: Disallow: /shop\n"
        "  reason    longest match\n"
        "  warning   https://other.example is another origin than the first URL's (https://example.com): "
        "a robots.txt speaks for one origin only\n"
    )
    assert out.count("warning") == 1


USAGE_ROBOTS = """\
License: https://example.com/license.xml
User-agent: *
Disallow: /never/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y
Content-Usage: /odd/ train-ai=maybe
"""


def test_content_usage_answers_per_url_and_license_urls(capsys, tmp_path):
    path = tmp_path / "robots.txt"
    path.write_text(USAGE_ROBOTS)
    urls = [f"https://example.com{p}" for p in ("/test", "/ai-ok/x", "/never/x", "/odd/x")]
    status, out, _ = run(capsys, "check", str(path), *urls, "--agent", "mybot")

    assert status == 1
    lines = out.splitlines()
    assert lines[2:6] == [
        "  usage       line 4: Content-Usage: train-ai=n",
        "  usage       line 5: Content-Usage: /ai-ok/ train-ai=y",
        "  usage       line 6: Content-Usage: /odd/ train-ai=maybe",
        "  license     https://example.com/license.xml",
    ]
    usage = [line for line in lines[6:] if line.startswith("  usage     ")]
    assert usage == [
        "  usage     ai-train refused (line 4: Content-Usage: train-ai=n)",
        "  usage     ai-train allowed (line 5: Content-Usage: /ai-ok/ train-ai=y)",
        "  usage     none: Content-Usage applies only to paths that may be fetched",
        "  usage     every category unknown (line 6: Content-Usage: /odd/ train-ai=maybe)",
    ]

    status, out, _ = run(capsys, "check", str(path), urls[1], "--agent", "mybot", "--json")
    robots = json.loads(out)["robots"][0]
    assert robots["licenses"] == ["https://example.com/license.xml"]
    assert robots["content_usage"][1] == {
        "line": 5,
        "text": "Content-Usage: /ai-ok/ train-ai=y",
        "path": "/ai-ok/",
        "valid": True,
        "values": {"train-ai": "y"},
    }
    assert robots["results"][0]["content_usage"] == {"preferences": {"ai-train": True}, "lines": [5]}


def test_lint_names_a_bad_content_usage_and_a_relative_license(capsys, tmp_path):
    path = tmp_path / "robots.txt"
    path.write_text("License: license.xml\nUser-agent: *\nDisallow: /x\nContent-Usage: /a/ train-ai=n,\n")
    status, out, _ = run(capsys, "check", str(path), "--lint")

    assert status == 1
    assert f"{path}:1: bad-license: License must be an absolute URL, got 'license.xml'" in out
    assert f"{path}:4: bad-value: Content-Usage preference 'train-ai=n,' is not a structured-field dictionary" in out


def test_without_a_url_the_group_the_agent_obeys_is_shown_line_by_line(capsys, robots_file):
    status, out, _ = run(capsys, "check", robots_file, "--agent", "mybot/1.0 (+https://example.com/bot)")

    assert status == 0
    assert out.splitlines() == [
        "agent 'mybot/1.0 (+https://example.com/bot)' (read as 'mybot'), matching rfc9309",
        f"robots.txt {robots_file}: read from file",
        "  sitemap     https://example.com/sitemap.xml",
        "",
        "group       User-agent: mybot (line 7)",
        "  line 7    User-agent: mybot",
        "  line 8    Disallow: /private",
    ]
    _, out, _ = run(capsys, "check", robots_file, "--agent", "mybot", "--json")
    assert json.loads(out)["robots"][0]["lines"] == [
        {"line": 7, "text": "User-agent: mybot"},
        {"line": 8, "text": "Disallow: /private"},
    ]


def test_a_bare_path_is_a_url_on_the_files_unnamed_origin(capsys, robots_file):
    status, out, err = run(capsys, "check", robots_file, "/shop/catalog/x", "/private/y", CATALOG, "--agent", "mybot")

    assert status == 1
    assert "allowed     /shop/catalog/x\n  group     User-agent: mybot (line 7)\n  rule      none\n" in out
    assert (
        "disallowed  /private/y\n  group     User-agent: mybot (line 7)\n  rule      line 8: Disallow: /private\n"
        in out
    )
    assert "warning" not in out and err == ""
