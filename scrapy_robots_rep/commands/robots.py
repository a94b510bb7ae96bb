"""``scrapy robots URL [URL ...]``: explain robots.txt decisions with the project's settings."""

from __future__ import annotations

import argparse
import sys

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from scrapy_robots_rep.cli_fetch import fetch_robots
from scrapy_robots_rep.cli_report import (
    CheckOptions,
    check_urls,
    errors,
    exit_status,
    render_json,
    render_text,
    require_http_urls,
)
from scrapy_robots_rep.policy.origin import origin_of
from scrapy_robots_rep.policy.settings import RepSettings


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
            "USER_AGENT, REP_MATCHING, REP_STATUS_POLICY) and print for each URL: allowed or "
            "disallowed, the group, the deciding rule with its line number, and the reason. "
            "Exit status 0: all allowed, 1: some disallowed, 2: usage or fetch error."
        )

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--json", action="store_true", help="print JSON instead of text")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        assert self.settings is not None and self.crawler_process is not None
        if not args:
            raise UsageError("give at least one URL", print_help=False)
        try:
            rep = RepSettings.from_mapping(self.settings)
            require_http_urls(args)
        except ValueError as error:
            raise UsageError(str(error), print_help=False) from None
        urls_by_origin: dict[str, list[str]] = {}
        for url in args:
            urls_by_origin.setdefault(origin_of(url), []).append(url)
        sources = fetch_robots(self.crawler_process, list(urls_by_origin))
        checks = [check_urls(sources[origin], urls) for origin, urls in urls_by_origin.items()]
        options = CheckOptions(rep.user_agent, rep.matching, rep.status_policy)
        print(render_json(options, checks) if opts.json else render_text(options, checks))
        for error in errors(checks):
            print(error, file=sys.stderr)
        self.exitcode = exit_status(checks)
