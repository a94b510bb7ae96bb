"""``benchmarks/bench_revalidation.py --smoke`` runs end to end: every refresh with validators is a 304."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_smoke_run_revalidates_every_origin_with_a_304() -> None:
    completed = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "bench_revalidation.py"), "--smoke"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    rows = {
        mode: (int(ok), int(not_modified), int(sent.replace(",", "")))
        for mode, ok, not_modified, sent in re.findall(
            r"^(validators|no validators|no refresh)\s+(\d+)\s+(\d+)\s+([\d,]+)\s", completed.stdout, re.MULTILINE
        )
    }
    assert set(rows) == {"validators", "no validators", "no refresh"}, completed.stdout
    assert rows["validators"][:2] == (0, 50), completed.stdout
    assert rows["no validators"][:2] == (50, 0), completed.stdout
    assert rows["no refresh"] == (0, 0, 0), completed.stdout
    assert 0 < rows["validators"][2] < rows["no validators"][2], "a 304 sends fewer bytes than the whole file"
