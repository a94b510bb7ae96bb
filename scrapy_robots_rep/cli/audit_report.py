"""``audit report AUDIT_DIR -o report.html [--origin O] [--since T --until T]``: the trail for people.

Writes one self-contained HTML page (``docs/evidence.md``): the crawl's summary, and per origin the
robots.txt versions in force and their changes, decisions by outcome over time, the rules that
refused most, what pages said and what was dropped, and a searchable table of the last URLs.
"""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING

from scrapy_robots_rep.audit.html import write_html
from scrapy_robots_rep.audit.report import URLS_KEPT, read_report
from scrapy_robots_rep.audit.times import any_rfc3339, parse_rfc3339
from scrapy_robots_rep.audit.verify import verify

if TYPE_CHECKING:
    from scrapy_robots_rep.cli.grammar import Context

REPORT_DESCRIPTION = (
    "Write the audit trail (REP_AUDIT_DIR) as one HTML page a person reads, offline: the crawl's summary; per "
    "origin the robots.txt versions in force (fetch times, status, hash, the agent's group with line numbers, "
    "the changes between versions), decisions by outcome over time, the rules that refused most, page-level "
    f"drops, Content-Usage / Content-Signal / License lines, and the last {URLS_KEPT} URLs decided, searchable. "
    "The trail is verified as by audit verify, and the result shown. The files are streamed, never loaded whole."
)


def add_report_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("directory", metavar="AUDIT_DIR", help="the directory REP_AUDIT_DIR named")
    parser.add_argument("-o", "--output", metavar="FILE", required=True, help="the HTML file to write")
    parser.add_argument("--origin", metavar="O", help="only this origin (as the trail writes it: https://host[:port])")
    parser.add_argument("--since", metavar="T", help="only what happened at or after T (RFC 3339)")
    parser.add_argument("--until", metavar="T", help="only what happened at or before T (RFC 3339)")


def run_report(parser: argparse.ArgumentParser, args: argparse.Namespace, context: Context) -> int:
    """Read the trail and write the page."""
    try:
        since = any_rfc3339(parse_rfc3339(args.since)) if args.since is not None else None
        until = any_rfc3339(parse_rfc3339(args.until)) if args.until is not None else None
        report = read_report(args.directory, args.origin, since, until)
    except (ValueError, FileNotFoundError) as error:
        parser.error(str(error))
    path = write_html(report, args.output, any_rfc3339(time.time()), verify(args.directory))
    decided = sum(report.outcomes.values())
    print(f"report of {decided} decision(s) over {len(report.origins)} origin(s) written to {path}")
    return 0
