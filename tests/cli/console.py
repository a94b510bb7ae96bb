"""The command line run in-process by the tests: its exit status and what it printed."""

from __future__ import annotations

import pytest

from scrapy_robots_rep.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err
