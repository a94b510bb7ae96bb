"""``verify``: whether an audit directory is as its processes wrote it (``docs/evidence.md``).

Checks every file's hash chain from its header, every manifest against the files it lists (and
its signature, given the public key), and every stored robots.txt body against the hash it is
named by. Names the first broken line of each file. A last line cut short in a file whose
process never closed it (a crawl killed mid-write) is *torn*, a note, not a fault; lines written
after a killed process's last manifest are reported as not covered by it.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scrapy_robots_rep.audit.files import HEADER, HEADER_START, NAMES, ROBOTS_DIR, line_hash
from scrapy_robots_rep.audit.manifest import canonical
from scrapy_robots_rep.audit.reader import stream_lines
from scrapy_robots_rep.audit.signing import key_id, signature_error

_PREV_START = b',"prev":"'
_HASH_LENGTH = 64
_TAIL = len(_PREV_START) + _HASH_LENGTH + 2  # ,"prev":"<64 hex>"}
_BODY_NAME = re.compile(r"[0-9a-f]{64}\.txt")


@dataclass
class Verification:
    """What :func:`verify` found: ``problems`` make the directory fail, ``notes`` do not."""

    directory: Path
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)
    """One line per file or body that holds."""

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass
class _Chain:
    """One file's chain as read: its whole lines' count, their head, and its header."""

    lines: int = 0
    head: str = ""
    pinned_head: str | None = None
    """The hash of the line the manifest pins (its ``lines``-th)."""
    header: dict[str, Any] | None = None
    torn: bool = False
    broken: bool = False


def verify(directory: str | Path, public_key: bytes | None = None) -> Verification:
    """Check the audit directory; ``public_key`` (32 raw Ed25519 bytes) also checks each manifest's signature."""
    directory = Path(directory)
    if not directory.is_dir():
        raise FileNotFoundError(f"{directory} is not an audit directory (REP_AUDIT_DIR): no such directory")
    result = Verification(directory)
    manifests = _manifests(directory, result, public_key)
    listed: dict[str, dict[str, Any]] = {}
    for manifest in manifests:
        for name, entry in manifest.get("files", {}).items():
            listed[name] = {**entry, "manifest": manifest}
    for name in sorted(listed):
        if not (directory / name).exists():
            process = listed[name]["manifest"].get("process")
            result.problems.append(f"{name}: listed by manifest.{process}.json, missing")
    bodies: dict[str, str] = {}
    for path in sorted(path for name in NAMES for path in directory.glob(f"{name}.*.jsonl*")):
        _check_file(path, listed.get(path.name), result, bodies)
    _check_bodies(directory, result, bodies)
    return result


def _manifests(directory: Path, result: Verification, public_key: bytes | None) -> list[dict[str, Any]]:
    manifests = []
    for path in sorted(directory.glob("manifest.*.json")):
        try:
            document = json.loads(path.read_bytes())
            manifest = document["manifest"]
            files = manifest["files"]
            if not isinstance(files, dict):
                raise TypeError
        except (ValueError, KeyError, TypeError):
            result.problems.append(f"{path.name}: not a manifest (unreadable JSON or no files)")
            continue
        signature = document.get("signature")
        if public_key is not None:
            if signature is None:
                result.problems.append(f"{path.name}: not signed, and --public-key asks for a signature")
                continue
            error = signature_error(signature, canonical(manifest), public_key)
            if error is not None:
                result.problems.append(f"{path.name}: {error}")
                continue
            result.checked.append(f"{path.name}: signature holds (key {key_id(public_key)})")
        elif isinstance(signature, dict):
            result.notes.append(
                f"{path.name}: signed by key {signature.get('key_id')}; give --public-key to check the signature"
            )
        manifests.append(manifest)
    return manifests


