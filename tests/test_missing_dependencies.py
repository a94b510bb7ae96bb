"""In CI a missing dependency fails the run; elsewhere ``pytest.importorskip`` skips as usual."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(("ci", "outcome"), [("true", "1 error"), ("", "1 skipped")])
def test_importorskip_fails_in_ci(tmp_path: Path, ci: str, outcome: str) -> None:
    probe = tmp_path / "test_probe.py"
    probe.write_text(
        'import pytest\n\nmissing = pytest.importorskip("a_module_nobody_installed")\n\n\ndef test_probe():\n    pass\n'
    )
    env = {**os.environ, "CI": ci}
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "tests.conftest", "-p", "no:cacheprovider", str(probe)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert outcome in completed.stdout, completed.stdout
    assert ("ModuleNotFoundError" in completed.stdout) is bool(ci)
