"""``scrapy robots COMMAND ...``: the command line's one grammar inside a project, with its settings.

Scrapy's own options (``-s NAME=VALUE``, ``-L LEVEL``, ``--logfile``...) are read by Scrapy; every
other argument is parsed by the grammar ``scrapy-robots`` and ``python -m scrapy_robots_rep``
share (:mod:`scrapy_robots_rep.cli.grammar`), so an unknown option is reported as one. Scrapy makes
every command of every ``scrapy`` command line (``scrapy crawl`` too), so the grammar, and the
command line's modules with it, are imported only when this command runs or shows its help.
"""

from __future__ import annotations

import argparse

from scrapy.commands import ScrapyCommand
from scrapy.settings import SETTINGS_PRIORITIES

PROG = "scrapy robots"
SCRAPY_OPTIONS = (
    "Scrapy's options also apply: -s NAME=VALUE (a setting), -L LEVEL (--loglevel), --logfile FILE, --nolog, "
    "--pidfile FILE, --profile FILE, --pdb."
)


class RobotsCommand(ScrapyCommand):
    """Runs a subcommand of the command line (``check``) with the project's settings."""

    requires_project = False

    def syntax(self) -> str:
        return "COMMAND [options] ..."

    def short_desc(self) -> str:
        return "Explain robots.txt decisions with the project's settings (check ROBOTS URL ...)"

    def long_desc(self) -> str:
        from scrapy_robots_rep.cli.grammar import build_parser

        return (
            f"{build_parser(PROG).format_usage().strip()}. The subcommands and options of scrapy-robots, with "
            "the project's settings (REP_USER_AGENT or USER_AGENT, REP_MATCHING, REP_STATUS_POLICY, the limits "
            "and timeouts); the options override them, as -s NAME=VALUE does. Scrapy's log is off unless "
            "--loglevel or --logfile is given."
        )

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        """Scrapy's options; ``-h`` is the shared grammar's help (Scrapy's parser resolves the conflict)."""
        super().add_options(parser)
        parser.add_argument("-h", "--help", action="store_true", help="show the help of scrapy robots COMMAND")

    def process_options(self, args: list[str], opts: argparse.Namespace) -> None:
        """Parse what Scrapy left with the shared grammar; the options become settings; the log stays off."""
        from scrapy_robots_rep.cli.grammar import option_settings, parse

        super().process_options(args, opts)
        assert self.settings is not None
        self.arguments = parse(PROG, [*args, "-h"] if opts.help else args, SCRAPY_OPTIONS)
        self.settings.setdict(option_settings(self.arguments), priority="cmdline")
        if (self.settings.getpriority("LOG_ENABLED") or 0) < SETTINGS_PRIORITIES["cmdline"]:
            self.settings.set("LOG_ENABLED", False, priority="cmdline")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        from scrapy_robots_rep.cli.grammar import Context, run

        assert self.settings is not None and self.crawler_process is not None
        process = self.crawler_process
        self.exitcode = run(self.arguments, Context(self.settings, lambda: process))
