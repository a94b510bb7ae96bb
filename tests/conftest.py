"""Fixtures shared by every test folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.sites import Sites

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


@pytest.fixture
def sites() -> Iterator[Sites]:
    """Start loopback sites with ``sites.start(routes)``; all are stopped after the test."""
    with Sites() as started:
        yield started


@pytest.fixture(scope="session")
def corpus() -> Path:
    """The shared corpus of real robots.txt files and URLs (``../shared/corpus``)."""
    if not (CORPUS / "robots").is_dir():
        pytest.skip(f"the shared corpus is not at {CORPUS}")
    return CORPUS
