"""``AuditDirectory``: an audit directory read back, every process's files as one.

Answers "what happened to this URL": the decision in force at a time (the last one made by
then), the robots.txt fetch whose body decided it, the deciding rule quoted from the stored
body, and what the page said.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scrapy_robots_rep.audit.bodies import numbered_lines
from scrapy_robots_rep.audit.files import HEADER_START, ROBOTS_DIR
from scrapy_robots_rep.audit.times import parse_rfc3339

FETCHED = frozenset({"allowed", "exempt", "not_checked"})
"""Decisions after which the request went on to be downloaded."""


@dataclass(frozen=True)
class Finding:
    """What the audit directory says about one URL."""

    url: str
    decision: dict[str, Any] | None
    """The last decision made for the URL (by ``at``); None when it was never seen."""
    fetch: dict[str, Any] | None = None
    """The robots.txt fetch whose body decided (same origin and hash, at or before the decision)."""
    quoted_rule: str | None = None
    """The deciding rule's line as the stored robots.txt body has it."""
    body_path: Path | None = None
    page: dict[str, Any] | None = None
    """The last pages line of the URL (by ``at``)."""
    earlier: list[dict[str, Any]] = field(default_factory=list)
    """Decisions made for the URL before the one shown."""

    @property
    def found(self) -> bool:
        return self.decision is not None

    @property
    def verdict(self) -> str:
        """``fetched``, ``dropped`` or ``never seen``."""
        if self.decision is None:
            return "never seen"
        return "fetched" if self.decision.get("decision") in FETCHED else "dropped"

    def to_dict(self) -> dict[str, Any]:
        return {
            "url": self.url,
            "verdict": self.verdict,
            "decision": self.decision,
            "robots_txt": None
            if self.decision is None or self.decision.get("sha256") is None
            else {
                "sha256": self.decision["sha256"],
                "path": str(self.body_path) if self.body_path is not None else None,
                "fetch": self.fetch,
                "rule_quoted": self.quoted_rule,
            },
            "page": self.page,
            "earlier_decisions": len(self.earlier),
        }


class AuditDirectory:
    """The files of every process that wrote into ``directory``."""

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)
        if not self.directory.is_dir():
            raise FileNotFoundError(f"{self.directory} is not an audit directory (REP_AUDIT_DIR): no such directory")

    def lines(self, name: str, contains: str | None = None) -> Iterator[dict[str, Any]]:
        """The lines of every ``<name>.*.jsonl[.gz]`` file; with ``contains``, only lines that may hold
        that string value (as JSON writes it, escaped or not: a cheap filter before parsing)."""
        needles = _needles(contains) if contains is not None else ()
        for path in sorted(self.directory.glob(f"{name}.*.jsonl*")):
            for raw in _raw_lines(path):
                if not needles or any(needle in raw for needle in needles):
                    yield json.loads(raw)

    def find(self, url: str, at: float | None = None) -> Finding:
        """What happened to ``url`` (by time ``at``, seconds since the epoch, when given)."""
        decisions = _by_time(self.lines("decisions", url), url, at)
        if not decisions:
            return Finding(url, None)
        decision = decisions[-1]
        pages = _by_time(self.lines("pages", url), url, at)
        page = pages[-1] if pages else None
        sha256 = decision.get("sha256")
        if sha256 is None:
            return Finding(url, decision, page=page, earlier=decisions[:-1])
        body_path = self.directory / ROBOTS_DIR / f"{sha256}.txt"
        rule = decision.get("rule")
        quoted = _quote(body_path, rule["line"]) if rule and body_path.exists() else None
        return Finding(url, decision, self._fetch_of(decision), quoted, body_path, page, decisions[:-1])

    def _fetch_of(self, decision: dict[str, Any]) -> dict[str, Any] | None:
        """The last fetch of the decision's origin that obtained its body, at or before it (a fleet's
        other process may have fetched it: any process's fetch counts)."""
        sha256 = decision["sha256"]
        decided = parse_rfc3339(decision["time"])
        best: tuple[float, dict[str, Any]] | None = None
        for fetch in self.lines("fetches", sha256):
            if fetch.get("sha256") != sha256 or fetch.get("origin") != decision.get("origin"):
                continue
            when = parse_rfc3339(fetch["time"])
            if when <= decided and (best is None or when > best[0]):
                best = (when, fetch)
        return best[1] if best is not None else None


def _needles(value: str) -> tuple[bytes, ...]:
    """``value`` as a JSON string, in ASCII with escapes and in UTF-8."""
    return tuple({json.dumps(value).encode("ascii"), json.dumps(value, ensure_ascii=False).encode("utf-8")})


def _by_time(lines: Iterator[dict[str, Any]], url: str, at: float | None) -> list[dict[str, Any]]:
    """The lines of ``url``, by time, none after ``at``."""
    timed = []
    for line in lines:
        if line.get("url") != url:
            continue
        when = parse_rfc3339(line["time"])
        if at is None or when <= at:
            timed.append((when, line))
    timed.sort(key=lambda pair: pair[0])
    return [line for _, line in timed]


def _quote(path: Path, number: int) -> str | None:
    """Line ``number`` (1-based) of the stored body, as written (its line ending removed).

    Lines are counted as the parser counts them: LF, CR and CRLF each end one.
    """
    lines = numbered_lines(path.read_bytes())
    return lines[number - 1] if 1 <= number <= len(lines) else None


def _raw_lines(path: Path) -> Iterator[bytes]:
    """The complete lines of a JSON-lines file, its header left out; a last line cut short (a killed
    writer) is left out too."""
    for line in stream_lines(path):
        if line.endswith(b"\n") and not line.startswith(HEADER_START) and line.strip():
            yield line


_CHUNK = 1 << 20


def stream_lines(path: Path) -> Iterator[bytes]:
    """The lines of a JSON-lines file (gzip members decompressed as far as they go), each with its
    newline; a last line cut short comes without one. Read a chunk at a time, never whole."""
    pending = b""
    for chunk in _chunks(path):
        pending += chunk
        lines = pending.split(b"\n")
        pending = lines.pop()
        for line in lines:
            yield line + b"\n"
    if pending:
        yield pending


def _chunks(path: Path) -> Iterator[bytes]:
    with open(path, "rb") as file:
        if path.suffix != ".gz":
            while chunk := file.read(_CHUNK):
                yield chunk
            return
        decompressor = zlib.decompressobj(16 + zlib.MAX_WBITS)
        while data := file.read(_CHUNK):
            while data:
                try:
                    out = decompressor.decompress(data)
                except zlib.error:  # what follows is not gzip: a killed writer's last bytes
                    return
                if out:
                    yield out
                if not decompressor.eof:
                    break
                data = decompressor.unused_data  # the next gzip member
                decompressor = zlib.decompressobj(16 + zlib.MAX_WBITS)
