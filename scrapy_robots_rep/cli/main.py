"""``python -m scrapy_robots_rep check`` and the ``scrapy-robots`` script: arguments and flow.

ROBOTS is a file, ``-`` for standard input, or the http(s) URL of a live robots.txt, fetched
through Scrapy with the same status policy as the middleware. ``--page PAGE`` shows a page's
robots directives instead (an HTML file, ``-``, or a live URL). Exit status: 0 if every URL is
allowed (with ``--compare``: the modes agree; with ``--lint``: no warning; with ``--page``: nothing
restricts the agent), 1 otherwise, 2 on a usage error or when robots.txt (or the page) could not
be obtained.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from scrapy.crawler import AsyncCrawlerProcess

from scrapy_robots_rep.cli.checks import (
    EXIT_ERROR,
    EXIT_FOUND,
    EXIT_OK,
    RobotsSource,
    check_urls,
    differs,
    errors,
    exit_status,
    require_http_urls,
)
from scrapy_robots_rep.cli.decision_output import (
    CheckOptions,
    render_compare_json,
    render_compare_text,
    render_json,
    render_text,
)
from scrapy_robots_rep.cli.fetch import fetch_robots
from scrapy_robots_rep.cli.lint_output import lint_exit_status, render_lint_json, render_lint_text
from scrapy_robots_rep.cli.page import PageSource, check_page, page_exit_status, read_page
from scrapy_robots_rep.cli.page_fetch import fetch_page
from scrapy_robots_rep.cli.page_output import render_page_json, render_page_text
from scrapy_robots_rep.cli.sources import is_url, read_source, robots_origin
from scrapy_robots_rep.core import MATCHING_MODES, matching_mode
from scrapy_robots_rep.core.lint import lint
from scrapy_robots_rep.policy.status import STATUS_POLICIES

DESCRIPTION = (
    "For each URL: allowed or disallowed, the group, the deciding rule with its line number, and the "
    "reason. --compare shows both matching modes side by side; --lint lists what to fix in the file; "
    "--page shows what a page's robots meta tags and X-Robots-Tag headers restrict, and why. "
    "Exit status 0: all allowed (modes agree, no lint warning, page restricts nothing), 1: some "
    "disallowed (modes differ, lint warnings, page restricts the agent), 2: usage error or robots.txt "
    "(or the page) not obtained."
)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``python -m scrapy_robots_rep``; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m scrapy_robots_rep",
        description="Explain and lint robots.txt (RFC 9309 or the 1996 draft); show a page's robots directives.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    check = commands.add_parser(
        "check",
        help="say whether URLs are allowed and which rule decided; lint a robots.txt; show a page's directives",
        description=DESCRIPTION,
    )
    add_check_arguments(check)
    return run_check(check, parser.parse_args(argv))


def scrapy_robots_main(argv: Sequence[str] | None = None) -> int:
    """Run the ``scrapy-robots`` console script: ``check`` without the command name."""
    parser = argparse.ArgumentParser(prog="scrapy-robots", description=DESCRIPTION)
    add_check_arguments(parser)
    return run_check(parser, parser.parse_args(argv))


def add_check_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``check``."""
    parser.add_argument(
        "robots",
        metavar="ROBOTS",
        nargs="?",
        help="a robots.txt file, '-' for standard input, or an http(s) URL ending in /robots.txt (not with --page)",
    )
    parser.add_argument("urls", metavar="URL", nargs="*", help="absolute URLs to check")
    parser.add_argument(
        "--agent",
        help="the robot's user-agent, e.g. mybot or 'mybot/1.0 (+https://example.com/bot)' "
        "(required with URLs and --page; sent as User-Agent when ROBOTS or PAGE is a URL)",
    )
    parser.add_argument(
        "--matching",
        choices=list(MATCHING_MODES),
        default="rfc9309",
        help="how rules are matched (default: %(default)s)",
    )
    parser.add_argument(
        "--status-policy",
        choices=list(STATUS_POLICIES),
        default="rfc9309",
        help="what a live robots.txt's HTTP status means (default: %(default)s)",
    )
    parser.add_argument("--compare", action="store_true", help="show both matching modes side by side")
    parser.add_argument("--lint", action="store_true", help="list what to fix in ROBOTS (no URL)")
    parser.add_argument(
        "--page",
        metavar="PAGE",
        help="show what a page's robots meta tags and X-Robots-Tag headers restrict for --agent, and why: "
        "an HTML file, '-' for standard input, or an http(s) URL (fetched with its origin's robots.txt; "
        "no ROBOTS, no URL)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def run_check(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Check, compare or lint as ``args`` say; usage errors exit through ``parser``."""
    _require_consistent(parser, args)
    if args.page is not None:
        return _page(parser, args)
    try:
        require_http_urls(args.urls)
        source = _source(args)
    except ValueError as error:
        parser.error(str(error))
    except RuntimeError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_ERROR
    if args.lint:
        return _lint(source, args)
    _warn_about_agent(args.agent, list(MATCHING_MODES) if args.compare else [args.matching])
    if args.compare:
        return _compare(source, args)
    check = check_urls(source, args.urls, args.agent, args.matching)
    options = CheckOptions(args.agent, args.matching, args.status_policy)
    print(render_json(options, [check]) if args.json else render_text(options, [check]))
    for message in errors([check]):
        print(message, file=sys.stderr)
    return exit_status([check])


def _require_consistent(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    if args.page is not None:
        if args.robots is not None or args.urls:
            parser.error("--page reads the page, and for a URL its origin's robots.txt: give no ROBOTS or URL")
        if args.lint or args.compare:
            parser.error("--page cannot be combined with --lint or --compare")
        if args.agent is None:
            parser.error("the following arguments are required: --agent")
        return
    if args.robots is None:
        parser.error("the following arguments are required: ROBOTS")
    if args.lint:
        if args.urls:
            parser.error("--lint checks ROBOTS itself: give no URL")
        if args.compare:
            parser.error("--lint and --compare cannot be combined")
        return
    if not args.urls:
        parser.error("the following arguments are required: URL")
    if args.agent is None:
        parser.error("the following arguments are required: --agent")


def _source(args: argparse.Namespace) -> RobotsSource:
    if not is_url(args.robots):
        return read_source(args.robots)
    origin = robots_origin(args.robots)
    return fetch_robots(_fetch_process(args), [origin])[origin]


def _fetch_process(args: argparse.Namespace) -> AsyncCrawlerProcess:
    """The Scrapy process live robots.txt files and pages are fetched with: the options as settings."""
    settings: dict[str, object] = {
        "REP_MATCHING": args.matching,
        "REP_STATUS_POLICY": args.status_policy,
        "LOG_LEVEL": "ERROR",
        "TELNETCONSOLE_ENABLED": False,
    }
    if args.agent is not None:
        settings.update(USER_AGENT=args.agent, REP_USER_AGENT=args.agent)
    return AsyncCrawlerProcess(settings)


def _page(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    source: PageSource
    try:
        if is_url(args.page):
            require_http_urls([args.page])
            source = fetch_page(_fetch_process(args), args.page)
        else:
            source = read_page(args.page)
    except ValueError as error:
        parser.error(str(error))
    except RuntimeError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_ERROR
    check = check_page(source, args.agent, args.matching)
    render = render_page_json if args.json else render_page_text
    print(render(args.agent, check))
    return page_exit_status(check)


def _lint(source: RobotsSource, args: argparse.Namespace) -> int:
    if source.body is None:
        print(f"error: no robots.txt to lint at {source.location}: {source.summary}", file=sys.stderr)
        return EXIT_ERROR
    warnings = lint(source.body, args.matching, max_size=source.max_size)
    render = render_lint_json if args.json else render_lint_text
    print(render(source, args.matching, warnings))
    return lint_exit_status(warnings)


def _compare(source: RobotsSource, args: argparse.Namespace) -> int:
    checks = {mode: check_urls(source, args.urls, args.agent, mode) for mode in MATCHING_MODES}
    render = render_compare_json if args.json else render_compare_text
    print(render(args.agent, args.status_policy, checks))
    for message in errors(list(checks.values())[:1]):
        print(message, file=sys.stderr)
    if source.outcome.failed:
        return EXIT_ERROR
    first, *others = checks.values()
    for position, result in enumerate(first.results):
        if any(differs(result, other.results[position]) for other in others):
            return EXIT_FOUND
    return EXIT_OK


def _warn_about_agent(agent: str, modes: Sequence[str]) -> None:
    """A warning on standard error when no group could ever match the agent."""
    problems = {matching_mode(mode).agent_problem(agent) for mode in modes} - {None}
    for problem in sorted(str(problem) for problem in problems):
        print(f"warning: {problem}", file=sys.stderr)
