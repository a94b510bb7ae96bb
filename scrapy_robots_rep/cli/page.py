"""What ``check --page`` decides: the robots directives a page carries for one agent (docs/behaviour.md §10).

A page is an HTML file (no headers: read as ``text/html``) or a fetched response (its headers
count, and its origin's robots.txt ``Content-Signal`` is folded in). No Scrapy import.
"""

from __future__ import annotations

from dataclasses import dataclass

from scrapy_robots_rep.cli.checks import EXIT_FOUND, EXIT_OK, RobotsSource, UrlResult, Verdict, check_urls
from scrapy_robots_rep.cli.sources import STDIN, read_bytes
from scrapy_robots_rep.core.page import PURPOSES, Effect, PageDirectives

FILE_HEADERS = (("Content-Type", "text/html"),)
"""What a page read from a file is taken to have been served with."""


@dataclass(frozen=True, slots=True)
class PageSource:
    """One page as the command line got it: its body, the headers it came with, its origin's robots.txt."""

    location: str
    summary: str
    body: bytes
    headers: tuple[tuple[str, str], ...] = FILE_HEADERS
    robots: RobotsSource | None = None
    """The robots.txt of the page's origin (a live URL)."""


@dataclass(frozen=True, slots=True)
class PageCheck:
    """A page's directives for one agent, and what its origin's robots.txt says of fetching it."""

    source: PageSource
    page: PageDirectives
    fetch: UrlResult | None
    """robots.txt's decision on the page's URL (a live URL)."""

    @property
    def refused(self) -> dict[str, str]:
        """Each refused purpose, with what refuses it."""
        refusals = {purpose: self.page.refusal(purpose) for purpose in PURPOSES}
        return {purpose: refusal for purpose, refusal in refusals.items() if refusal is not None}

    @property
    def restrictions(self) -> dict[Effect, str]:
        """Each restriction in force (in :class:`Effect` order), with the directive and source that set it."""
        return {effect: self.page.why(effect) or "" for effect in Effect if effect in self.page.restricted}


def read_page(location: str) -> PageSource:
    """The page in file ``location`` (``-``: standard input); ValueError if it cannot be read."""
    body = read_bytes(location, "PAGE")
    name = "<stdin>" if location == STDIN else location
    where = "standard input" if location == STDIN else "file"
    return PageSource(name, f"read from {where} (no headers: read as text/html)", body)


def check_page(source: PageSource, agent: str, matching: str) -> PageCheck:
    """The directives ``source`` carries for ``agent``, with its origin's ``Content-Signal`` and
    ``Content-Usage`` (for the page's path) folded in."""
    page = PageDirectives.parse(source.body, source.headers, agent=agent)
    if source.robots is None:
        return PageCheck(source, page, None)
    check = check_urls(source.robots, [source.location], agent, matching)
    page = page.with_site_signals(check.rules.content_signals)
    usage = check.rules.content_usage(source.location)
    if usage is not None and usage.preferences:
        page = page.with_site_usage(usage.preferences, usage.source)
    return PageCheck(source, page, check.results[0])


def page_exit_status(check: PageCheck) -> int:
    """0 when nothing restricts the agent; 1 when a directive does, a purpose is refused, or
    robots.txt disallows fetching the page."""
    disallowed = check.fetch is not None and check.fetch.verdict is Verdict.DISALLOWED
    return EXIT_FOUND if check.page.restricted or check.refused or disallowed else EXIT_OK
