"""``scrapy robots URL [URL ...]``: explain robots.txt decisions with the project's settings."""

from __future__ import annotations

import argparse
import sys

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError
from scrapy.settings import SETTINGS_PRIORITIES

from scrapy_robots_rep.cli.checks import EXIT_ERROR, check_urls, errors, exit_status, require_http_urls
from scrapy_robots_rep.cli.decision_output import CheckOptions, render_json, render_text
from scrapy_robots_rep.cli.fetch import fetch_robots
from scrapy_robots_rep.core import MATCHING_MODES
from scrapy_robots_rep.crawl.settings import rep_settings
from scrapy_robots_rep.policy.origin import origin_of
from scrapy_robots_rep.policy.status import STATUS_POLICIES


class RobotsCommand(ScrapyCommand):
    """Fetches ``<origin>/robots.txt`` of each URL, as the middleware would, and explains."""

    requires_project = False

    def syntax(self) -> str:
        return "[options] URL [URL ...]"

    def short_desc(self) -> str:
        return "Say whether robots.txt allows URLs, and which rule decided"

    def long_desc(self) -> str:
        return (
            "Fetch <origin>/robots.txt of each URL with the project's settings (REP_USER_AGENT or "
            "USER_AGENT, REP_MATCHING, REP_STATUS_POLICY; --agent, --matching and --status-policy "
            "override them) and print for each URL: allowed or disallowed, the group, the deciding "
            "rule with its line number, and the reason. Scrapy's log is off unless --loglevel or "
            "--logfile is given. Exit status 0: all allowed, 1: some disallowed, 2: usage or fetch error."
        )

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--agent", help="the robot's user-agent (default: REP_USER_AGENT or USER_AGENT)")
        parser.add_argument("--matching", choices=list(MATCHING_MODES), help="how rules are matched (REP_MATCHING)")
        parser.add_argument(
            "--status-policy",
            choices=list(STATUS_POLICIES),
            help="what robots.txt's HTTP status means (REP_STATUS_POLICY)",
        )
        parser.add_argument("--json", action="store_true", help="print JSON instead of text")

    def process_options(self, args: list[str], opts: argparse.Namespace) -> None:
        """The options become settings; the log stays off unless asked for."""
        super().process_options(args, opts)
        assert self.settings is not None
        if opts.agent is not None:
            self.settings.set("USER_AGENT", opts.agent, priority="cmdline")
            self.settings.set("REP_USER_AGENT", opts.agent, priority="cmdline")
        if opts.matching is not None:
            self.settings.set("REP_MATCHING", opts.matching, priority="cmdline")
        if opts.status_policy is not None:
            self.settings.set("REP_STATUS_POLICY", opts.status_policy, priority="cmdline")
        if (self.settings.getpriority("LOG_ENABLED") or 0) < SETTINGS_PRIORITIES["cmdline"]:
            self.settings.set("LOG_ENABLED", False, priority="cmdline")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        assert self.settings is not None and self.crawler_process is not None
        if not args:
            raise UsageError("give at least one URL", print_help=False)
        try:
            rep = rep_settings(self.settings)
            require_http_urls(args)
        except ValueError as error:
            raise UsageError(str(error), print_help=False) from None
        urls_by_origin: dict[str, list[str]] = {}
        for url in args:
            origin = origin_of(url)
            assert origin is not None
            urls_by_origin.setdefault(origin, []).append(url)
        try:
            sources = fetch_robots(self.crawler_process, list(urls_by_origin))
        except RuntimeError as error:
            print(f"error: {error}", file=sys.stderr)
            self.exitcode = EXIT_ERROR
            return
        checks = [
            check_urls(sources[origin], urls, rep.user_agent, rep.matching) for origin, urls in urls_by_origin.items()
        ]
        options = CheckOptions(rep.user_agent, rep.matching, rep.status_policy)
        print(render_json(options, checks) if opts.json else render_text(options, checks))
        for message in errors(checks):
            print(message, file=sys.stderr)
        self.exitcode = exit_status(checks)
