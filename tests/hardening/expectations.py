"""What must happen to each page of an origin, checked from the server's log and the spider's side."""

from __future__ import annotations

from dataclasses import dataclass

from scrapy_robots_rep.exceptions import RobotsDisallowed, RobotsUnreachable
from tests.crawling import CrawlResult
from tests.sites import Site


@dataclass(frozen=True)
class Expected:
    """Paths of one origin that must be fetched, refused by a rule, or dropped as unreachable."""

    allowed: tuple[str, ...] = ()
    disallowed: tuple[str, ...] = ()
    unreachable: tuple[str, ...] = ()

    def paths(self) -> tuple[str, ...]:
        return (*self.allowed, *self.disallowed, *self.unreachable)


def check_pages(name: str, site: Site, result: CrawlResult, expected: Expected) -> None:
    """Allowed pages were requested once and reached the spider; the others never reached the server."""
    requested = site.paths()
    for path in expected.allowed:
        assert requested.count(path) == 1, f"{name}: allowed {path} requested {requested.count(path)} times"
        assert site.url + path in result.pages, f"{name}: {path} did not reach the spider"
    for path in expected.disallowed:
        assert path not in requested, f"{name}: disallowed {path} reached the server"
        assert result.failures.get(site.url + path) is RobotsDisallowed, (name, path)
    for path in expected.unreachable:
        assert path not in requested, f"{name}: {path} reached the server while robots.txt was unreachable"
        assert result.failures.get(site.url + path) is RobotsUnreachable, (name, path)
