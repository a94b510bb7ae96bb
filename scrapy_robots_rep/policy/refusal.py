"""``Refusal``: one line of an origin's entry in the end-of-crawl report (``policy/report.py``), in a
module of its own: imported when the first report with a refused request is made."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Refusal:
    """A rule (or, without one, a reason) and how many requests it refused."""

    line: int | None
    rule: str | None
    reason: str | None
    refused: int
