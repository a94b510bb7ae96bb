"""The crawl and fleet benchmarks run end to end in their small ``--smoke`` form."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def run(script: str) -> str:
    result = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), "--smoke"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return result.stdout


def test_bench_crawl_smoke_run_fetches_robots_txt_once_per_origin():
    table = run("bench_crawl.py")

    rows = {match[0]: int(match[1]) for match in re.findall(r"^(none|builtin|rep)\s+\d+\s+[\d.]+\s+(\d+)$", table, re.M)}
    assert rows == {"none": 0, "builtin": 1, "rep": 1}, table


def test_bench_fleet_smoke_run_shares_robots_txt_through_redis():
    report = run("bench_fleet.py")

    redis_rows = re.findall(r"redis\s+cache: ([\d.]+) robots.txt fetches/origin .* disallowed fetched: (\d+)", report)
    assert redis_rows, report
    assert all(per_origin == "1.00" and disallowed == "0" for per_origin, disallowed in redis_rows), report
