"""``ROBOTSTXT_OBEY = False``, the switch every Scrapy user knows, turns the add-on's plugin off at any
priority, with one INFO line naming it; with the middleware enabled by hand it keeps only Scrapy's
meaning (docs/behaviour.md §7). Each case crawls a real ``scrapy startproject`` project, whose
``settings.py`` keeps the ``ROBOTSTXT_OBEY = True`` that startproject writes."""

from __future__ import annotations

import pytest

from tests.project import Project
from tests.sites import Sites, text

OFF = "scrapy_robots_rep is off (ROBOTSTXT_OBEY = False)"


@pytest.mark.parametrize(
    ("lines", "options", "obeyed"),
    [
        ((), ("-s", "ROBOTSTXT_OBEY=False"), False),
        (("ROBOTSTXT_OBEY = False",), (), False),
        ((), (), True),
        (
            (
                "ADDONS = {}",
                'DOWNLOADER_MIDDLEWARES = {"scrapy_robots_rep.RobotsMiddleware": 100}',
                "ROBOTSTXT_OBEY = False",
            ),
            (),
            True,
        ),
    ],
    ids=["add-on, -s", "add-on, settings.py", "add-on, startproject's True", "middleware by hand"],
)
def test_robotstxt_obey_false_turns_the_add_on_off(sites: Sites, tmp_path, lines, options, obeyed) -> None:
    site = sites.start({"/robots.txt": text("User-agent: *\nDisallow: /private\n")})
    project = Project(tmp_path)
    project.add_settings(*lines)

    completed = project.scrapy("crawl", "pages", "-a", f"urls={site.url}/private", *options)

    log = completed.stderr
    assert completed.returncode == 0, log
    off = [line for line in log.splitlines() if OFF in line]
    if obeyed:
        assert off == [], log
        assert "Obeying robots.txt as agent" in log
        assert site.paths() == ["/robots.txt"]
    else:
        [line] = off
        assert "[scrapy_robots_rep] INFO:" in line
        assert "Obeying robots.txt" not in log
        assert site.paths() == ["/private"]
