"""What the command line says when it is given something almost right (docs/command-line.md): each
case runs the installed ``scrapy-robots`` console script, or ``scrapy robots`` in the example project."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.project import in_example_project
from tests.sites import Sites, text

SCRIPT = str(Path(sys.executable).parent / "scrapy-robots")
ROBOTS = "User-agent: *\nDisallow: /x/\n"


def scrapy_robots(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([SCRIPT, *args], capture_output=True, text=True, timeout=60, cwd=cwd)


def last_line(completed: subprocess.CompletedProcess[str]) -> str:
    return completed.stderr.strip().splitlines()[-1]


def test_a_misspelt_setting_is_warned_about_as_a_crawl_does(sites: Sites) -> None:
    site = sites.start({"/robots.txt": text(ROBOTS)})

    completed = in_example_project("robots", "check", f"{site.url}/x/1", "-s", "REP_MATCHNIG=legacy")

    assert completed.returncode == 1, completed.stderr
    assert (
        "warning: REP_MATCHNIG is not a scrapy_robots_rep setting and is ignored; did you mean REP_MATCHING?"
        in completed.stderr.splitlines()
    )


def test_near_misses_are_usage_errors_that_say_what_was_meant(sites: Sites, tmp_path: Path) -> None:
    site = sites.start({"/robots.txt": text(ROBOTS)})

    no_scheme = scrapy_robots("check", "www.example.com/private/x", "--agent", "mybot", cwd=tmp_path)
    a_path = scrapy_robots("check", f"{site.url}/", "/x/1", "--agent", "mybot", cwd=tmp_path)
    audit_path = scrapy_robots("audit", str(tmp_path), "host/a.html", cwd=tmp_path)
    no_agent = scrapy_robots("check", f"{site.url}/robots.txt", "/x/1", cwd=tmp_path)

    assert [no_scheme.returncode, a_path.returncode, audit_path.returncode, no_agent.returncode] == [2, 2, 2, 2]
    assert last_line(no_scheme).endswith("a URL needs its scheme: https://www.example.com/private/x")
    assert f"give {site.url}/robots.txt first" in last_line(a_path)
    assert last_line(audit_path).endswith("URL must be an absolute http(s) URL, as it was requested, got 'host/a.html'")
    assert "outside a Scrapy project there are no such settings" in last_line(no_agent)
    help_text = scrapy_robots("check", "--help", cwd=tmp_path).stdout
    assert "required unless the settings name the robot" in " ".join(help_text.split())
    assert site.paths() == []


def test_compare_of_one_live_url_works_like_its_check(sites: Sites, tmp_path: Path) -> None:
    site = sites.start({"/robots.txt": text(ROBOTS)})

    completed = scrapy_robots("check", f"{site.url}/x/1", "--compare", "--agent", "mybot", cwd=tmp_path)

    assert completed.returncode == 0, completed.stderr
    assert f"{site.url}/x/1  (same in both modes)" in completed.stdout
    assert site.paths() == ["/robots.txt"]
