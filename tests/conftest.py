"""Fixtures shared by every test folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.corpus import corpus_dir
from tests.sites import Sites


@pytest.fixture
def sites() -> Iterator[Sites]:
    """Start loopback sites with ``sites.start(routes)``; all are stopped after the test."""
    with Sites() as started:
        yield started


@pytest.fixture(scope="session")
def corpus() -> Path:
    """Real robots.txt files and URLs: the full corpus when present, else the shipped sample (tests/corpus.py)."""
    return corpus_dir()
