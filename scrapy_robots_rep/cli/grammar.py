"""The one command-line grammar of ``scrapy-robots``, ``python -m scrapy_robots_rep`` and ``scrapy robots``.

:func:`build_parser` builds the parser all three entry points parse with, so they accept the same
subcommands and options and report a usage error the same way (argparse's own messages, exit
status 2). A subcommand is one :class:`Command` in :data:`COMMANDS`: its arguments and the
function that runs it with a :class:`Context` (the settings a crawl would have, and the Scrapy
process live fetches run in).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from scrapy.settings import BaseSettings

from scrapy_robots_rep.cli.audit import AUDIT_DESCRIPTION, add_audit_arguments, run_audit
from scrapy_robots_rep.cli.audit_report import REPORT_DESCRIPTION, add_report_arguments, run_report
from scrapy_robots_rep.cli.audit_verify import VERIFY_DESCRIPTION, add_verify_arguments, run_verify
from scrapy_robots_rep.cli.check_command import CHECK_DESCRIPTION, add_check_arguments, run_check

if TYPE_CHECKING:
    from scrapy.crawler import CrawlerProcessBase

DESCRIPTION = "Explain and lint robots.txt (RFC 9309 or the 1996 draft); show a page's robots directives."


@dataclass(frozen=True, slots=True)
class Context:
    """What a subcommand runs with besides its arguments."""

    settings: BaseSettings
    """The settings a crawl would have: the project's (or Scrapy's defaults), the options applied."""
    process: Callable[[], CrawlerProcessBase]
    """The Scrapy process live robots.txt files and pages are fetched in (made when first needed)."""


Run = Callable[[argparse.ArgumentParser, argparse.Namespace, Context], int]
"""Runs a subcommand: its own parser (for usage errors), the parsed arguments, the context; returns the exit status."""


@dataclass(frozen=True, slots=True)
class Command:
    """One subcommand: its name, one line of help, a description, its arguments and how it runs."""

    name: str
    help: str
    description: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Run


COMMANDS: tuple[Command, ...] = (
    Command(
        "check",
        "say whether URLs are allowed and which rule decided; show the group an agent obeys; lint a robots.txt; "
        "show a page's directives",
        CHECK_DESCRIPTION,
        add_check_arguments,
        run_check,
    ),
    Command(
        "audit",
        "say what a crawl's audit trail (REP_AUDIT_DIR) holds about URLs: fetched, dropped or never seen, and why",
        AUDIT_DESCRIPTION,
        add_audit_arguments,
        run_audit,
    ),
    Command(
        "audit verify",
        "check that a crawl's audit trail is as written: hash chains, manifests, signatures, robots.txt bodies",
        VERIFY_DESCRIPTION,
        add_verify_arguments,
        run_verify,
    ),
    Command(
        "audit report",
        "write a crawl's audit trail as one self-contained HTML page: robots.txt versions, decisions, pages, URLs",
        REPORT_DESCRIPTION,
        add_report_arguments,
        run_report,
    ),
)
"""Every subcommand, in the order ``--help`` lists them."""

_TWO_WORDS = frozenset(command.name for command in COMMANDS if " " in command.name)
_COMMAND = "rep_command"
_PARSER = "rep_parser"


def build_parser(prog: str, epilog: str | None = None) -> argparse.ArgumentParser:
    """The parser of every entry point; ``prog`` is how the user called it (``scrapy robots``),
    ``epilog`` what its help adds (the entry point's own options)."""
    parser = argparse.ArgumentParser(prog=prog, description=DESCRIPTION, epilog=epilog)
    subcommands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        subparser = subcommands.add_parser(
            command.name, help=command.help, description=command.description, epilog=epilog
        )
        command.add_arguments(subparser)
        subparser.set_defaults(**{_COMMAND: command, _PARSER: subparser})
    return parser


def parse(prog: str, argv: Sequence[str] | None, epilog: str | None = None) -> argparse.Namespace:
    """Parse ``argv``; a usage error exits with status 2 and argparse's message.

    A command of two words (``audit verify``) is one subcommand: its words are joined before
    parsing (so ``audit DIR URL`` keeps meaning a directory named ``DIR``, unless it is named
    ``verify``: write ``./verify`` then)."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if len(arguments) >= 2 and f"{arguments[0]} {arguments[1]}" in _TWO_WORDS:
        arguments[:2] = [f"{arguments[0]} {arguments[1]}"]
    return build_parser(prog, epilog).parse_args(arguments)


def run(args: argparse.Namespace, context: Context) -> int:
    """Run the subcommand ``args`` name; returns its exit status."""
    command: Command = getattr(args, _COMMAND)
    return command.run(getattr(args, _PARSER), args, context)


def option_settings(args: argparse.Namespace) -> dict[str, object]:
    """The settings the options given set, as a crawl would have them: ``--agent`` is also the
    ``User-Agent`` sent."""
    settings: dict[str, object] = {}
    if getattr(args, "agent", None) is not None:
        settings.update(REP_USER_AGENT=args.agent, USER_AGENT=args.agent)
    if getattr(args, "matching", None) is not None:
        settings["REP_MATCHING"] = args.matching
    if getattr(args, "status_policy", None) is not None:
        settings["REP_STATUS_POLICY"] = args.status_policy
    return settings
