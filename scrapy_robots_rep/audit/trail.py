"""``AuditTrail``: one process's audit files, written as things happen, flushed every half second.

Lines are buffered and pushed to the operating system by a background thread at least once a
second (:data:`FLUSH_INTERVAL`), so a crawl killed with SIGKILL loses at most its last second,
and every line that reached the file is whole. After each flush the process's manifest is
rewritten with the new head of each file's chain (signed with a key when given).
robots.txt bodies and WARC records, rare and the evidence itself, are written at once.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy_robots_rep.audit.bodies import BodyStore
from scrapy_robots_rep.audit.files import NAMES, ROBOTS_DIR, JsonLines, lines_path, process_tag
from scrapy_robots_rep.audit.manifest import FORMAT, manifest_path, write_manifest
from scrapy_robots_rep.audit.signing import ManifestSigner
from scrapy_robots_rep.audit.times import any_rfc3339
from scrapy_robots_rep.audit.warc import WarcWriter, warc_path

if TYPE_CHECKING:
    from scrapy_robots_rep.policy.records import Exchange

COMMON = ("fetches", "decisions")
"""The files whose lines end with the trail's common fields."""

FLUSH_INTERVAL = 0.5
"""Seconds between flushes of the JSON-lines files."""


class AuditTrail:
    """The files one process writes into an audit directory (``docs/evidence.md``)."""

    def __init__(
        self,
        directory: str | Path,
        *,
        compress: bool = False,
        warc: bool = False,
        common: dict[str, Any] | None = None,
        version: str = "",
        signing_key: str | Path | None = None,
    ) -> None:
        """``common``: fields that end every line of ``fetches`` and ``decisions`` (the crawl's agent and
        modes); ``version``: the plugin's, named in each file's header; ``signing_key``: a PEM Ed25519
        private key to sign the manifest with."""
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self._signer = ManifestSigner(signing_key) if signing_key is not None else None
        tag = process_tag(self.directory)
        self.process = {
            "process": tag,
            "host": socket.gethostname(),
            "pid": os.getpid(),
            "started": any_rfc3339(time.time()),
            "version": version,
        }
        """What each file's header and the manifest say about the process that wrote them."""
        self.manifest_path = manifest_path(self.directory, tag)
        self.bodies = BodyStore(self.directory / ROBOTS_DIR)
        self._lock = threading.Lock()
        self._files = {
            name: JsonLines(
                lines_path(self.directory, name, tag, compress),
                compress,
                {"name": name, **self.process},
                common if name in COMMON else None,
            )
            for name in NAMES
        }
        self._fetches = self._files["fetches"]
        self._decisions = self._files["decisions"]
        self._pages = self._files["pages"]
        self._warc = WarcWriter(warc_path(self.directory, tag)) if warc else None
        self._closed = threading.Event()
        self._flusher = threading.Thread(target=self._flush_regularly, name="rep-audit-flush", daemon=True)
        self._flusher.start()

    def paths(self) -> list[Path]:
        """The files of this process (the JSON-lines files, and the WARC file if any)."""
        paths = [file.path for file in self._files.values()]
        return [*paths, self._warc.path] if self._warc is not None else paths

    def store_body(self, body: bytes) -> str:
        """Store a robots.txt body once; its SHA-256."""
        return self.bodies.store(body)

    def exchanges(self, exchanges: tuple[Exchange, ...]) -> None:
        """The WARC records of a fetch's requests and answers (when ``warc`` is on)."""
        if self._warc is not None:
            with self._lock:
                for exchange in exchanges:
                    self._warc.write(exchange)

    def fetch(self, line: dict[str, Any]) -> None:
        with self._lock:
            self._fetches.write(line)

    def decision(self, line: dict[str, Any]) -> None:
        with self._lock:
            self._decisions.write(line)

    def page(self, line: dict[str, Any]) -> None:
        with self._lock:
            self._pages.write(line)

    def flush(self) -> None:
        """Push the buffered lines to the operating system, then the manifest of their heads."""
        with self._lock:
            flushed = [file.flush() for file in self._files.values()]
            if any(flushed):
                self._write_manifest(closed=False)

    def close(self) -> None:
        """Stop the flushing thread, and flush and close every file."""
        if self._closed.is_set():
            return
        self._closed.set()
        self._flusher.join()
        with self._lock:
            for file in self._files.values():
                file.close()
            if any(file.lines for file in self._files.values()):
                self._write_manifest(closed=True)
            if self._warc is not None:
                self._warc.close()

    def _write_manifest(self, closed: bool) -> None:
        manifest = {
            "format": FORMAT,
            **self.process,
            "updated": any_rfc3339(time.time()),
            "closed": closed,
            "files": {
                file.path.name: {"lines": file.lines, "head": file.head} for file in self._files.values() if file.lines
            },
        }
        write_manifest(self.manifest_path, manifest, self._signer)

    def _flush_regularly(self) -> None:
        while not self._closed.wait(FLUSH_INTERVAL):
            self.flush()
