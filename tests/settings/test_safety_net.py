"""The settings safety net (docs/behaviour.md §7): a ``REP_*`` name that is not a setting is warned
about with the closest real one; every start-up error is one log line naming its setting, with
nothing after it, and the crawl exits with status 1. Each test crawls a real ``scrapy startproject``
project."""

from __future__ import annotations

import pytest

from tests.project import NAME, Project
from tests.sites import Sites, text

BY_HAND = 'ADDONS = {}\nDOWNLOADER_MIDDLEWARES = {"scrapy_robots_rep.RobotsMiddleware": 100}\nROBOTSTXT_OBEY = False'
"""The middleware enabled by hand, without the add-on, as the README shows it."""

TWISTED_REACTOR = 'TWISTED_REACTOR = "twisted.internet.selectreactor.SelectReactor"'
"""A reactor of Twisted's own: Scrapy 2.14 on then runs the crawl in Deferreds, as 2.13 always does."""

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
        ('REP_MATCHING = "foo"', "REP_MATCHING must be one of 'rfc9309', 'legacy', got 'foo'"),
        ('REP_FETCH_TIMEOUT = "abc"', "REP_FETCH_TIMEOUT must be a number of seconds, got 'abc'"),
        ("REP_CACHE_TTL = -5", "REP_CACHE_TTL must be at least 0, got -5"),
        ('REP_PURPOSES = ["aitrain"]', "REP_PURPOSES entries must be among"),
        (
            'REP_CACHE_BACKEND = "scrapy_robots_rep.RedisStore"',
            "REP_CACHE_BACKEND 'scrapy_robots_rep.RedisStore' cannot be loaded: scrapy_robots_rep.RedisStore "
            "needs the redis client: pip install redis",
        ),
        (
            f'{BY_HAND}\nREP_MATCHING = "foo"',
            "REP_MATCHING must be one of 'rfc9309', 'legacy', got 'foo'",
        ),
        ('REP_SIGNATURE_AGENT = "https://bot.example"', "REP_SIGNING_KEY and REP_SIGNATURE_AGENT go together"),
        (
            f'{TWISTED_REACTOR}\nREP_FETCH_TIMEOUT = "abc"',
            "REP_FETCH_TIMEOUT must be a number of seconds, got 'abc'",
        ),
    ],
    ids=[
        "backend module",
        "backend name",
        "matching",
        "matching foo",
        "timeout",
        "ttl",
        "purposes",
        "no redis",
        "middleware by hand",
        "signing",
        "twisted reactor",
    ],
)
def test_a_start_up_error_is_one_log_line_naming_its_setting(sites: Sites, tmp_path, setting, message) -> None:
    site = sites.start({"/robots.txt": text(ROBOTS)})
    project = Project(tmp_path)
    project.add_settings(setting)
    no_redis = tmp_path / "no_redis"
    no_redis.mkdir()
    (no_redis / "redis.py").write_text("raise ImportError(\"No module named 'redis'\")\n")
    project.python_path.insert(0, str(no_redis))

    completed = project.crawl(f"{site.url}/page")

    log = completed.stderr.splitlines()
    [error] = lines_with(completed.stderr, "ERROR", "scrapy_robots_rep cannot start:")
    assert message in error, completed.stderr
    assert completed.returncode == 1, completed.stderr
    assert site.paths() == []
    assert log[-1] == error, completed.stderr


def test_another_start_up_error_keeps_its_traceback(sites: Sites, tmp_path) -> None:
    """Only the plugin's own start-up error is kept to one line: another middleware failing to start,
    after the plugin's is made, fails the crawl with the usual report and its traceback."""
    site = sites.start({"/robots.txt": text(ROBOTS)})
    project = Project(tmp_path)
    (tmp_path / NAME / "broken.py").write_text(
        "class BrokenMiddleware:\n"
        "    @classmethod\n"
        "    def from_crawler(cls, crawler):\n"
        "        raise ValueError('broken on purpose')\n"
    )
    project.add_settings(f'DOWNLOADER_MIDDLEWARES = {{"{NAME}.broken.BrokenMiddleware": 500}}')

    completed = project.crawl(f"{site.url}/page")

    assert completed.returncode == 1, completed.stderr
    assert lines_with(completed.stderr, "Obeying robots.txt as agent"), completed.stderr
    traceback = completed.stderr.index("Traceback (most recent call last):")
    assert "ValueError: broken on purpose" in completed.stderr[traceback:], completed.stderr
