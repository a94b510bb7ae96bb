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


def check(robots_url: str, *urls: str, policy: str = "rfc9309", json_output: bool = False):
    argv = [sys.executable, "-m", "scrapy_robots_rep", "check", robots_url, *urls, "--agent", "mybot"]
    argv += ["--status-policy", policy] + (["--json"] if json_output else [])
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_rules_are_fetched_with_the_agent_as_user_agent(sites):
    site = sites.start({"/robots.txt": text("User-agent: *\nDisallow: /private\n")})

    completed = check(f"{site.url}/robots.txt", f"{site.url}/private/a", f"{site.url}/public")

    assert completed.returncode == 1
    assert completed.stdout.splitlines()[:3] == [
        "agent 'mybot', matching rfc9309",
        f"robots.txt {site.url}/robots.txt: robots.txt returned 200: rules parsed",
        "",
    ]
    assert f"disallowed  {site.url}/private/a\n  group     User-agent: *\n" \
        "  rule      line 2: Disallow: /private\n" in completed.stdout
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
    assert result["reason"] == "robots.txt returned 403"


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
    assert "robots.txt fetch failed: DownloadConnectionRefusedError: Connection was refused" \
        in completed.stdout
    assert "refused: rfc9309 policy treats the site as unreachable" in completed.stdout
