"""Read what the command line is given as a file or on standard input: a robots.txt, or a page."""

from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import urlsplit

from scrapy_robots_rep.cli.checks import RobotsSource
from scrapy_robots_rep.policy.origin import origin_of
from scrapy_robots_rep.policy.status import Outcome

STDIN = "-"


def is_url(location: str) -> bool:
    """Whether ROBOTS names a live robots.txt rather than a file."""
    return urlsplit(location).scheme in ("http", "https")


def robots_origin(url: str) -> str:
    """The origin whose robots.txt ``url`` is; only ``<origin>/robots.txt`` URLs are fetched."""
    origin = origin_of(url)
    parts = urlsplit(url)
    if origin is None or parts.path != "/robots.txt" or parts.query:
        raise ValueError(f"ROBOTS URL must be <origin>/robots.txt, e.g. https://example.com/robots.txt, got {url!r}")
    return origin


def read_source(location: str) -> RobotsSource:
    """The robots.txt in file ``location`` (``-``: standard input); ValueError if it cannot be read."""
    body = read_bytes(location, "ROBOTS")
    if location == STDIN:
        return RobotsSource("<stdin>", "read from standard input", Outcome.RULES, body=body)
    return RobotsSource(location, "read from file", Outcome.RULES, body=body)


def read_bytes(location: str, argument: str) -> bytes:
    """File ``location`` (``-``: standard input); ValueError naming ``argument`` if it cannot be read."""
    if location == STDIN:
        return sys.stdin.buffer.read()
    try:
        return Path(location).read_bytes()
    except OSError as error:
        hint = f"; a URL needs its scheme: https://{location}" if _looks_like_a_url(location) else ""
        raise ValueError(f"cannot read {argument} file {location!r}: {error.strerror}{hint}") from None


def _looks_like_a_url(location: str) -> bool:
    """A missing file named like ``www.example.com/private/x``: a host name with a dot, then a path."""
    host = location.split("/", 1)[0]
    return "." in host.strip(".") and not Path(host).exists()
