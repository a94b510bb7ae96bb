"""Where the corpus of real robots.txt files is, for tests and benchmarks alike.

The full corpus (4,003 files, ``../shared/corpus`` next to the repository) is used when it is
there; otherwise the sample shipped in ``tests/data/corpus``. Either folder holds
``robots/<site>.txt``, ``urls.jsonl`` and ``manifest.json``. The environment variable
``REP_CORPUS`` forces one: ``sample`` or ``full``.

Importable without installing anything: ``from tests.corpus import corpus_dir`` with the
repository root on ``sys.path`` (pytest puts it there; a benchmark script inserts it).
"""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FULL = REPO.parent / "shared" / "corpus"
SAMPLE = REPO / "tests" / "data" / "corpus"
CHOICES = ("sample", "full")


def corpus_dir() -> Path:
    """The full corpus when present (or forced by ``REP_CORPUS=full``), else the shipped sample."""
    forced = os.environ.get("REP_CORPUS", "")
    if forced not in ("", *CHOICES):
        raise ValueError(f"REP_CORPUS={forced!r}: expected one of {', '.join(CHOICES)}, or unset")
    if forced == "sample":
        return SAMPLE
    if (FULL / "robots").is_dir():
        return FULL
    if forced == "full":
        raise FileNotFoundError(f"REP_CORPUS=full but there is no corpus at {FULL} (expected robots/*.txt)")
    return SAMPLE
