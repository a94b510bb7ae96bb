"""Reading an audit directory back in tests, line by line, as a checker would (not through the reader)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any


def lines(directory: Path, name: str) -> list[dict[str, Any]]:
    """Every line of every process's ``<name>.*.jsonl[.gz]`` file; each must parse."""
    found = []
    for path in sorted(directory.glob(f"{name}.*.jsonl*")):
        data = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
        assert data == b"" or data.endswith(b"\n"), f"{path} ends in a partial line"
        found += [json.loads(line) for line in data.splitlines()]
    return found
