"""In CI a missing dependency fails the run; elsewhere ``pytest.importorskip`` skips as usual."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("ci", "module", "outcome"),
    [
        ("true", "a_module_nobody_installed", "1 error"),
        ("", "a_module_nobody_installed", "1 skipped"),
        ("true", "scrapy_robots_rep.an_optional_part_not_built", "1 skipped"),  # the package's own optional part
    ],
)
def test_importorskip_fails_in_ci(tmp_path: Path, ci: str, module: str, outcome: str) -> None:
    probe = tmp_path / "test_probe.py"
    probe.write_text(f"import pytest\n\nmissing = pytest.importorskip({module!r})\n\n\ndef test_probe():\n    pass\n")
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "tests.conftest", "-p", "no:cacheprovider", str(probe)],
        cwd=ROOT,
        env={**os.environ, "CI": ci},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert outcome in completed.stdout, completed.stdout
    assert ("ModuleNotFoundError" in completed.stdout) is (outcome == "1 error")
