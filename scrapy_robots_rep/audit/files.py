"""Where one process writes in an audit directory, and the chained JSON-lines files it appends to.

Every process writes files of its own, named ``<name>.<host>-<pid>.jsonl`` (``.jsonl.gz``
compressed), so the processes of a fleet share one directory without ever writing to the same
file. A line is appended whole and never rewritten; :meth:`JsonLines.flush` pushes what is
buffered to the operating system (a compressed file is sync-flushed, so that what was written
so far decompresses even if the process is killed before it closes the file).

The lines of a file form a hash chain (``docs/evidence.md``): the first line is a header
(``{"audit_file": {...}}``: the file's name, the process, host, start time and plugin version),
and every later line ends with ``"prev"``, the SHA-256 of the line before it as written (its
bytes with the newline, before any compression). A line edited, removed or moved breaks the
chain at the line after it.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import socket
from pathlib import Path
from typing import IO, Any

ROBOTS_DIR = "robots"
"""The sub-directory holding each robots.txt body once, as ``<sha256>.txt``."""

NAMES = ("fetches", "decisions", "pages")
"""The JSON-lines files of a process."""

HEADER = "audit_file"
"""The key of a file's first line, the header its chain starts from."""
HEADER_START = b'{"audit_file":'
PREV = "prev"
"""The field of every other line: the SHA-256 (hex) of the line before it."""


def process_tag(directory: Path) -> str:
    """``<host>-<pid>``: what tells this process's files from those of the rest of a fleet (``-2``,
    ``-3``... added when an earlier process of the same host and id left files in ``directory``)."""
    host = socket.gethostname().replace("/", "_").replace(os.sep, "_") or "localhost"
    tag = base = f"{host}-{os.getpid()}"
    number = 1
    while any(directory.glob(f"*.{tag}.json*")):
        number += 1
        tag = f"{base}-{number}"
    return tag


def lines_path(directory: Path, name: str, tag: str, compress: bool) -> Path:
    return directory / f"{name}.{tag}.jsonl{'.gz' if compress else ''}"


_ENCODER = json.JSONEncoder(separators=(",", ":"))
"""One encoder for every line (``json.dumps`` with options builds one per call); ASCII output,
non-ASCII escaped, is the encoder's fastest path."""


def encode(record: dict[str, Any], common: str, prev: str) -> bytes:
    """One chained JSON line: compact, ASCII, ending in a newline (JSON escapes any newline inside);
    ``common`` is :func:`common_fields` of fields every line of a file has, ``prev`` the hash of
    the line before."""
    return f'{_ENCODER.encode(record)[:-1]}{common},"{PREV}":"{prev}"}}\n'.encode("ascii")


def common_fields(fields: dict[str, Any]) -> str:
    """``fields`` encoded once, for every line of a file (see :func:`encode`)."""
    return "," + _ENCODER.encode(fields)[1:-1] if fields else ""


def header_line(header: dict[str, Any]) -> bytes:
    """The first line of a file: what its chain starts from."""
    return (_ENCODER.encode({HEADER: header}) + "\n").encode("ascii")


def line_hash(line: bytes) -> str:
    """The SHA-256 (hex) of a line as written, its newline included: the next line's ``prev``."""
    return hashlib.sha256(line).hexdigest()


class JsonLines:
    """One append-only, chained JSON-lines file of this process, created with its header on its first
    line (a process that writes none leaves no file). Not thread-safe: the trail holds a lock."""

    def __init__(
        self, path: Path, compress: bool, header: dict[str, Any], common: dict[str, Any] | None = None
    ) -> None:
        self.path = path
        self._compress = compress
        self._header = header
        self._common = common_fields(common or {})
        self._raw: IO[bytes] | None = None
        self._file: IO[bytes] | None = None
        self._dirty = False
        self.lines = 0
        """Lines written, the header included (0: no file yet)."""
        self.head = ""
        """The hash of the last line written."""

    def write(self, record: dict[str, Any]) -> None:
        file = self._file
        if file is None:
            file = self._open()
        line = encode(record, self._common, self.head)
        file.write(line)
        self.head = hashlib.sha256(line).hexdigest()
        self.lines += 1
        self._dirty = True

    def flush(self) -> bool:
        """Push what is buffered to the operating system; whether there was anything."""
        if self._dirty and self._file is not None and self._raw is not None:
            self._dirty = False
            self._file.flush()
            if self._file is not self._raw:
                self._raw.flush()
            return True
        return False

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
        header = header_line(self._header)
        file.write(header)
        self.head, self.lines = line_hash(header), 1
        return file
