"""Exceptions a spider's errback receives when this middleware drops a request.

Both are :class:`~scrapy.exceptions.IgnoreRequest` subclasses, so Scrapy
treats them as usual, and they carry the reason: ``failure.value.decision``
tells which rule of which group disallowed a URL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.exceptions import IgnoreRequest

if TYPE_CHECKING:
    from scrapy_robots_rep.core import Decision


class RobotsDisallowed(IgnoreRequest):
    """robots.txt disallows the request; ``decision`` says which rule decided."""

    def __init__(self, url: str, decision: Decision) -> None:
        self.url = url
        self.decision = decision
        rule = decision.rule
        detail = f"{rule.text!r} at line {rule.line}" if rule is not None else decision.reason
        super().__init__(f"Forbidden by robots.txt: {url} ({detail})")


class RobotsUnreachable(IgnoreRequest):
    """The origin's robots.txt stayed unreachable for ``REP_DEFER_MAX_TIME``; the request was dropped."""

    def __init__(self, url: str, origin: str, reason: str) -> None:
        self.url = url
        self.origin = origin
        self.reason = reason
        super().__init__(f"Dropped, robots.txt of {origin} unreachable ({reason}): {url}")
