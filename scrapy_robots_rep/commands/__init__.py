"""Scrapy commands added by scrapy_robots_rep (declared in the ``scrapy.commands`` entry point group).

Scrapy loads every command of that group for every ``scrapy`` command line, in any project. So
``RobotsCommand`` is looked up here, not imported: on a Scrapy older than the plugin supports it
is a command that only says which Scrapy is needed, and ``scrapy list`` and the others still run.
"""

from __future__ import annotations

from typing import Any

from scrapy_robots_rep.crawl.scrapy_compat import installed_scrapy, unsupported_message


def __getattr__(name: str) -> Any:
    if name != "RobotsCommand":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    problem = unsupported_message(installed_scrapy())
    if problem is not None:
        from scrapy_robots_rep.commands.unsupported import unsupported_command

        return unsupported_command(problem)
    from scrapy_robots_rep.commands.robots import RobotsCommand

    return RobotsCommand
