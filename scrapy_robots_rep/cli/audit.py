"""``audit AUDIT_DIR URL... [--at TIME] [--json]``: what the audit trail says about URLs.

A subcommand of the one grammar (``scrapy-robots audit``, ``python -m scrapy_robots_rep audit``,
``scrapy robots audit``). Fetched, dropped or never seen; when; the robots.txt that decided (hash,
fetch time, status) with the deciding rule quoted from the stored copy; what the page said. Exit
status 0 when every URL is in the trail, 1 when one is not, 2 on a usage error (``docs/evidence.md``).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from scrapy_robots_rep.audit import AuditDirectory, Finding
from scrapy_robots_rep.audit.times import parse_rfc3339

if TYPE_CHECKING:
    from scrapy_robots_rep.cli.grammar import Context

EXIT_FOUND = 0
EXIT_NOT_FOUND = 1

AUDIT_DESCRIPTION = (
    "Say what the audit trail (REP_AUDIT_DIR) holds about each URL: fetched, dropped or never seen; when; the "
    "robots.txt that decided (hash, fetch time, status) with the deciding rule quoted from the stored copy; "
    "what the page said. Every process's files in AUDIT_DIR are read as one. Exit status 0: all found, "
    "1: some not found, 2: usage error."
)


def add_audit_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("directory", metavar="AUDIT_DIR", help="the directory REP_AUDIT_DIR named")
    parser.add_argument("urls", metavar="URL", nargs="+", help="a URL as it was requested")
    parser.add_argument(
        "--at",
        metavar="TIME",
        help="answer as of TIME (RFC 3339, e.g. 2026-11-26T06:40:00Z): the last decision made by then",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def run_audit(parser: argparse.ArgumentParser, args: argparse.Namespace, context: Context) -> int:
    """Answer for each URL from the audit directory; nothing is fetched."""
    for url in args.urls:
        if urlsplit(url).scheme not in ("http", "https"):
            parser.error(f"URL must be an absolute http(s) URL, as it was requested, got {url!r}")
    try:
        at = parse_rfc3339(args.at) if args.at is not None else None
        directory = AuditDirectory(args.directory)
    except (ValueError, FileNotFoundError) as error:
        parser.error(str(error))
    findings = [directory.find(url, at) for url in args.urls]
    print(render_findings(findings, args.json))
    return EXIT_FOUND if all(finding.found for finding in findings) else EXIT_NOT_FOUND


def render_findings(findings: Sequence[Finding], as_json: bool) -> str:
    if as_json:
        data: Any = [finding.to_dict() for finding in findings]
        return json.dumps(data if len(findings) != 1 else data[0], indent=2, ensure_ascii=False)
    return "\n\n".join(render_text(finding) for finding in findings)


def render_text(finding: Finding) -> str:
    """The finding for people: one fact per line."""
    decision = finding.decision
    if decision is None:
        return f"{finding.url}: never seen"
    lines = [f"{finding.url}: {finding.verdict}"]
    lines.append(
        f"  decision: {decision['decision']} at {decision['time']} "
        f"(agent {decision['agent']!r}, matching {decision['matching']}, status policy {decision['status_policy']})"
    )
    if finding.earlier:
        lines.append(f"  decided {len(finding.earlier)} time(s) before, the last decision is shown")
    sha256 = decision.get("sha256")
    if sha256 is not None:
        lines.append(f"  robots.txt: sha256 {sha256}, stored as {finding.body_path}")
        fetch = finding.fetch
        if fetch is not None:
            lines.append(
                f"    fetched {fetch['time']} from {fetch['url']}: status {fetch['status']}, outcome {fetch['outcome']}"
            )
    elif decision.get("origin") is not None:
        lines.append("  robots.txt: no body decided (see the reason)")
    if decision.get("group") is not None:
        lines.append(f"  group: {', '.join(decision['group']) or 'none'}")
    rule = decision.get("rule")
    if rule is not None:
        quoted = finding.quoted_rule
        source = f"{quoted!r} (quoted from the stored copy)" if quoted is not None else f"{rule['text']!r}"
        lines.append(f"  rule: line {rule['line']}: {source}")
    lines.append(f"  reason: {decision['reason']}")
    page = finding.page
    if page is not None:
        flags = ", ".join(f"{name} {'yes' if page[name] else 'no'}" for name in ("noindex", "nofollow", "noarchive"))
        purposes = ", ".join(f"{name} {'allowed' if ok else 'refused'}" for name, ok in page["purposes"].items())
        lines.append(f"  page: status {page['status']} at {page['time']}: {flags}; {purposes}")
        lines.extend(f"    said: {source}" for source in page["sources"])
        if page["dropped"]:
            dropped = ", ".join(f"{kind} {count}" for kind, count in sorted(page["dropped"].items()))
            lines.append(f"    dropped because of it: {dropped}")
    elif finding.verdict == "fetched":
        lines.append("  page: no pages line (not seen by the page-level middleware)")
    return "\n".join(lines)