def _check_file(path: Path, entry: dict[str, Any] | None, result: Verification, bodies: dict[str, str]) -> None:
    """Check one file; ``bodies`` gathers the robots.txt bodies its lines name (hash: where named)."""
    name = path.name
    pinned = entry.get("lines") if entry is not None else None
    chain = _read_chain(path, pinned if isinstance(pinned, int) else 0, result, bodies)
    if chain.broken:
        return
    if entry is None:
        result.problems.append(f"{name}: no manifest lists this file")
        return
    manifest = entry["manifest"]
    closed = bool(manifest.get("closed"))
    if chain.header is not None and chain.header.get("process") != manifest.get("process"):
        result.problems.append(
            f"{name} line 1: header names process {chain.header.get('process')!r}, "
            f"its manifest {manifest.get('process')!r}"
        )
        return
    head = entry.get("head")
    if not isinstance(pinned, int) or pinned > chain.lines:
        result.problems.append(
            f"{name}: {chain.lines} whole line(s), the manifest recorded {pinned}: "
            f"line {chain.lines + 1} onwards removed or cut"
        )
        return
    if chain.pinned_head != head:
        result.problems.append(
            f"{name} line {pinned}: not the line the manifest recorded as the head (its hash differs): "
            "the file was replaced or rewritten"
        )
        return
    after = chain.lines - pinned
    if after and closed:
        result.problems.append(f"{name} line {pinned + 1}: after the head its closed manifest pinned (appended later)")
        return
    if chain.torn:
        if closed:
            result.problems.append(f"{name} line {chain.lines + 1}: cut mid-line in a file its process closed")
            return
        result.notes.append(f"{name} line {chain.lines + 1}: torn (its process stopped while writing it; left out)")
    if after:
        result.notes.append(
            f"{name}: line(s) {pinned + 1}-{chain.lines} written after the last manifest (its process stopped "
            "before the next one): chained, not pinned by the manifest"
        )
    result.checked.append(
        f"{name}: {chain.lines} line(s) chained, head pinned by the manifest"
        + ("" if closed else " (process did not close: killed or still running)")
    )


def _read_chain(path: Path, pinned: int, result: Verification, bodies: dict[str, str]) -> _Chain:
    """Walk the chain; a break is a problem naming the first line that does not follow."""
    name = path.name
    fetches = name.startswith("fetches.")
    chain = _Chain()
    for number, line in enumerate(stream_lines(path), 1):
        if not line.endswith(b"\n"):
            chain.torn = True
            break
        if number == 1:
            header = _header(line)
            if header is None:
                result.problems.append(f"{name} line 1: not a header: the start of the file was changed or removed")
                chain.broken = True
                return chain
            chain.header = header
        else:
            body = line[:-1]
            if len(body) < _TAIL or body[-_TAIL : -_TAIL + len(_PREV_START)] != _PREV_START:
                result.problems.append(f"{name} line {number}: no chain field (prev): the line was changed")
                chain.broken = True
                return chain
            if body[-_TAIL + len(_PREV_START) : -2].decode("ascii", "replace") != chain.head:
                result.problems.append(
                    f"{name} line {number}: does not follow line {number - 1} (its prev is not that line's hash): "
                    f"line {number - 1} or {number} was changed, or lines were removed or moved here"
                )
                chain.broken = True
                return chain
            if fetches:
                _named_body(line, f"{name} line {number}", bodies)
        chain.head = line_hash(line)
        if number == pinned:
            chain.pinned_head = chain.head
        chain.lines = number
    if chain.lines == 0:
        result.problems.append(f"{name}: no header (empty file)")
        chain.broken = True
    return chain


def _header(line: bytes) -> dict[str, Any] | None:
    if not line.startswith(HEADER_START):
        return None
    try:
        header = json.loads(line)[HEADER]
    except (ValueError, KeyError, TypeError):
        return None
    return header if isinstance(header, dict) else None


def _named_body(line: bytes, where: str, bodies: dict[str, str]) -> None:
    try:
        sha256 = json.loads(line).get("sha256")
    except (ValueError, AttributeError):
        return
    if isinstance(sha256, str):
        bodies.setdefault(sha256, where)


def _check_bodies(directory: Path, result: Verification, named: dict[str, str]) -> None:
    robots = directory / ROBOTS_DIR
    for sha256, where in sorted(named.items()):
        if not (robots / f"{sha256}.txt").is_file():
            result.problems.append(f"{where}: names {ROBOTS_DIR}/{sha256}.txt, which is missing")
    if not robots.is_dir():
        return
    for path in sorted(robots.iterdir()):
        if path.name.startswith("."):
            result.notes.append(f"{ROBOTS_DIR}/{path.name}: a temporary file left by a process that stopped")
            continue
        if not _BODY_NAME.fullmatch(path.name):
            result.problems.append(f"{ROBOTS_DIR}/{path.name}: not named <sha256>.txt")
            continue
        actual = hashlib.sha256(path.read_bytes()).hexdigest()
        if actual != path.name[:-4]:
            result.problems.append(f"{ROBOTS_DIR}/{path.name}: its bytes hash to {actual}: the body was changed")
        else:
            result.checked.append(f"{ROBOTS_DIR}/{path.name}: matches its name")
