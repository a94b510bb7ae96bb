"""The settings safety net (docs/behaviour.md §7): a ``REP_*`` name that is not a setting is warned
about with the closest real one; every start-up error is one log line naming its setting, above
Scrapy's traceback. Each test crawls a real ``scrapy startproject`` project."""

from __future__ import annotations

import pytest

from tests.project import Project
from tests.sites import Sites, text

ROBOTS = "User-agent: *\nDisallow: /shop\nAllow: /shop/catalog\n"
"""``/shop/catalog/books`` is allowed in rfc9309 matching (longest match), disallowed in legacy (first match)."""


def lines_with(log: str, *parts: str) -> list[str]:
    return [line for line in log.splitlines() if all(part in line for part in parts)]


def test_a_misspelt_setting_is_warned_about_with_the_setting_meant(sites: Sites, tmp_path) -> None:
    site = sites.start({"/robots.txt": text(ROBOTS), "/shop/catalog/books": text("books")})
    project = Project(tmp_path)
    project.add_settings('REP_MATCHNIG = "legacy"', "REP_CRAWLDELAY_MAX = 5", 'REP_MATCHING = "rfc9309"')

    completed = project.crawl(f"{site.url}/shop/catalog/books")

    assert completed.returncode == 0, completed.stderr
    assert lines_with(
        completed.stderr,
        "WARNING",
        "REP_CRAWLDELAY_MAX is not a scrapy_robots_rep setting and is ignored; did you mean REP_CRAWL_DELAY_MAX?",
    ), completed.stderr
    [warning] = lines_with(completed.stderr, "WARNING", "REP_MATCHNIG")
    assert warning.endswith(
        "REP_MATCHNIG is not a scrapy_robots_rep setting and is ignored; did you mean REP_MATCHING?"
    )
    assert lines_with(completed.stderr, "Obeying robots.txt", "matching rfc9309")
    assert sorted(site.paths()) == ["/robots.txt", "/shop/catalog/books"]


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        (
            'REP_CACHE_BACKEND = "nowhere.Store"',
            "REP_CACHE_BACKEND 'nowhere.Store' cannot be loaded: No module named 'nowhere'",
        ),
        (
            'REP_CACHE_BACKEND = "scrapy_robots_rep.NoSuchStore"',
            "REP_CACHE_BACKEND 'scrapy_robots_rep.NoSuchStore' cannot be loaded:",
        ),
        ('REP_MATCHING = "rfc"', "REP_MATCHING must be one of 'rfc9309', 'legacy', got 'rfc'"),
    ],
    ids=["backend module", "backend name", "matching"],
)
def test_a_start_up_error_is_one_log_line_naming_its_setting(sites: Sites, tmp_path, setting, message) -> None:
    site = sites.start({"/robots.txt": text(ROBOTS)})
    project = Project(tmp_path)
    project.add_settings(setting)

    completed = project.crawl(f"{site.url}/page")

    log = completed.stderr.splitlines()
    [error] = lines_with(completed.stderr, "ERROR", "scrapy_robots_rep cannot start:")
    assert message in error, completed.stderr
    assert "Traceback (most recent call last):" in log[log.index(error) :], completed.stderr
    assert site.paths() == []
