"""Times as the audit files write them: RFC 3339 in UTC, whatever the machine's time zone."""

from __future__ import annotations

import math
import time
from datetime import datetime, timezone

_second: tuple[int, str] = (0, "1970-01-01T00:00:00")
"""The last whole second formatted: a crawl writes many lines a second (a tuple: replaced whole)."""


def rfc3339(timestamp: float) -> str:
    """``timestamp`` (seconds since the epoch) as ``2026-11-26T06:40:12.345Z``.

    Made for the times lines are written, which mostly fall in the second of the line before;
    :func:`any_rfc3339` formats other times without touching that one cached second.
    """
    global _second
    second = math.floor(timestamp)
    cached = _second
    if cached[0] != second:
        cached = _second = (second, _whole_second(second))
    return _with_milliseconds(cached[1], timestamp - second)


def any_rfc3339(timestamp: float) -> str:
    """Like :func:`rfc3339`, for a time of its own (a fetch time, told beside the lines' times)."""
    second = math.floor(timestamp)
    return _with_milliseconds(_whole_second(second), timestamp - second)


def _whole_second(second: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))


def _with_milliseconds(whole: str, fraction: float) -> str:
    return f"{whole}.{min(int(fraction * 1000), 999):03d}Z"


def parse_rfc3339(text: str) -> float:
    """The timestamp of an RFC 3339 time (``Z`` or an offset; a time without one is read as UTC).

    ``ValueError`` naming the accepted form otherwise.
    """
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise ValueError(f"not an RFC 3339 time: {text!r} (write e.g. 2026-11-26T06:40:12Z)") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.timestamp()
