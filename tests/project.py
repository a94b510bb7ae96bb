"""A real ``scrapy startproject`` project in a temporary folder, crawled with ``scrapy crawl``.

For what a user's project sees at start-up (the settings safety net, how the agent is read):
the project is made by Scrapy's own template, enables the plugin the README's way and runs in a
subprocess, so the settings pass through Scrapy's loading exactly as in a user's crawl.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRAPY = str(Path(sys.executable).parent / "scrapy")
NAME = "userproject"


def spider_source(items: bool) -> str:
    """The ``pages`` spider: requests the URLs given with ``-a urls=...`` and follows every link of a
    page; with ``items``, each page is also an item."""
    item = '        yield {"url": response.url}\n' if items else ""
    return f"""
import scrapy


class PagesSpider(scrapy.Spider):
    name = "pages"

    async def start(self):
        for url in self.urls.split(","):
            yield scrapy.Request(url)

    def parse(self, response):
{item}        yield from response.follow_all(css="a")
"""


def in_example_project(*args: str) -> subprocess.CompletedProcess[str]:
    """A ``scrapy`` command run in this checkout's ``example_project/``, where Scrapy finds that project."""
    return subprocess.run(
        [SCRAPY, *args],
        cwd=ROOT / "example_project",
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )


class Project:
    """One startproject project; :meth:`crawl` runs ``scrapy crawl pages`` in it."""

    def __init__(self, folder: Path, items: bool = False) -> None:
        subprocess.run([SCRAPY, "startproject", NAME, str(folder)], check=True, capture_output=True, timeout=60)
        self.folder = folder
        self.python_path = [str(ROOT)]
        """Folders imported from before the environment's packages (a test may put a module there)."""
        self.settings_file = folder / NAME / "settings.py"
        (folder / NAME / "spiders" / "pages.py").write_text(spider_source(items))
        self.add_settings('ADDONS = {"scrapy_robots_rep.Addon": 0}', "TELNETCONSOLE_ENABLED = False")

    def add_settings(self, *lines: str) -> None:
        """Append ``lines`` to the project's ``settings.py``, as a user edits it."""
        with self.settings_file.open("a") as settings:
            settings.write("\n" + "\n".join(lines) + "\n")

    def crawl(self, *urls: str) -> subprocess.CompletedProcess[str]:
        """``scrapy crawl pages`` of ``urls``; its log is the completed process's ``stderr``."""
        return self.scrapy("crawl", "pages", "-a", "urls=" + ",".join(urls))

    def scrapy(self, *args: str) -> subprocess.CompletedProcess[str]:
        """Any ``scrapy`` command in the project, with this checkout's package importable."""
        return subprocess.run(
            [SCRAPY, *args],
            cwd=self.folder,
            env=self.environment(),
            capture_output=True,
            text=True,
            timeout=120,
        )

    def start_crawl(self, *urls: str) -> subprocess.Popen[str]:
        """``scrapy crawl pages`` of ``urls`` left running, its log readable line by line from ``stderr``."""
        return subprocess.Popen(
            [SCRAPY, "crawl", "pages", "-a", "urls=" + ",".join(urls)],
            cwd=self.folder,
            env=self.environment(),
            stderr=subprocess.PIPE,
            text=True,
        )

    def environment(self) -> dict[str, str]:
        return {**os.environ, "PYTHONPATH": os.pathsep.join(self.python_path)}
