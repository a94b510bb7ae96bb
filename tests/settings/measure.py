"""What a site's request log says about pacing: page hit times and the gaps between them."""

from __future__ import annotations

from itertools import pairwise

from tests.sites import Site

ROBOTS = "/robots.txt"


def page_times(site: Site) -> list[float]:
    """When the site saw each request other than robots.txt (time.monotonic)."""
    return [hit.time for hit in site.hits() if hit.path != ROBOTS]


def gaps(times: list[float]) -> list[float]:
    return [later - earlier for earlier, later in pairwise(times)]
