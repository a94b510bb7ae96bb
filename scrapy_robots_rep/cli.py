"""``python -m scrapy_robots_rep check``: explain what a robots.txt says about some URLs.

ROBOTS is a file, ``-`` for standard input, or the http(s) URL of a live robots.txt, which is
fetched through Scrapy with the same status policy as the middleware. Exit status: 0 if every
URL is allowed, 1 if some is disallowed, 2 on a usage error or when robots.txt could not be had.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit

from scrapy.crawler import AsyncCrawlerProcess

from scrapy_robots_rep.cli_fetch import fetch_robots
from scrapy_robots_rep.cli_report import (
    Check,
    CheckOptions,
    RobotsSource,
    check_urls,
    errors,
    exit_status,
    render_json,
    render_text,
    require_http_urls,
)
from scrapy_robots_rep.core import RobotsTxt
from scrapy_robots_rep.policy.origin import origin_of
from scrapy_robots_rep.policy.settings import MATCHING_MODES, STATUS_POLICIES

STDIN = "-"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        require_http_urls(args.urls)
        check = _run_check(args)
    except ValueError as error:
        parser.error(str(error))
    options = CheckOptions(args.agent, args.matching, args.status_policy)
    print(render_json(options, [check]) if args.json else render_text(options, [check]))
    for error in errors([check]):
        print(error, file=sys.stderr)
    return exit_status([check])


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scrapy_robots_rep",
        description="Explain robots.txt decisions (RFC 9309 or the 1996 draft).",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    check = commands.add_parser(
        "check",
        help="say whether URLs are allowed, and which rule decided",
        description="For each URL: allowed or disallowed, the group, the deciding rule with "
        "its line number, and the reason. Exit status 0: all allowed, 1: some disallowed, "
        "2: usage or fetch error.",
    )
    check.add_argument(
        "robots",
        metavar="ROBOTS",
        help="a robots.txt file, '-' for standard input, or an http(s) URL ending in /robots.txt",
    )
    check.add_argument("urls", metavar="URL", nargs="+", help="absolute URLs to check")
    check.add_argument("--agent", required=True, help="the robot's user-agent name, e.g. mybot")
    check.add_argument(
        "--matching",
        choices=MATCHING_MODES,
        default=MATCHING_MODES[0],
        help="how rules are matched (default: %(default)s)",
    )
    check.add_argument(
        "--status-policy",
        choices=STATUS_POLICIES,
        default=STATUS_POLICIES[0],
        help="what a live robots.txt's HTTP status means (default: %(default)s)",
    )
    check.add_argument("--json", action="store_true", help="print JSON instead of text")
    return parser


def _run_check(args: argparse.Namespace) -> Check:
    if _is_url(args.robots):
        origin = _robots_origin(args.robots)
        source = _fetch_source(origin, args.agent, args.matching, args.status_policy)
    else:
        source = _read_source(args.robots, args.agent, args.matching)
    return check_urls(source, args.urls)


def _robots_origin(url: str) -> str:
    """The origin whose robots.txt ``url`` is; only ``<origin>/robots.txt`` URLs are fetched."""
    origin = origin_of(url)
    parts = urlsplit(url)
    if origin is None or parts.path != "/robots.txt" or parts.query:
        raise ValueError(
            f"ROBOTS URL must be <origin>/robots.txt, e.g. https://example.com/robots.txt, got {url!r}"
        )
    return origin


def _fetch_source(origin: str, agent: str, matching: str, status_policy: str) -> RobotsSource:
    process = AsyncCrawlerProcess(
        {
            "USER_AGENT": agent,
            "REP_USER_AGENT": agent,
            "REP_MATCHING": matching,
            "REP_STATUS_POLICY": status_policy,
            "LOG_LEVEL": "ERROR",
            "TELNETCONSOLE_ENABLED": False,
        }
    )
    return fetch_robots(process, [origin])[origin]


def _read_source(location: str, agent: str, matching: str) -> RobotsSource:
    if location == STDIN:
        return _parsed("<stdin>", "read from standard input", sys.stdin.buffer.read(), agent, matching)
    path = Path(location)
    try:
        body = path.read_bytes()
    except OSError as error:
        raise ValueError(f"cannot read ROBOTS file {location!r}: {error.strerror}") from None
    return _parsed(location, "read from file", body, agent, matching)


def _parsed(location: str, summary: str, body: bytes, agent: str, matching: str) -> RobotsSource:
    rules = RobotsTxt.parse(body, matching).for_agent(agent)
    return RobotsSource(location, summary, "rules", rules)


def _is_url(location: str) -> bool:
    return urlsplit(location).scheme in ("http", "https")

