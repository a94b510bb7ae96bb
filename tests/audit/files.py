"""Reading an audit directory back in tests, line by line, as a checker would (not through the reader)."""

from __future__ import annotations

import json
import zlib
from pathlib import Path
from typing import Any


def lines(directory: Path, name: str) -> list[dict[str, Any]]:
    """Every line of every process's ``<name>.*.jsonl[.gz]`` file; each must parse, none may be cut."""
    found = []
    for path in sorted(directory.glob(f"{name}.*.jsonl*")):
        data = _gunzipped(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
        assert data == b"" or data.endswith(b"\n"), f"{path} ends in a partial line"
        found += [json.loads(line) for line in data.splitlines() if not line.startswith(b'{"audit_file":')]
    return found


def _gunzipped(data: bytes) -> bytes:
    """The gzip members of ``data``; the last one may lack its end (a writer killed after a sync flush)."""
    out = b""
    while data:
        member = zlib.decompressobj(16 + zlib.MAX_WBITS)
        out += member.decompress(data)
        data = member.unused_data if member.eof else b""
    return out
