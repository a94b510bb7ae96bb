"""``PageDropped``: what an ``OutcomeSink`` is told when a page's directives drop something its
callback yielded. A module of its own, imported at the first drop (``crawl.outcomes`` names it too)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.http import Response


@dataclass(frozen=True, slots=True)
class PageDropped:
    """Something a page's callback yielded, dropped because of the page's directives."""

    response: Response
    kind: str
    why: str | None
    request: Request | None = None
    """The dropped request; None when an item was dropped."""
