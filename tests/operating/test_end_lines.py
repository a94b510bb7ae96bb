"""What the end of a crawl and its log say beyond robots.txt rules (docs/operating.md): the items and
links page-level directives dropped, and, once per origin, a robots.txt that is not one (an HTML
page) or is larger than ``REP_MAX_SIZE``; where the audit trail is, as an absolute path. One real
``scrapy crawl`` of a startproject project."""

from __future__ import annotations

from tests.page.pages import html, links, meta
from tests.project import Project
from tests.sites import Sites, text

SPIDER = '''
import scrapy


class PagesSpider(scrapy.Spider):
    """Requests the URLs given with ``-a urls=...``; each page is an item, and its links are followed."""

    name = "pages"

    async def start(self):
        for url in self.urls.split(","):
            yield scrapy.Request(url)

    def parse(self, response):
        yield {"url": response.url}
        yield from response.follow_all(css="a")
'''
HTML_ROBOTS = html("<title>Not found</title>", "<h1>Sorry, no such page</h1>")
LARGE_ROBOTS = "User-agent: *\nDisallow: /private\n" + "# a comment that pads the file\n" * 20_000


def test_page_drops_and_robots_txt_files_that_are_not_one_are_said(sites: Sites, tmp_path) -> None:
    pages = sites.start(
        {
            "/robots.txt": HTML_ROBOTS,
            "/nofollow": html(meta("nofollow"), links("/a", "/b")),
            "/noindex": html(meta("noindex")),
        }
    )
    large = sites.start({"/robots.txt": text(LARGE_ROBOTS)})
    project = Project(tmp_path)
    (tmp_path / "userproject" / "spiders" / "pages.py").write_text(SPIDER)
    project.add_settings('REP_AUDIT_DIR = "audit"')

    completed = project.crawl(f"{pages.url}/nofollow", f"{pages.url}/noindex", f"{large.url}/private/x")

    log = completed.stderr
    assert completed.returncode == 0, log
    assert sorted(pages.paths()) == ["/nofollow", "/noindex", "/robots.txt"]
    assert large.paths() == ["/robots.txt"]
    assert len(_lines(log, "WARNING", f"robots.txt of {pages.url} (not-robots-txt): this is an HTML page")) == 1
    [large_warning] = _lines(log, "WARNING", f"robots.txt of {large.url} (too-large): it is larger than REP_MAX_SIZE")
    assert "only the first 512000 bytes are read" in large_warning
    [dropped] = _lines(log, "INFO", "Page-level directives dropped")
    assert dropped.endswith(
        f"Page-level directives dropped 1 item and 2 links of 1 origin: {pages.url} (nofollow 2, noindex 1)"
    ), dropped
    assert len(_lines(log, "not-robots-txt")) == 1 and len(_lines(log, "too-large")) == 1
    # The audit trail's closing line names its folder absolutely, so its command works from anywhere.
    assert f"ask about a URL with: scrapy-robots audit {(tmp_path / 'audit').resolve()} URL" in log, log


def _lines(log: str, *parts: str) -> list[str]:
    return [line for line in log.splitlines() if all(part in line for part in parts)]
