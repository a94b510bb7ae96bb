"""``check`` with a live robots.txt URL: fetched through Scrapy, judged by the status policy.

Each run is a subprocess, so every crawl gets a fresh Twisted reactor.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.sites import closed_port_url, redirect, text

ROOT = Path(__file__).resolve().parents[2]


def check(
    robots_url: str, *urls: str, policy: str = "rfc9309", json_output: bool = False, options: tuple[str, ...] = ()
):
    argv = [sys.executable, "-m", "scrapy_robots_rep", "check", robots_url, *urls, "--agent", "mybot"]
    argv += ["--status-policy", policy, *options] + (["--json"] if json_output else [])
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_rules_are_fetched_with_the_agent_as_user_agent(sites):
    site = sites.start({"/robots.txt": text("User-agent: *\nDisallow: /private\n")})

    completed = check(f"{site.url}/robots.txt", f"{site.url}/private/a", f"{site.url}/public")

    assert completed.returncode == 1
    assert completed.stdout.splitlines()[:4] == [
        "agent 'mybot', matching rfc9309",
        f"robots.txt {site.url}/robots.txt: robots.txt returned 200: rules parsed",
        "  fresh for   86400 s (REP_CACHE_TTL: no freshness header used)",
        "",
    ]
    assert (
        f"disallowed  {site.url}/private/a\n  group     User-agent: * (line 1)\n"
        "  rule      line 2: Disallow: /private\n" in completed.stdout
    )
    assert f"allowed     {site.url}/public\n" in completed.stdout
    [hit] = site.hits("/robots.txt")
    assert hit.headers["User-Agent"] == "mybot"


@pytest.mark.parametrize(
    ("policy", "returncode", "outcome", "allowed", "summary"),
    [
        ("rfc9309", 0, "allow_all", True, "robots.txt returned 403: rfc9309 policy allows everything"),
        (
            "legacy",
            1,
            "disallow_all",
            False,
            "robots.txt returned 403: legacy policy treats the site as closed (disallow all)",
        ),
    ],
)
def test_403_under_both_status_policies(sites, policy, returncode, outcome, allowed, summary):
    site = sites.start({"/robots.txt": text("Forbidden", status=403)})

    completed = check(f"{site.url}/robots.txt", f"{site.url}/page", policy=policy, json_output=True)

    assert completed.returncode == returncode
    document = json.loads(completed.stdout)
    assert document["status_policy"] == policy
    [source] = document["robots"]
    assert (source["status"], source["outcome"], source["summary"]) == (403, outcome, summary)
    [result] = source["results"]
    assert result["allowed"] is allowed
    assert result["verdict"] == ("allowed" if allowed else "disallowed")
    assert result["reason"].startswith("robots.txt returned 403")


def test_redirect_to_another_origin_applies_the_final_file(sites):
    rules = sites.start({"/moved/robots.txt": text("User-agent: *\nDisallow: /old\n")})
    site = sites.start({"/robots.txt": redirect(f"{rules.url}/moved/robots.txt")})

    completed = check(f"{site.url}/robots.txt", f"{site.url}/old/page")

    assert completed.returncode == 1
    assert f"robots.txt {site.url}/robots.txt: robots.txt returned 200: rules parsed" in completed.stdout
    assert "  rule      line 2: Disallow: /old" in completed.stdout
    assert site.paths() == ["/robots.txt"]
    assert rules.paths() == ["/moved/robots.txt"]


@pytest.mark.parametrize(
    ("policy", "meaning"),
    [
        ("rfc9309", "rfc9309 policy treats the site as unreachable"),
        ("legacy", "legacy policy defers requests until robots.txt can be fetched"),
    ],
)
def test_server_error_is_a_fetch_error(sites, policy, meaning):
    site = sites.start({"/robots.txt": text("down", status=503)})

    completed = check(f"{site.url}/robots.txt", f"{site.url}/page", policy=policy)

    assert completed.returncode == 2
    assert f"robots.txt returned 503: {meaning}" in completed.stdout
    assert f"error: no robots.txt rules could be obtained from {site.url}/robots.txt" in completed.stderr
    assert len(site.hits("/robots.txt")) == 1


def test_connection_refused_is_a_fetch_error():
    url = closed_port_url()

    completed = check(f"{url}/robots.txt", f"{url}/page")

    assert completed.returncode == 2
    assert "robots.txt fetch failed: DownloadConnectionRefusedError: Connection was refused" in completed.stdout
    assert "refused: rfc9309 policy treats the site as unreachable" in completed.stdout


def test_freshness_and_validators_of_the_answer_are_shown(sites):
    headers = {"Cache-Control": "max-age=3600", "ETag": '"v1"', "Last-Modified": "Tue, 01 Apr 2025 10:00:00 GMT"}
    site = sites.start({"/robots.txt": text("User-agent: *\nDisallow: /private\n", 200, **headers)})

    text_run = check(f"{site.url}/robots.txt", f"{site.url}/page")
    json_run = check(f"{site.url}/robots.txt", f"{site.url}/page", json_output=True)

    assert text_run.returncode == 0
    assert text_run.stdout.splitlines()[2:5] == [
        "  fresh for   3600 s (Cache-Control max-age)",
        '  etag        "v1"',
        "  modified    Tue, 01 Apr 2025 10:00:00 GMT",
    ]
    [source] = json.loads(json_run.stdout)["robots"]
    assert source["freshness"] == {"lifetime": 3600.0, "source": "max-age"}
    assert source["validators"] == {"etag": '"v1"', "last_modified": "Tue, 01 Apr 2025 10:00:00 GMT"}


def test_without_freshness_headers_the_lifetime_is_the_default_ttl(sites):
    site = sites.start({"/robots.txt": text("User-agent: *\nDisallow:\n")})

    completed = check(f"{site.url}/robots.txt", f"{site.url}/page")

    assert "  fresh for   86400 s (REP_CACHE_TTL: no freshness header used)\n" in completed.stdout
    assert "etag" not in completed.stdout


def test_an_unreachable_robots_txt_still_lists_each_url(sites):
    site = sites.start({"/robots.txt": text("down", status=503)})

    completed = check(f"{site.url}/robots.txt", f"{site.url}/a", f"{site.url}/b")

    assert completed.returncode == 2
    lines = completed.stdout.splitlines()
    assert lines[2] == "  next        a crawl defers its requests and fetches robots.txt again in 1 s"
    assert f"deferred    {site.url}/a" in lines
    assert f"deferred    {site.url}/b" in lines
    assert completed.stdout.count("  reason    robots.txt returned 503") == 2


def test_a_url_of_another_origin_than_the_robots_txt_is_a_warning(sites):
    site = sites.start({"/robots.txt": text("User-agent: *\nDisallow: /private\n")})

    completed = check(f"{site.url}/robots.txt", f"{site.url}/public", "https://example.com/private")

    assert completed.returncode == 1
    assert completed.stdout.count("  warning   ") == 1
    assert completed.stdout.endswith(
        f"  warning   https://example.com is another origin than this robots.txt's ({site.url}): its own applies\n"
    )


def test_lint_of_a_live_robots_txt(sites):
    site = sites.start({"/robots.txt": text("User-agent: *\nDissallow: /private\nSitemap: /map.xml\n")})

    completed = check(f"{site.url}/robots.txt", options=("--lint",))

    assert completed.returncode == 1
    assert completed.stdout.splitlines() == [
        f"robots.txt {site.url}/robots.txt: robots.txt returned 200: rules parsed, linted in rfc9309 matching",
        f"{site.url}/robots.txt:2: misspelt-field: 'Dissallow' is a misspelling of 'Disallow': read as 'Disallow' "
        "in rfc9309 matching (as Google does), ignored by strict parsers: write 'Disallow'",
        f"{site.url}/robots.txt:3: bad-sitemap: Sitemap must be an absolute http(s) URL, got '/map.xml'",
        "2 warnings",
    ]


def test_lint_without_a_robots_txt_is_an_error(sites):
    site = sites.start({"/robots.txt": text("Not found", status=404)})

    completed = check(f"{site.url}/robots.txt", options=("--lint",))

    assert completed.returncode == 2
    assert completed.stdout == ""
    assert completed.stderr == (
        f"error: no robots.txt to lint at {site.url}/robots.txt: "
        "robots.txt returned 404: rfc9309 policy allows everything\n"
    )


def test_compare_a_live_robots_txt_fetches_it_once(sites):
    site = sites.start({"/robots.txt": text("User-agent: *\nDisallow: /shop\nAllow: /shop/catalog\n")})

    completed = check(f"{site.url}/robots.txt", f"{site.url}/shop/catalog/a", options=("--compare",))

    assert completed.returncode == 1
    assert "  rfc9309  allowed     group line 1  rule line 3: Allow: /shop/catalog  (longest match)" in completed.stdout
    assert "  legacy   disallowed  group line 1  rule line 2: Disallow: /shop  (first match)" in completed.stdout
    assert len(site.hits("/robots.txt")) == 1
