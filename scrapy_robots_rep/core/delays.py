"""Read ``Crawl-delay`` and ``Request-rate`` values as a delay in seconds."""

from __future__ import annotations

import math
import re

from scrapy_robots_rep.core.lazy_patterns import compiled_on_use

_REQUEST_RATE = compiled_on_use(r"\s*(\d+(?:\.\d*)?)\s*/\s*(\d+(?:\.\d*)?)\s*([smh]?)(?:\s|$)", re.IGNORECASE)
_UNIT_SECONDS = {"": 1.0, "s": 1.0, "m": 60.0, "h": 3600.0}


def crawl_delay_seconds(value: str) -> float | None:
    """``Crawl-delay: N`` as seconds, or None when N is not a finite number >= 0."""
    try:
        seconds = float(value)
    except ValueError:
        return None
    if math.isfinite(seconds) and seconds >= 0:
        return seconds
    return None


def request_rate_seconds(value: str) -> float | None:
    """``Request-rate: n/m[s|m|h]`` (n requests per m time units) as seconds
    between requests, or None when the value cannot be read."""
    match = _REQUEST_RATE().match(value)
    if match is None:
        return None
    requests, period, unit = match.groups()
    if float(requests) <= 0:
        return None
    seconds = float(period) * _UNIT_SECONDS[unit.lower()] / float(requests)
    return seconds if math.isfinite(seconds) else None
