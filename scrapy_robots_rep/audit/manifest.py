"""The manifest of one process's audit files: each file's line count and the hash of its last line.

``manifest.<host>-<pid>.json`` is rewritten (a temporary file renamed over it, so a reader sees
the old or the new one whole) each time the process flushes its files, and once more, marked
``closed``, when it closes them. It pins the end of each chain: lines removed from the end of a
file, or the file replaced by another chain, no longer match it. With a signing key it carries
an Ed25519 signature of its canonical form (:func:`canonical`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from scrapy_robots_rep.audit.signing import ManifestSigner

FORMAT = 1


def manifest_path(directory: Path, tag: str) -> Path:
    return directory / f"manifest.{tag}.json"


def canonical(manifest: dict[str, Any]) -> bytes:
    """The bytes a manifest's signature covers: sorted keys, no spaces, ASCII."""
    return json.dumps(manifest, sort_keys=True, separators=(",", ":")).encode("ascii")


def write_manifest(path: Path, manifest: dict[str, Any], signer: ManifestSigner | None) -> None:
    """Write ``{"manifest": ..., "signature": ...}`` to ``path`` atomically."""
    document: dict[str, Any] = {"manifest": manifest}
    if signer is not None:
        document["signature"] = signer.sign(canonical(manifest))
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(json.dumps(document, indent=1) + "\n", encoding="ascii")
    os.replace(temporary, path)
