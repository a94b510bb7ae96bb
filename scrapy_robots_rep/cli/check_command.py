"""``check``: its arguments and its flow, the same through every entry point (:mod:`.grammar`).

ROBOTS is a file, ``-`` for standard input, or a live ``<origin>/robots.txt`` URL, fetched through
Scrapy with the same status policy as the middleware; when the URLs are live, ROBOTS may be left
out and each URL is checked against its own origin's robots.txt. Without a URL, the group the
agent obeys is shown. ``--page PAGE`` shows a page's robots directives instead. The agent,
matching and status policy come from the settings a crawl would have, the options applied. Exit
status: 0 if every URL is allowed (with ``--compare``: the modes agree; with ``--lint``: no
warning; with ``--page``: nothing restricts the agent), 1 otherwise, 2 on a usage error or when
robots.txt (or the page) could not be obtained.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from scrapy.settings import SETTINGS_PRIORITIES, BaseSettings

from scrapy_robots_rep.cli.checks import (
    EXIT_ERROR,
    EXIT_FOUND,
    EXIT_OK,
    RobotsSource,
    check_urls,
    differs,
    errors,
    exit_status,
    require_check_urls,
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
from scrapy_robots_rep.crawl.settings import rep_settings
from scrapy_robots_rep.policy.origin import origin_of
from scrapy_robots_rep.policy.setting_names import unknown_setting_warnings
from scrapy_robots_rep.policy.settings import SettingsError, configured_source
from scrapy_robots_rep.policy.status import STATUS_POLICIES

if TYPE_CHECKING:
    from scrapy_robots_rep.cli.grammar import Context
    from scrapy_robots_rep.core import ExtensionField

CHECK_DESCRIPTION = (
    "For each URL: allowed or disallowed, the group, the deciding rule with its line number, and the "
    "reason; without a URL, the group the agent obeys, line by line. --compare shows both matching modes "
    "side by side; --lint lists what to fix in the file; --page shows what a page's robots meta tags and "
    "X-Robots-Tag headers restrict, and why. The agent, matching and status policy are the settings' "
    "(a project's with scrapy robots) unless given. Exit status 0: all allowed (modes agree, no lint "
    "warning, page restricts nothing), 1: some disallowed (modes differ, lint warnings, page restricts "
    "the agent), 2: usage error or robots.txt (or the page) not obtained."
)


def add_check_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``check``."""
    parser.add_argument(
        "robots",
        metavar="ROBOTS",
        nargs="?",
        help="a robots.txt file, '-' for standard input, or an http(s) URL ending in /robots.txt; left out "
        "when the URLs are live: each is checked against its own origin's robots.txt (not with --page)",
    )
    parser.add_argument(
        "urls",
        metavar="URL",
        nargs="*",
        help="absolute URLs to check, or paths such as /wiki/X (on the file's unnamed origin, or the live "
        "robots.txt's origin); none: show the group the agent obeys",
    )
    parser.add_argument(
        "--agent",
        help="the robot's user-agent, e.g. mybot or 'mybot/1.0 (+https://example.com/bot)'; required unless the "
        "settings name the robot (inside a project with scrapy robots: its REP_USER_AGENT, ROBOTSTXT_USER_AGENT "
        "or USER_AGENT; outside a project there is none, so it is required); sent as User-Agent when ROBOTS or "
        "PAGE is a URL",
    )
    parser.add_argument(
        "--matching",
        choices=list(MATCHING_MODES),
        help="how rules are matched (default: REP_MATCHING, rfc9309)",
    )
    parser.add_argument(
        "--status-policy",
        choices=list(STATUS_POLICIES),
        help="what a live robots.txt's HTTP status means (default: REP_STATUS_POLICY, rfc9309)",
    )
    parser.add_argument("--compare", action="store_true", help="show both matching modes side by side")
    parser.add_argument("--lint", action="store_true", help="list what to fix in ROBOTS (no URL)")
    parser.add_argument(
        "--page",
        metavar="PAGE",
        help="show what a page's robots meta tags and X-Robots-Tag headers restrict for the agent, and why: "
        "an HTML file, '-' for standard input, or an http(s) URL (fetched with its origin's robots.txt; "
        "no ROBOTS, no URL)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def run_check(parser: argparse.ArgumentParser, args: argparse.Namespace, context: Context) -> int:
    """Check, compare, lint or read a page as ``args`` say; usage errors exit through ``parser``."""
    for warning in unknown_setting_warnings(context.settings):
        print(f"warning: {warning}", file=sys.stderr)
    _require_consistent(parser, args, context.settings)
    try:
        settings = rep_settings(context.settings)
    except SettingsError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_ERROR
    options = CheckOptions(settings.user_agent, settings.matching, settings.status_policy)
    if args.page is not None:
        return _page(parser, args, options, context)
    try:
        sources = _sources(args, context)
    except ValueError as error:
        parser.error(str(error))
    except RuntimeError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_ERROR
    if args.lint:
        return _lint(sources[0][0], options, settings.extension_fields, args.json)
    _warn_about_agent(options.agent, list(MATCHING_MODES) if args.compare else [options.matching])
    if args.compare:
        if len(sources) > 1:
            parser.error("--compare compares one robots.txt: give URLs of one origin")
        return _compare(*sources[0], options, args.json)
    checks = [check_urls(source, urls, options.agent, options.matching) for source, urls in sources]
    print(render_json(options, checks) if args.json else render_text(options, checks))
    for message in errors(checks):
        print(message, file=sys.stderr)
    return exit_status(checks)


def _require_consistent(parser: argparse.ArgumentParser, args: argparse.Namespace, settings: BaseSettings) -> None:
    if args.page is not None:
        if args.robots is not None or args.urls:
            parser.error("--page reads the page, and for a URL its origin's robots.txt: give no ROBOTS or URL")
        if args.lint or args.compare:
            parser.error("--page cannot be combined with --lint or --compare")
        _require_agent(parser, args, settings)
        return
    if args.robots is None:
        parser.error("the following arguments are required: ROBOTS")
    if args.lint:
        if args.urls:
            parser.error("--lint checks ROBOTS itself: give no URL")
        if args.compare:
            parser.error("--lint and --compare cannot be combined")
        return
    if args.compare and not args.urls and not _live_url(args.robots):
        parser.error("--compare compares decisions: give a URL")
    _require_agent(parser, args, settings)


def _require_agent(parser: argparse.ArgumentParser, args: argparse.Namespace, settings: BaseSettings) -> None:
    """``--agent`` is needed unless the settings name the robot (Scrapy's default ``USER_AGENT`` does not)."""
    if args.agent is not None:
        return
    source = configured_source(settings, "user_agent")
    if source is None or (settings.getpriority(source) or 0) <= SETTINGS_PRIORITIES["default"]:
        parser.error(
            "the following arguments are required: --agent (the settings name no robot in REP_USER_AGENT, "
            "ROBOTSTXT_USER_AGENT or USER_AGENT; outside a Scrapy project there are no such settings)"
        )


def _live_url(robots: str) -> bool:
    """Whether ROBOTS is a live URL to check (not a robots.txt): it is then the first URL."""
    return is_url(robots) and urlsplit(robots).path != "/robots.txt"


def _sources(args: argparse.Namespace, context: Context) -> list[tuple[RobotsSource, list[str]]]:
    """Each robots.txt in force with the URLs it decides; ValueError for a usage error."""
    robots: str = args.robots
    urls: list[str] = list(args.urls)
    if not is_url(robots):
        require_check_urls(urls)
        return [(read_source(robots), urls)]
    if urlsplit(robots).path == "/robots.txt":
        origin = robots_origin(robots)
        urls = [origin + url if url.startswith("/") else url for url in urls]
        require_http_urls(urls)
        return [(fetch_robots(context.process(), [origin])[origin], urls)]
    if args.lint:
        robots_origin(robots)
    paths = [url for url in urls if url.startswith("/")]
    if paths:
        raise ValueError(
            f"a path such as {paths[0]!r} is checked against a robots.txt given as ROBOTS: "
            f"give {origin_of(robots)}/robots.txt first, or absolute URLs"
        )
    urls = [robots, *urls]
    require_http_urls(urls)
    by_origin: dict[str, list[str]] = {}
    for url in urls:
        by_origin.setdefault(str(origin_of(url)), []).append(url)
    fetched = fetch_robots(context.process(), list(by_origin))
    return [(fetched[origin], origin_urls) for origin, origin_urls in by_origin.items()]


def _page(parser: argparse.ArgumentParser, args: argparse.Namespace, options: CheckOptions, context: Context) -> int:
    source: PageSource
    try:
        if is_url(args.page):
            require_http_urls([args.page])
            source = fetch_page(context.process(), args.page)
        else:
            source = read_page(args.page)
    except ValueError as error:
        parser.error(str(error))
    except RuntimeError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_ERROR
    check = check_page(source, options.agent, options.matching)
    render = render_page_json if args.json else render_page_text
    print(render(options.agent, check))
    return page_exit_status(check)


def _lint(source: RobotsSource, options: CheckOptions, extensions: Sequence[ExtensionField], as_json: bool) -> int:
    """Lint ``source`` as a crawl with these settings reads it (its declared extension fields included)."""
    if source.body is None:
        print(f"error: no robots.txt to lint at {source.location}: {source.summary}", file=sys.stderr)
        return EXIT_ERROR
    warnings = lint(source.body, options.matching, max_size=source.max_size, extensions=extensions)
    render = render_lint_json if as_json else render_lint_text
    print(render(source, options.matching, warnings))
    return lint_exit_status(warnings)


def _compare(source: RobotsSource, urls: list[str], options: CheckOptions, as_json: bool) -> int:
    checks = {mode: check_urls(source, urls, options.agent, mode) for mode in MATCHING_MODES}
    render = render_compare_json if as_json else render_compare_text
    print(render(options.agent, options.status_policy, checks))
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
    """A warning on standard error when no group could ever match the agent, or it names no robot."""
    problems = {matching_mode(mode).agent_problem(agent) for mode in modes} - {None}
    for problem in sorted(str(problem) for problem in problems):
        print(f"warning: {problem}", file=sys.stderr)
