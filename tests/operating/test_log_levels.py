"""Per-request and per-origin DEBUG lines are made only when a handler would keep them (``crawl/outcomes.py``)."""

from __future__ import annotations

import logging

import pytest

from scrapy_robots_rep.crawl.outcomes import _kept


@pytest.fixture
def chain() -> tuple[logging.Logger, logging.Logger, logging.Logger]:
    """A root, a logger and its child in a hierarchy of their own (pytest puts its capture handlers
    on the loggers of the process's), levels as Scrapy leaves them: records of every level are made."""
    root = logging.RootLogger(logging.DEBUG)
    manager = logging.Manager(root)
    parent, child = manager.getLogger("plugin"), manager.getLogger("plugin.part")
    return root, parent, child


def test_a_record_below_every_handler_is_not_made(chain):
    root, _, child = chain
    root.addHandler(logging.NullHandler(logging.INFO))  # Scrapy's handler at LOG_LEVEL = INFO

    assert not _kept(child, logging.DEBUG)
    assert _kept(child, logging.INFO)


def test_a_handler_anywhere_up_the_chain_that_keeps_the_level_is_enough(chain):
    root, parent, child = chain
    root.addHandler(logging.NullHandler(logging.WARNING))
    child.addHandler(logging.NullHandler(logging.INFO))
    assert not _kept(child, logging.DEBUG)

    parent.addHandler(logging.NullHandler(logging.NOTSET))
    assert _kept(child, logging.DEBUG)


def test_a_logger_that_does_not_propagate_ends_the_chain(chain):
    root, parent, child = chain
    root.addHandler(logging.NullHandler(logging.NOTSET))
    parent.addHandler(logging.NullHandler(logging.INFO))
    parent.propagate = False

    assert not _kept(child, logging.DEBUG)


def test_the_logger_level_decides_first(chain):
    root, _, child = chain
    root.addHandler(logging.NullHandler(logging.NOTSET))
    child.setLevel(logging.INFO)

    assert not _kept(child, logging.DEBUG)


def test_without_any_handler_the_last_resort_decides(chain):
    _, _, child = chain

    assert not _kept(child, logging.INFO)
    assert _kept(child, logging.WARNING)
