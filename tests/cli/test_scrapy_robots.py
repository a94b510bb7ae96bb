"""``scrapy robots check URL...`` inside the example project: the project's settings apply.

Each run is a subprocess in example_project/, so Scrapy finds the project and the command
through its entry point.
"""

from __future__ import annotations

import json
import subprocess

from tests.project import in_example_project
from tests.sites import REFUSED_ERROR, closed_port_url, text

ROBOTS = "User-agent: *\nDisallow: /shop\nAllow: /shop/catalog\n\nUser-agent: demobot\nDisallow: /admin\n"


def scrapy_robots(*args: str) -> subprocess.CompletedProcess[str]:
    """``scrapy robots check`` of ``args``: ROBOTS left out, each URL's own robots.txt is fetched."""
    return in_example_project("robots", "check", *args)


def test_project_agent_and_user_agent_header_are_used(sites):
    site = sites.start({"/robots.txt": text(ROBOTS)})

    completed = scrapy_robots(f"{site.url}/admin/users", f"{site.url}/shop/cart")

    assert completed.returncode == 1, completed.stderr
    lines = completed.stdout.splitlines()
    assert lines[:2] == [
        "agent 'demobot', matching rfc9309",
        f"robots.txt {site.url}/robots.txt: robots.txt returned 200: rules parsed",
    ]
    assert (
        f"disallowed  {site.url}/admin/users\n  group     User-agent: demobot (line 5)\n"
        "  rule      line 6: Disallow: /admin\n" in completed.stdout
    )
    assert f"allowed     {site.url}/shop/cart\n  group     User-agent: demobot (line 5)\n" in completed.stdout
    [hit] = site.hits("/robots.txt")
    assert hit.headers["User-Agent"] == "demobot/1.0 (+https://github.com/scrapy-robots-rep/example)"


def test_settings_on_the_command_line_change_the_decisions(sites):
    site = sites.start({"/robots.txt": text(ROBOTS)})
    closed = sites.start({"/robots.txt": text("Forbidden", status=403)})

    completed = scrapy_robots(
        f"{site.url}/shop/catalog/books",
        f"{closed.url}/page",
        "--json",
        "-s",
        "REP_USER_AGENT=otherbot",
        "-s",
        "REP_MATCHING=legacy",
        "-s",
        "REP_STATUS_POLICY=legacy",
    )

    assert completed.returncode == 1, completed.stderr
    document = json.loads(completed.stdout)
    assert document["agent"] == "otherbot"
    assert (document["matching"], document["status_policy"]) == ("legacy", "legacy")
    rules, forbidden = document["robots"]
    assert rules["location"] == f"{site.url}/robots.txt"
    [books] = rules["results"]
    assert (books["allowed"], books["reason"]) == (False, "first match")
    assert books["rule"]["text"] == "Disallow: /shop"
    assert forbidden["outcome"] == "disallow_all"
    assert forbidden["summary"] == ("robots.txt returned 403: legacy policy treats the site as closed (disallow all)")
    assert forbidden["results"][0]["allowed"] is False


def test_urls_of_one_origin_share_one_fetch(sites):
    site = sites.start({"/robots.txt": text(ROBOTS)})

    completed = scrapy_robots(f"{site.url}/a", f"{site.url}/b", f"{site.url}/c")

    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.count("robots.txt returned 200") == 1
    assert len(site.hits("/robots.txt")) == 1


def test_usage_errors_exit_2():
    no_command = in_example_project("robots")
    no_robots = scrapy_robots()
    relative = scrapy_robots("https://example.com/robots.txt", "shop")
    unknown = scrapy_robots("https://example.com/", "--bogus")
    bad_setting = scrapy_robots("https://example.com/", "-s", "REP_MATCHING=google")

    assert [run.returncode for run in (no_command, no_robots, relative, unknown, bad_setting)] == [2] * 5
    assert "scrapy robots: error: the following arguments are required: COMMAND" in no_command.stderr
    assert "scrapy robots check: error: the following arguments are required: ROBOTS" in no_robots.stderr
    assert "URL must be an absolute http(s) URL, got 'shop'" in relative.stderr
    assert "scrapy robots: error: unrecognized arguments: --bogus" in unknown.stderr
    assert "REP_MATCHING must be one of 'rfc9309', 'legacy', got 'google'" in bad_setting.stderr


def test_unreachable_robots_txt_is_a_fetch_error(sites):
    site = sites.start({"/robots.txt": text(ROBOTS)})
    down = closed_port_url()

    completed = scrapy_robots(f"{site.url}/shop/catalog", f"{down}/page")

    assert completed.returncode == 2
    assert f"allowed     {site.url}/shop/catalog\n" in completed.stdout
    assert f"robots.txt {down}/robots.txt: robots.txt fetch failed: {REFUSED_ERROR}" in completed.stdout
    assert f"error: no robots.txt rules could be obtained from {down}/robots.txt" in completed.stderr


def test_agent_matching_and_status_policy_options_override_the_settings(sites):
    site = sites.start({"/robots.txt": text(ROBOTS)})
    closed = sites.start({"/robots.txt": text("Forbidden", status=403)})

    completed = scrapy_robots(
        f"{site.url}/shop/catalog/books",
        f"{closed.url}/page",
        "--json",
        "--agent",
        "otherbot/2.0 (+https://example.com)",
        "--matching",
        "legacy",
        "--status-policy",
        "legacy",
    )

    assert completed.returncode == 1, completed.stderr
    document = json.loads(completed.stdout)
    assert document["agent"] == "otherbot/2.0 (+https://example.com)"
    assert (document["matching"], document["status_policy"]) == ("legacy", "legacy")
    rules, forbidden = document["robots"]
    assert rules["results"][0]["rule"]["text"] == "Disallow: /shop"
    assert forbidden["outcome"] == "disallow_all"
    [hit] = site.hits("/robots.txt")
    assert hit.headers["User-Agent"] == "otherbot/2.0 (+https://example.com)"


def test_the_agent_option_is_read_as_its_product_token(sites):
    site = sites.start({"/robots.txt": text(ROBOTS)})

    full = scrapy_robots(f"{site.url}/admin/users", "--agent", "demobot/3.0 (+https://example.com/bot)")

    assert full.returncode == 1, full.stderr
    assert full.stdout.splitlines()[0] == (
        "agent 'demobot/3.0 (+https://example.com/bot)' (read as 'demobot'), matching rfc9309"
    )
    assert "  rule      line 6: Disallow: /admin\n" in full.stdout


def test_bad_option_values_are_usage_errors():
    completed = scrapy_robots("https://example.com/", "--matching", "google")

    assert completed.returncode == 2
    assert "invalid choice: 'google'" in completed.stderr


def test_scrapy_log_is_off_unless_asked_for(sites):
    site = sites.start({"/robots.txt": text(ROBOTS)})

    quiet = scrapy_robots(f"{site.url}/blog")
    logged = scrapy_robots(f"{site.url}/blog", "--loglevel", "INFO")

    assert (quiet.returncode, logged.returncode) == (0, 0)
    assert quiet.stderr == ""
    assert "[scrapy.core.engine] INFO: Spider opened" in logged.stderr
    assert quiet.stdout == logged.stdout


def test_help_is_the_shared_grammars_with_scrapys_options():
    completed = in_example_project("robots", "check", "-h")

    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.startswith("usage: scrapy robots check [-h] [--agent AGENT]")
    assert "--lint" in completed.stdout and "--page PAGE" in completed.stdout
    assert "Scrapy's options also apply: -s NAME=VALUE" in completed.stdout
