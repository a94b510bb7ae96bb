"""The Scrapy versions supported (2.13 and later), and what a project on an older one is told.

A Scrapy older than 2.13 is stood in for by a distribution record (``scrapy-2.12.0.dist-info``)
put first on the path, so the version read from the installed metadata is 2.12.0 while the
Scrapy that runs is the real one: what the package says then is what it says on a real 2.12.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_twisted
import scrapy
from scrapy import Spider
from scrapy.core.engine import ExecutionEngine
from scrapy.http import Response

from scrapy_robots_rep.crawl.scrapy_compat import engine_scheduler, installed_scrapy, unsupported_message
from tests.crawling import crawl
from tests.sites import Sites

ROOT = Path(__file__).resolve().parents[1]
SCRAPY = str(Path(sys.executable).parent / "scrapy")
NEEDED = "scrapy-robots-rep needs Scrapy 2.13 or later, and Scrapy 2.12.0 is installed"


@pytest.mark.parametrize("version", ["2.13.0", "2.13.4", "2.14.0", "2.19.0", "3.0"])
def test_scrapy_2_13_and_later_are_supported(version: str) -> None:
    assert unsupported_message(version) is None


@pytest.mark.parametrize("version", ["2.12.0", "2.11.2", "1.8.4"])
def test_an_older_scrapy_is_told_which_one_is_needed(version: str) -> None:
    message = unsupported_message(version)
    assert message is not None
    assert f"needs Scrapy 2.13 or later, and Scrapy {version} is installed" in message
    assert "pip install 'scrapy>=2.13'" in message


def test_the_installed_scrapy_is_supported() -> None:
    assert unsupported_message(installed_scrapy()) is None


@pytest.fixture
def old_scrapy(tmp_path: Path) -> dict[str, str]:
    """An environment in which the installed Scrapy reads as 2.12.0."""
    record = tmp_path / "path" / "scrapy-2.12.0.dist-info"
    record.mkdir(parents=True)
    (record / "METADATA").write_text("Metadata-Version: 2.1\nName: Scrapy\nVersion: 2.12.0\n")
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(record.parent), str(ROOT)])}


def run(command: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True, timeout=120)


def test_on_an_older_scrapy_importing_the_package_says_which_scrapy_is_needed(
    old_scrapy: dict[str, str], tmp_path: Path
) -> None:
    probe = (
        "import scrapy_robots_rep\n"
        "print(scrapy_robots_rep.RobotsTxt.parse(b'User-agent: *\\nDisallow: /x\\n').allowed('http://a.test/x', 'bot'))\n"
        "from scrapy_robots_rep import Addon\n"
    )
    result = run([sys.executable, "-c", probe], old_scrapy, tmp_path)
    assert result.returncode == 1
    assert result.stdout == "False\n", "the core parsers still work"
    assert f"RuntimeWarning: {NEEDED}" in result.stderr
    assert f"ImportError: {NEEDED}" in result.stderr


def test_on_an_older_scrapy_loading_the_addon_says_which_scrapy_is_needed(
    old_scrapy: dict[str, str], tmp_path: Path
) -> None:
    probe = "from scrapy_robots_rep.addon import Addon\nfrom scrapy.settings import Settings\nAddon().update_settings(Settings())\n"
    result = run([sys.executable, "-c", probe], old_scrapy, tmp_path)
    assert result.returncode == 1
    assert f"ImportError: {NEEDED}" in result.stderr


def test_on_an_older_scrapy_every_scrapy_command_still_runs_and_robots_says_what_is_needed(
    old_scrapy: dict[str, str], tmp_path: Path
) -> None:
    started = run([SCRAPY, "startproject", "shop"], old_scrapy, tmp_path)
    assert started.returncode == 0, started.stderr
    project = tmp_path / "shop"
    listed = run([SCRAPY, "list"], old_scrapy, project)
    assert listed.returncode == 0, listed.stderr
    assert NEEDED in listed.stderr
    helped = run([SCRAPY, "-h"], old_scrapy, project)
    assert helped.returncode == 0
    assert f"robots        unavailable: {NEEDED}" in helped.stdout
    robots = run([SCRAPY, "robots", "http://127.0.0.1:9/"], old_scrapy, project)
    assert robots.returncode == 2
    assert f"scrapy robots: {NEEDED}" in robots.stderr


SCRAPY_RELEASE = tuple(int(part) for part in scrapy.__version__.split(".")[:2])


def test_the_public_engine_scheduler_exists_from_scrapy_2_19_on() -> None:
    """Which path ``engine_scheduler`` takes on this Scrapy: the public property from 2.19, the private slot before."""
    assert hasattr(ExecutionEngine, "scheduler") is (SCRAPY_RELEASE >= (2, 19))


@pytest.mark.parametrize("path", ["as installed", "private slot"])
@pytest_twisted.ensureDeferred
async def test_engine_scheduler_is_the_crawls_scheduler_on_either_path(
    path: str, sites: Sites, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a real crawl, both ways of finding the scheduler find the one the engine schedules with; on a
    Scrapy with the public property, the private path is run by taking the property away for the crawl."""
    if path == "private slot":
        monkeypatch.delattr(ExecutionEngine, "scheduler", raising=False)
    site = sites.start()
    found: list[tuple[object, object]] = []

    def page(response: Response, spider: Spider) -> None:
        engine = spider.crawler.engine
        found.append((engine_scheduler(engine), engine._slot.scheduler))  # type: ignore[union-attr]

    result = await crawl([f"{site.url}/a"], page=page)

    assert result.pages == [f"{site.url}/a"]
    assert len(found) == 1
    scheduler, engines = found[0]
    assert scheduler is engines and scheduler is not None
