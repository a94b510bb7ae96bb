"""``python -m scrapy_robots_rep`` and the ``scrapy-robots`` script: the one grammar (:mod:`.grammar`)
with Scrapy's default settings, the options applied; live fetches run in a quiet Scrapy process."""

from __future__ import annotations

from collections.abc import Sequence

from scrapy.settings import Settings

from scrapy_robots_rep.cli.grammar import Context, option_settings, parse, run
from scrapy_robots_rep.crawl.scrapy_compat import crawler_process

QUIET = {"LOG_LEVEL": "ERROR", "TELNETCONSOLE_ENABLED": False}
"""Settings of the short crawls that fetch live robots.txt files and pages."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``python -m scrapy_robots_rep``; returns the exit status."""
    return run_command_line("python -m scrapy_robots_rep", argv)


def scrapy_robots_main(argv: Sequence[str] | None = None) -> int:
    """Run the ``scrapy-robots`` console script; returns the exit status."""
    return run_command_line("scrapy-robots", argv)


def run_command_line(prog: str, argv: Sequence[str] | None) -> int:
    """Parse ``argv`` with the one grammar and run its subcommand outside a project."""
    args = parse(prog, argv)
    settings = Settings(QUIET, priority="project")
    settings.setdict(option_settings(args), priority="cmdline")
    return run(args, Context(settings, lambda: crawler_process(settings)))
