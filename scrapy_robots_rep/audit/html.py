"""``render_html``: the audit report as one self-contained HTML page (``docs/evidence.md``).

Jinja2 with autoescaping renders every value as text: robots.txt bodies and URLs come from the
sites crawled, and a ``<script>`` in them shows as written. The page needs no network: styles
inline, charts as inline SVG drawn here, and one inline script (the URL table's filter) that the
page's Content-Security-Policy allows by its hash, and nothing else.
"""

from __future__ import annotations

import base64
import hashlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from scrapy_robots_rep.audit.report import OUTCOMES, TrailReport
from scrapy_robots_rep.audit.verify import Verification

COLOURS = {
    "allowed": "#2e7d32",
    "disallowed": "#c62828",
    "dropped_unreachable": "#ef6c00",
    "refused_purposes": "#6a1b9a",
    "exempt": "#1565c0",
    "not_checked": "#757575",
}
CHART_WIDTH = 720
CHART_HEIGHT = 160
MAX_BARS = 60

FILTER_SCRIPT = """
var filters = document.querySelectorAll("input.url-filter");
document.body.dataset.filters = String(filters.length);
filters.forEach(function (input) {
  var rows = document.getElementById(input.dataset.table).tBodies[0].rows;
  input.addEventListener("input", function () {
    var needle = input.value.toLowerCase();
    for (var i = 0; i < rows.length; i++) {
      rows[i].hidden = needle !== "" && rows[i].textContent.toLowerCase().indexOf(needle) === -1;
    }
  });
});
"""


@dataclass(frozen=True)
class Segment:
    y: float
    height: float
    colour: str
    title: str


@dataclass(frozen=True)
class Bar:
    x: float
    width: float
    segments: list[Segment]


@dataclass(frozen=True)
class Chart:
    bars: list[Bar]
    start: str
    end: str
    peak: int
    bar: str
    """The time one bar spans (``10 s``, ``1 h``)."""
    width: int = CHART_WIDTH
    height: int = CHART_HEIGHT


def chart(by_time: dict[int, Counter[str]], width: int) -> Chart | None:
    """Decisions by outcome over time as stacked bars: at most :data:`MAX_BARS`, each some buckets
    (``width`` seconds each) wide."""
    if not by_time:
        return None
    start, end = min(by_time), max(by_time)
    buckets = (end - start) // width + 1
    step = -(-buckets // MAX_BARS)
    bins: list[Counter[str]] = [Counter() for _ in range(-(-buckets // step))]
    for moment, counts in by_time.items():
        bins[(moment - start) // width // step].update(counts)
    peak = max(sum(counts.values()) for counts in bins) or 1
    bar_width = CHART_WIDTH / len(bins)
    seconds = step * width
    bars = []
    for index, counts in enumerate(bins):
        segments, top = [], float(CHART_HEIGHT)
        when = _utc(start + index * seconds)
        for outcome in sorted(counts, key=_outcome_order):
            height = counts[outcome] / peak * CHART_HEIGHT
            top -= height
            title = f"{when} UTC (+{_span(seconds)}): {outcome} {counts[outcome]}"
            segments.append(Segment(round(top, 2), round(height, 2), COLOURS.get(outcome, "#000"), title))
        bars.append(Bar(round(index * bar_width, 2), round(max(bar_width - 1, 1), 2), segments))
    return Chart(bars, _utc(start), _utc(start + len(bins) * seconds), peak, _span(seconds))


def _utc(second: int) -> str:
    return datetime.fromtimestamp(second, timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def _span(seconds: int) -> str:
    for unit, name in ((86400, "d"), (3600, "h"), (60, "min")):
        if seconds >= unit and seconds % unit == 0:
            return f"{seconds // unit} {name}"
    return f"{seconds} s"


def _outcome_order(outcome: str) -> int:
    return OUTCOMES.index(outcome) if outcome in OUTCOMES else len(OUTCOMES)


def render_html(report: TrailReport, generated: str, verification: Verification | None = None) -> Iterator[str]:
    """The report page, piece by piece (never whole in memory); ``generated`` is the time it was made,
    ``verification`` what ``audit verify`` found in the directory (shown in the summary)."""
    from jinja2 import Environment, PackageLoader

    environment = Environment(
        loader=PackageLoader("scrapy_robots_rep.audit", "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    script_hash = base64.b64encode(hashlib.sha256(FILTER_SCRIPT.encode()).digest()).decode()
    template = environment.get_template("report.html")
    context: dict[str, Any] = {
        "report": report,
        "generated": generated,
        "verification": verification,
        "outcomes": report.outcomes,
        "outcome_names": OUTCOMES,
        "colours": COLOURS,
        "chart": chart(report.by_time, report.width),
        "origin_charts": {name: chart(origin.by_time, origin.width) for name, origin in report.origins.items()},
        "script": FILTER_SCRIPT,
        "script_hash": script_hash,
    }
    return template.generate(context)


def write_html(report: TrailReport, path: str | Path, generated: str, verification: Verification | None = None) -> Path:
    """Write the page to ``path`` (its folders made); the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as file:
        file.writelines(render_html(report, generated, verification))
    return path
