"""What ``check --lint`` prints: one line per warning, ``LOCATION:LINE: kind: message``, or JSON."""

from __future__ import annotations

import json
from collections.abc import Sequence

from scrapy_robots_rep.cli.checks import EXIT_FOUND, EXIT_OK, RobotsSource
from scrapy_robots_rep.core.lint import LintWarning


def lint_exit_status(warnings: Sequence[LintWarning]) -> int:
    """0 without warnings, 1 with some."""
    return EXIT_FOUND if warnings else EXIT_OK


def render_lint_text(source: RobotsSource, matching: str, warnings: Sequence[LintWarning]) -> str:
    """A header, then one compiler-style line per warning, then the count."""
    lines = [f"robots.txt {source.location}: {source.summary}, linted in {matching} matching"]
    for warning in warnings:
        where = source.location if warning.line is None else f"{source.location}:{warning.line}"
        lines.append(f"{where}: {warning.kind.value}: {warning.message}")
    count = len(warnings)
    lines.append("no warnings" if not count else f"{count} warning{'s' if count > 1 else ''}")
    return "\n".join(lines)


def render_lint_json(source: RobotsSource, matching: str, warnings: Sequence[LintWarning]) -> str:
    """The same as :func:`render_lint_text`, as JSON."""
    document = {
        "location": source.location,
        "summary": source.summary,
        "matching": matching,
        "warnings": [
            {"line": warning.line, "kind": warning.kind.value, "message": warning.message} for warning in warnings
        ],
    }
    return json.dumps(document, indent=2)
