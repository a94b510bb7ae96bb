"""``scrapy robots`` where the installed Scrapy is too old: it says which Scrapy is needed.

Only ``ScrapyCommand`` is used here, whose interface is the same in every Scrapy since 2.0.
"""

from __future__ import annotations

import argparse
import sys

from scrapy.commands import ScrapyCommand

EXIT_UNSUPPORTED = 2


def unsupported_command(problem: str) -> type[ScrapyCommand]:
    """A command class whose description and every run say ``problem``."""

    class UnsupportedScrapyCommand(ScrapyCommand):
        requires_project = False

        def short_desc(self) -> str:
            return f"unavailable: {problem}"

        def run(self, args: list[str], opts: argparse.Namespace) -> None:
            print(f"scrapy robots: {problem}", file=sys.stderr)
            self.exitcode = EXIT_UNSUPPORTED

    return UnsupportedScrapyCommand
