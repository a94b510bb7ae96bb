"""One grammar (docs/command-line.md): the same invocation through ``scrapy-robots``,
``python -m scrapy_robots_rep`` and ``scrapy robots`` (in a ``scrapy startproject`` project) gives
the same output and exit status, and an unknown option is reported as one by each."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.project import Project
from tests.sites import Sites, text

ROBOTS = """\
User-agent: *
Disallow: /

User-agent: mybot
Disallow: /wiki/Special:
Allow: /wiki/
Crawl-delay: 3
Content-Signal: search=yes, ai-train=no
"""
PAGE = '<head><meta name="mybot" content="noindex"></head>'
SCRIPT = str(Path(sys.executable).parent / "scrapy-robots")


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Project:
    return Project(tmp_path_factory.mktemp("project"))


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("files")
    (folder / "robots.txt").write_text(ROBOTS)
    (folder / "page.html").write_text(PAGE)
    return {"ROBOTS": str(folder / "robots.txt"), "PAGE": str(folder / "page.html")}


def through_each(project: Project, argv: list[str]) -> dict[str, subprocess.CompletedProcess[str]]:
    """``argv`` run by each entry point (``scrapy robots`` in the project)."""
    outside = {"cwd": project.folder.parent, "capture_output": True, "text": True, "timeout": 120}
    return {
        "scrapy-robots": subprocess.run([SCRIPT, *argv], **outside),  # type: ignore[call-overload]
        "python -m": subprocess.run([sys.executable, "-m", "scrapy_robots_rep", *argv], **outside),  # type: ignore[call-overload]
        "scrapy robots": project.scrapy("robots", *argv),
    }


@pytest.mark.parametrize(
    ("argv", "status", "shown"),
    [
        (
            ["check", "ROBOTS", "https://en.example/wiki/X", "/wiki/Special:Random", "--agent", "mybot"],
            1,
            "disallowed  /wiki/Special:Random",
        ),
        (
            ["check", "ROBOTS", "--agent", "Mozilla/5.0 (compatible; mybot/2.1; +https://example.com/bot)"],
            0,
            "  line 6    Allow: /wiki/",
        ),
        (
            ["check", "ROBOTS", "/wiki/X", "--agent", "mybot", "--matching", "legacy", "--json"],
            0,
            '"reason": "first match"',
        ),
        (
            ["check", "ROBOTS", "/wiki/Special:X", "--agent", "mybot", "--compare"],
            0,
            "/wiki/Special:X  (same in both modes)",
        ),
        (["check", "ROBOTS", "--lint"], 0, "no warnings"),
        (["check", "--page", "PAGE", "--agent", "mybot"], 1, "restricted  noindex"),
    ],
    ids=["urls and a path", "the group obeyed", "json legacy", "compare", "lint", "page"],
)
def test_the_same_invocation_prints_the_same_through_every_entry_point(project, files, argv, status, shown):
    argv = [files.get(argument, argument) for argument in argv]

    completed = through_each(project, argv)

    outputs = {name: (run.returncode, run.stdout) for name, run in completed.items()}
    assert outputs["scrapy-robots"] == outputs["python -m"] == outputs["scrapy robots"], completed
    assert outputs["scrapy robots"][0] == status, completed["scrapy robots"].stderr
    assert shown in outputs["scrapy robots"][1]


def test_a_live_robots_txt_is_read_the_same_through_every_entry_point(project, sites: Sites):
    site = sites.start({"/robots.txt": text(ROBOTS)})
    argv = ["check", f"{site.url}/robots.txt", "/wiki/X", "--agent", "mybot", "--status-policy", "legacy"]

    completed = through_each(project, argv)

    outputs = {name: (run.returncode, run.stdout) for name, run in completed.items()}
    assert outputs["scrapy-robots"] == outputs["python -m"] == outputs["scrapy robots"], completed
    assert f"allowed     {site.url}/wiki/X\n" in outputs["scrapy robots"][1]
    assert [hit.headers["User-Agent"] for hit in site.hits("/robots.txt")] == ["mybot"] * 3


@pytest.mark.parametrize("option", ["--bogus", "--agnet=mybot"])
def test_an_unknown_option_is_reported_as_one_by_every_entry_point(project, files, option):
    completed = through_each(project, ["check", files["ROBOTS"], "/wiki/X", "--agent", "mybot", option])

    for name, run in completed.items():
        assert run.returncode == 2, (name, run.stderr)
        assert run.stdout == ""
        assert run.stderr.splitlines()[-1].endswith(f": error: unrecognized arguments: {option}"), (name, run.stderr)
