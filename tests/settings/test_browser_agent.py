"""The agent is read as a person means it (docs/behaviour.md §7): a browser-compatible
``USER_AGENT`` is the robot named in its ``(compatible; ...)`` comment, never ``Mozilla``, for the
robots middleware, ``RepRobotParser`` and the page-level meta names alike; a browser's header naming
no robot is warned about. Each test crawls a real ``scrapy startproject`` project."""

from __future__ import annotations

import pytest

from tests.page.pages import html, links, meta
from tests.project import Project
from tests.sites import Site, Sites, text

COMPATIBLE = "Mozilla/5.0 (compatible; mybot/2.1; +https://example.com/bot)"
ROBOTS = "User-agent: mybot\nDisallow: /private\n\nUser-agent: *\nDisallow: /\n"
PARSER = (
    "ADDONS = {}",
    "ROBOTSTXT_OBEY = True",
    'ROBOTSTXT_PARSER = "scrapy_robots_rep.RepRobotParser"',
)
"""Scrapy's own robots.txt middleware with this package's parser, instead of the add-on."""


def start_site(sites: Sites) -> Site:
    page = html(meta("nofollow", name="mybot"), links("/followed"))
    return sites.start({"/robots.txt": text(ROBOTS), "/page": page, "/private": text("no")})


@pytest.mark.parametrize(
    ("setup", "fetched"),
    [((), ["/page", "/robots.txt"]), (PARSER, ["/followed", "/page", "/robots.txt"])],
    ids=["add-on", "RepRobotParser"],
)
def test_a_browser_compatible_user_agent_obeys_the_robots_group(sites: Sites, tmp_path, setup, fetched) -> None:
    """The add-on also obeys the page's ``mybot`` meta tag (its link is not followed); Scrapy's
    own middleware with ``RepRobotParser`` has no page-level part."""
    site = start_site(sites)
    project = Project(tmp_path)
    project.add_settings(f"USER_AGENT = {COMPATIBLE!r}", *setup)

    completed = project.crawl(f"{site.url}/page", f"{site.url}/private")

    assert completed.returncode == 0, completed.stderr
    assert sorted(site.paths()) == fetched, completed.stderr
    assert site.hits("/page")[0].headers["User-Agent"] == COMPATIBLE


def test_the_start_up_line_says_where_the_agent_came_from_and_how_it_was_read(sites: Sites, tmp_path) -> None:
    site = start_site(sites)
    project = Project(tmp_path)
    project.add_settings(f"USER_AGENT = {COMPATIBLE!r}")

    completed = project.crawl(f"{site.url}/page")

    expected = (
        f"Obeying robots.txt as agent 'mybot' (USER_AGENT {COMPATIBLE!r}, read as the robot named in its "
        "'(compatible; ...)' comment), matching rfc9309"
    )
    assert expected in completed.stderr, completed.stderr
    assert "REP_USER_AGENT" not in completed.stderr


def test_a_browser_user_agent_naming_no_robot_is_warned_about_at_start_up(sites: Sites, tmp_path) -> None:
    site = start_site(sites)
    project = Project(tmp_path)
    browser = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0"
    project.add_settings(f"USER_AGENT = {browser!r}")

    completed = project.crawl(f"{site.url}/page")

    warnings = [line for line in completed.stderr.splitlines() if "WARNING" in line and "REP_USER_AGENT" in line]
    assert len(warnings) == 1, completed.stderr
    assert "browser's User-Agent naming no robot" in warnings[0]
    assert "read as a browser's token: no robot named" in completed.stderr
    assert site.paths() == ["/robots.txt"]
