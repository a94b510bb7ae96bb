"""The benchmarks run end to end in their small ``--smoke`` form from a fresh clone.

A fresh clone has no ``../shared`` folder: the scripts are run from a copy of the repository
in a temporary folder (its code first on the path), where the core benchmark must fall back to
the corpus sample shipped in ``tests/data/corpus``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
NOT_IN_A_CLONE = shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.egg-info", ".pytest_cache", ".hypothesis")


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository's files, copied where no ``../shared`` exists next to them."""
    copy = tmp_path_factory.mktemp("fresh") / "scrapy_robots_rep"
    shutil.copytree(REPO, copy, ignore=NOT_IN_A_CLONE)
    assert not (copy.parent / "shared").exists()
    return copy


def run(clone: Path, script: str) -> str:
    environment = {name: value for name, value in os.environ.items() if name != "REP_CORPUS"}
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(clone), os.environ.get("PYTHONPATH")]))
    result = subprocess.run(
        [sys.executable, str(clone / "benchmarks" / script), "--smoke"],
        cwd=clone,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_bench_core_smoke_run_uses_the_shipped_sample(clone: Path) -> None:
    report = run(clone, "bench_core.py")

    assert re.search(r"^corpus: 150 files, [\d.]+ MB, 3000 URLs", report, re.MULTILINE), report
    assert "core (rfc9309)" in report and "core (legacy)" in report, report


def test_bench_stages_smoke_run_times_every_stage_of_an_origins_path(clone: Path) -> None:
    report = run(clone, "bench_stages.py")

    assert re.search(r"^150 origins of .*tests/data/corpus", report, re.MULTILINE), report
    stages = dict(re.findall(r"^  (\S[^\d]*?)\s+([\d.]+)$", report, re.MULTILINE))
    for stage in (
        "parse",
        "for_agent",
        "first decision",
        "decision by the table",
        "compile",
        "decision compiled",
        "pack",
    ):
        assert float(stages[stage]) > 0, report


def test_bench_crawl_smoke_run_reports_cpu_per_page_and_fetches_robots_txt_once_per_origin(clone: Path) -> None:
    report = run(clone, "bench_crawl.py")

    assert re.search(r"^robots.txt: 4 files of .*tests/data/corpus that allow every page", report, re.MULTILINE), report
    found = re.findall(r"^(none|builtin|rep)\s+[\d.]+\s+([\d.]+)\s+[\d.]+-[\d.]+\s+(\d+)$", report, re.MULTILINE)
    rows = {mode: (float(ratio), int(fetches)) for mode, ratio, fetches in found}
    assert rows.keys() == {"none", "builtin", "rep"}, report
    assert rows["none"] == (1.0, 0) and rows["builtin"][1] == rows["rep"][1] == 1, report


def test_bench_start_smoke_run_crawls_each_way_and_finds_no_optional_part_imported(clone: Path) -> None:
    report = run(clone, "bench_start.py")

    counts = dict(re.findall(r"^(none|builtin|rep)\s+(\d+) modules imported, 2 pages$", report, re.MULTILINE))
    assert counts.keys() == {"none", "builtin", "rep"}, report
    assert int(counts["none"]) < int(counts["rep"]), report
    assert re.search(
        r"^rep imports \d+ modules beyond builtin's, \d+ of this package; optional parts: none$", report, re.MULTILINE
    ), report


def test_bench_fleet_smoke_run_shares_robots_txt_through_redis(clone: Path) -> None:
    report = run(clone, "bench_fleet.py")

    redis_rows = re.findall(r"redis\s+cache: ([\d.]+) robots.txt fetches/origin .* disallowed fetched: (\d+)", report)
    assert redis_rows, report
    assert all(per_origin == "1.00" and disallowed == "0" for per_origin, disallowed in redis_rows), report


def test_bench_page_smoke_run_crawls_with_the_middleware_off_on_and_with_the_python_search(clone: Path) -> None:
    report = run(clone, "bench_page.py")

    assert re.search(r"pages/s\s+off\s+\d+\s+on\s+\d+ \([\d.]+\)\s+on, Python search\s+\d+ \([\d.]+\)", report), report
    assert re.search(r"^parser: a 50 KB page: [\d.]+ ms$", report, re.MULTILINE), report


def test_bench_audit_smoke_run_crawls_with_the_audit_trail_off_and_on(clone: Path) -> None:
    report = run(clone, "bench_audit.py")

    assert re.search(r"^whole process\s+[\d.]+\s+[\d.]+\s+[\d.]+$", report, re.MULTILINE), report
    assert re.search(r"^crawl only\s+[\d.]+\s+[\d.]+\s+[\d.]+$", report, re.MULTILINE), report


def test_bench_report_smoke_run_measures_the_report_and_verify_of_a_written_trail(clone: Path) -> None:
    report = run(clone, "bench_report.py")

    assert report.startswith("2,000 decisions over 10 origins:"), report
    assert re.search(r"^  report: peak [\d.]+ MB .* MB of HTML$", report, re.MULTILINE), report
    assert re.search(r"^  verify: peak [\d.]+ MB .* holds$", report, re.MULTILINE), report
