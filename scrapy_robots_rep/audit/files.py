"""Where one process writes in an audit directory, and the JSON-lines files it appends to.

Every process writes files of its own, named ``<name>.<host>-<pid>.jsonl`` (``.jsonl.gz``
compressed), so the processes of a fleet share one directory without ever writing to the same
file. A line is appended whole and never rewritten; :meth:`JsonLines.flush` pushes what is
buffered to the operating system (a compressed file is sync-flushed, so that what was written
so far decompresses even if the process is killed before it closes the file).
"""

from __future__ import annotations

import gzip
import json
import os
import socket
from pathlib import Path
from typing import IO, Any

ROBOTS_DIR = "robots"
"""The sub-directory holding each robots.txt body once, as ``<sha256>.txt``."""

NAMES = ("fetches", "decisions", "pages")
"""The JSON-lines files of a process."""


def process_tag() -> str:
    """``<host>-<pid>``: what tells this process's files from those of the rest of a fleet."""
    host = socket.gethostname().replace("/", "_").replace(os.sep, "_") or "localhost"
    return f"{host}-{os.getpid()}"


def lines_path(directory: Path, name: str, tag: str, compress: bool) -> Path:
    return directory / f"{name}.{tag}.jsonl{'.gz' if compress else ''}"


_ENCODER = json.JSONEncoder(separators=(",", ":"))
"""One encoder for every line (``json.dumps`` with options builds one per call); ASCII output,
non-ASCII escaped, is the encoder's fastest path."""


def encode(record: dict[str, Any], common: str = "") -> bytes:
    """One JSON line: compact, ASCII, ending in a newline (JSON escapes any newline inside);
    ``common`` is :func:`common_fields` of fields every line of a file ends with."""
    text = _ENCODER.encode(record)
    return (text[:-1] + common if common else text + "\n").encode("ascii")


def common_fields(fields: dict[str, Any]) -> str:
    """``fields`` encoded once, to end every line of a file with (see :func:`encode`)."""
    return "," + _ENCODER.encode(fields)[1:] + "\n" if fields else ""


class JsonLines:
    """One append-only JSON-lines file of this process, created on its first line (a process that
    writes none leaves no file). Not thread-safe: the trail holds a lock."""

    def __init__(self, path: Path, compress: bool, common: dict[str, Any] | None = None) -> None:
        self.path = path
        self._compress = compress
        self._common = common_fields(common or {})
        self._raw: IO[bytes] | None = None
        self._file: IO[bytes] | None = None
        self._dirty = False

    def write(self, record: dict[str, Any]) -> None:
        file = self._file
        if file is None:
            file = self._open()
        file.write(encode(record, self._common))
        self._dirty = True

    def flush(self) -> None:
        if self._dirty and self._file is not None and self._raw is not None:
            self._dirty = False
            self._file.flush()
            if self._file is not self._raw:
                self._raw.flush()

    def close(self) -> None:
        if self._file is not None and self._raw is not None:
            self._file.close()
            if self._file is not self._raw:
                self._raw.close()
            self._file = self._raw = None

    def _open(self) -> IO[bytes]:
        raw: IO[bytes] = open(self.path, "ab")  # noqa: SIM115 - closed by close()
        file: IO[bytes] = gzip.GzipFile(fileobj=raw, mode="ab") if self._compress else raw  # type: ignore[assignment]
        self._raw, self._file = raw, file
        return file
