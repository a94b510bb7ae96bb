"""The README's quick start ("Enable it") and fleet ("Crawling with a fleet") sections, followed as
written: their settings blocks appended to a ``scrapy startproject`` project's ``settings.py``, and
``scrapy crawl`` run in a fresh shell's environment (only the virtualenv's scripts on ``PATH``, the
package as installed). The blocks are read from README.md, so the test fails if the README drifts."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

from tests.redis.server import RedisServer
from tests.sites import Sites, text

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
BIN = Path(sys.executable).parent
SPIDER = """
import scrapy


class PagesSpider(scrapy.Spider):
    name = "pages"

    async def start(self):
        yield scrapy.Request(self.url)

    def parse(self, response):
        yield from response.follow_all(css="a")
"""
SITE = {
    "/robots.txt": text("User-agent: mybot\nDisallow: /private\n"),
    "/": text('<a href="/a">a</a> <a href="/b">b</a> <a href="/private/x">x</a>', **{"Content-Type": "text/html"}),
    "/a": text('<a href="/b">b</a> <a href="/">home</a>', **{"Content-Type": "text/html"}),
    "/b": text('<a href="/a">a</a> <a href="/c">c</a>', **{"Content-Type": "text/html"}),
}
PAGES = ["/", "/a", "/b", "/c"]


def section(title: str) -> str:
    found = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## )", README, re.MULTILINE | re.DOTALL)
    assert found is not None, title
    return found.group(1)


def settings_block(title: str) -> str:
    [block, *_] = re.findall(r"^```python\n(.*?)^```", section(title), re.MULTILINE | re.DOTALL)
    return block


def project(folder: Path) -> Path:
    """``scrapy startproject`` in a fresh shell, with the spider the test crawls."""
    scrapy("startproject", "userproject", str(folder), cwd=folder.parent)
    (folder / "userproject" / "spiders" / "pages.py").write_text(SPIDER)
    return folder / "userproject" / "settings.py"


def scrapy(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    fresh = {"PATH": f"{BIN}{os.pathsep}/usr/bin{os.pathsep}/bin", "HOME": os.environ.get("HOME", "/")}
    return subprocess.run(
        ["scrapy", *args], cwd=cwd, env=fresh, capture_output=True, text=True, timeout=120, check=False
    )


def test_the_quick_start_and_the_fleet_sections_work_as_written(
    sites: Sites, tmp_path: Path, redis_server: RedisServer, queue_server: RedisServer
) -> None:
    site = sites.start(SITE)
    folder = tmp_path / "project"
    settings = project(folder)
    with settings.open("a") as file:
        file.write("\n" + settings_block("Enable it"))

    quick = scrapy("crawl", "pages", "-a", f"url={site.url}/", cwd=folder)

    assert quick.returncode == 0, quick.stderr
    [shown] = re.findall(r"`(Obeying robots\.txt as agent .*?), \.\.\.`", section("Enable it"), re.DOTALL)
    assert " ".join(shown.split()) in quick.stderr, quick.stderr
    assert Counter(site.paths()) == Counter(["/robots.txt", *PAGES])

    with settings.open("a") as file:
        file.write("\n" + settings_block("Crawling with a fleet"))
    worker = ("crawl", "pages", "-a", f"url={site.url}/", "-s", f"REDIS_URL={queue_server.url}")
    store = ("-s", f"REP_REDIS_URL={redis_server.url}")
    before = len(site.paths())
    first = scrapy(*worker, *store, cwd=folder)
    second = scrapy(*worker, *store, cwd=folder)

    for completed in (first, second):
        assert completed.returncode == 0, completed.stderr
        assert "cache memory (100000 origins) + Redis" in completed.stderr, completed.stderr
    fleet = Counter(site.paths()[before:])
    assert fleet == Counter(["/robots.txt", *PAGES]), fleet  # no page twice, one robots.txt fetch
    assert len(list((folder / "reports").glob("robots-*.json"))) == 2
