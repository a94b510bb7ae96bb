"""The core benchmark script runs end to end on a small part of the corpus."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_bench_core_smoke_run(corpus: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "bench_core.py"), "--smoke", "--corpus", str(corpus)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert "core (rfc9309)" in result.stdout
    assert "core (legacy)" in result.stdout
    assert "parse MB/s" in result.stdout


def test_bench_memory_smoke_run():
    result = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "bench_memory.py"), "--smoke"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert "RSS growth:" in result.stdout
