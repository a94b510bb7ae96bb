"""``BodyStore``: every distinct robots.txt body, stored once by the SHA-256 of its bytes."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path


def body_hash(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()


def numbered_lines(body: bytes) -> list[str]:
    """A stored body's lines as written, counted as the parser counts them (LF, CR and CRLF each end
    one; a byte order mark is not text), so ``lines[n - 1]`` is the line a rule's number names."""
    text = body.decode("utf-8", errors="replace").removeprefix("\ufeff")
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


class BodyStore:
    """``<directory>/<sha256>.txt``, the bytes as received (before any decoding to text).

    A body is written to a temporary name and renamed into place, so a reader (or another
    process of the fleet storing the same body) never sees a partial file.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)
        self._known: set[str] = set()

    def path(self, sha256: str) -> Path:
        return self.directory / f"{sha256}.txt"

    def store(self, body: bytes) -> str:
        """Store ``body`` unless it is stored already; its SHA-256 (hex)."""
        sha256 = body_hash(body)
        if sha256 in self._known:
            return sha256
        path = self.path(sha256)
        if not path.exists():
            temporary = self.directory / f".{sha256}.{os.getpid()}.tmp"
            temporary.write_bytes(body)
            os.replace(temporary, path)
        self._known.add(sha256)
        return sha256
