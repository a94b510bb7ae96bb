"""The command line: ``python -m scrapy_robots_rep check``, the ``scrapy-robots`` script, ``scrapy robots``.

One module per job: :mod:`.main` reads the arguments, :mod:`.sources` reads a
robots.txt file, :mod:`.fetch` fetches a live one through Scrapy, :mod:`.checks`
decides URLs, :mod:`.decision_output` prints decisions and :mod:`.lint_output` lint warnings.
``check --page``: :mod:`.page` reads a page's directives, :mod:`.page_fetch` fetches a live
one with its origin's robots.txt, :mod:`.page_output` prints them.
"""

from scrapy_robots_rep.cli.main import main, scrapy_robots_main

__all__ = ["main", "scrapy_robots_main"]
