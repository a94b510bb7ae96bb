"""The command line: ``scrapy-robots``, ``python -m scrapy_robots_rep`` and ``scrapy robots``, one grammar.

One module per job: :mod:`.grammar` is the one parser every entry point parses with (its
subcommands and how one runs), :mod:`.main` the entry points outside a project,
:mod:`.check_command` the ``check`` subcommand, :mod:`.sources` reads a robots.txt file,
:mod:`.fetch` fetches a live one through Scrapy, :mod:`.checks` decides URLs,
:mod:`.decision_output` prints decisions and :mod:`.lint_output` lint warnings. ``check --page``:
:mod:`.page` reads a page's directives, :mod:`.page_fetch` fetches a live one with its origin's
robots.txt, :mod:`.page_output` prints them.
"""

from scrapy_robots_rep.cli.main import main, scrapy_robots_main

__all__ = ["main", "scrapy_robots_main"]
