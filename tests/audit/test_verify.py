"""``audit verify``: a trail as written holds; each kind of tampering is named with its line."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from scrapy_robots_rep.audit import AuditTrail
from scrapy_robots_rep.audit.verify import verify
from scrapy_robots_rep.cli import main

ROOT = Path(__file__).resolve().parents[2]
ROBOTS = b"User-agent: *\nDisallow: /private\n"


def write_trail(directory: Path, compress: bool = False, signing_key: Path | None = None) -> str:
    """A closed trail: one fetch, five decisions, one page; the name of its decisions file."""
    trail = AuditTrail(directory, compress=compress, common={"agent": "bot"}, version="9.9", signing_key=signing_key)
    sha256 = trail.store_body(ROBOTS)
    trail.fetch({"time": "2026-11-27T10:00:00.000Z", "origin": "http://a.example", "sha256": sha256, "status": 200})
    for number in range(5):
        decision = "disallowed" if number == 2 else "allowed"
        trail.decision({"time": "2026-11-27T10:00:01.000Z", "url": f"http://a.example/{number}", "decision": decision})
    trail.page({"time": "2026-11-27T10:00:02.000Z", "url": "http://a.example/0", "status": 200})
    trail.close()
    (path,) = directory.glob("decisions.*")
    return path.name


def edit_lines(path: Path, change: object) -> None:
    """Rewrite a (possibly gzip) JSON-lines file's lines with ``change(lines)``."""
    compressed = path.suffix == ".gz"
    data = gzip.decompress(path.read_bytes()) if compressed else path.read_bytes()
    lines = data.splitlines(keepends=True)
    change(lines)  # type: ignore[operator]
    data = b"".join(lines)
    path.write_bytes(gzip.compress(data) if compressed else data)


def problems(directory: Path) -> list[str]:
    result = verify(directory)
    assert not result.ok
    return result.problems


@pytest.mark.parametrize("compress", [False, True])
def test_a_trail_as_written_holds_and_each_tampering_is_named(tmp_path: Path, compress: bool) -> None:
    clean = tmp_path / "clean"
    name = write_trail(clean, compress)
    result = verify(clean)
    assert result.ok, result.problems
    assert not result.notes
    assert len(result.checked) == 4  # three files and one body
    header = json.loads((gzip.decompress if compress else bytes)((clean / name).read_bytes()).splitlines()[0])
    assert header["audit_file"]["name"] == "decisions" and header["audit_file"]["version"] == "9.9"
    assert main(["audit", "verify", str(clean)]) == 0

    def tampered(case: str) -> Path:
        copy = tmp_path / case
        shutil.copytree(clean, copy)
        return copy

    # Lines: 1 the header, 2 to 6 the decisions (line 4 the disallowed one).
    edited = tampered("edited")
    edit_lines(edited / name, lambda lines: lines.__setitem__(3, lines[3].replace(b"disallowed", b"allowed")))
    assert problems(edited) == [
        f"{name} line 5: does not follow line 4 (its prev is not that line's hash): "
        "line 4 or 5 was changed, or lines were removed or moved here"
    ]

    deleted = tampered("deleted")
    edit_lines(deleted / name, lambda lines: lines.pop(3))
    assert [problem.split(":")[0] for problem in problems(deleted)] == [f"{name} line 4"]

    reordered = tampered("reordered")
    edit_lines(reordered / name, lambda lines: lines.__setitem__(slice(2, 4), [lines[3], lines[2]]))
    assert [problem.split(":")[0] for problem in problems(reordered)] == [f"{name} line 3"]

    last_edited = tampered("last-edited")
    edit_lines(last_edited / name, lambda lines: lines.__setitem__(5, lines[5].replace(b"/4", b"/5")))
    assert problems(last_edited) == [
        f"{name} line 6: not the line the manifest recorded as the head (its hash differs): "
        "the file was replaced or rewritten"
    ]

    last_deleted = tampered("last-deleted")
    edit_lines(last_deleted / name, lambda lines: lines.pop())
    assert problems(last_deleted) == [
        f"{name}: 5 whole line(s), the manifest recorded 6: line 6 onwards removed or cut"
    ]

    truncated = tampered("truncated")
    edit_lines(truncated / name, lambda lines: lines.__setitem__(slice(4, None), [lines[4][:30]]))
    assert problems(truncated) == [f"{name}: 4 whole line(s), the manifest recorded 6: line 5 onwards removed or cut"]

    body = next((clean / "robots").iterdir()).name
    swapped = tampered("swapped")
    (swapped / "robots" / body).write_bytes(b"User-agent: *\nAllow: /\n")
    assert [problem.split(":")[0] for problem in problems(swapped)] == [f"robots/{body}"]

    removed = tampered("body-removed")
    (removed / "robots" / body).unlink()
    (fetches,) = (path.name for path in removed.glob("fetches.*"))
    assert problems(removed) == [f"{fetches} line 2: names robots/{body}, which is missing"]

    assert main(["audit", "verify", str(edited)]) == 1
    # The HTML report of a broken trail says so first, naming the line.
    page = tmp_path / "edited.html"
    assert main(["audit", "report", str(edited), "-o", str(page)]) == 0
    html = page.read_text()
    assert '<p id="verification" class="broken">' in html and f"{name} line 5: does not follow line 4" in html


def test_a_torn_last_line_of_a_process_that_did_not_close_is_torn_not_tampering(tmp_path: Path) -> None:
    name = write_trail(tmp_path)
    manifest_path = next(tmp_path.glob("manifest.*.json"))
    document = json.loads(manifest_path.read_text())
    # As a killed process leaves it: its last manifest from a flush (4 lines), two whole lines more, one torn.
    document["manifest"]["closed"] = False
    lines = (tmp_path / name).read_bytes().splitlines(keepends=True)
    from scrapy_robots_rep.audit.files import line_hash

    document["manifest"]["files"][name] = {"lines": 4, "head": line_hash(lines[3])}
    manifest_path.write_text(json.dumps(document))
    (tmp_path / name).write_bytes(b"".join(lines[:6]) + lines[5][:25])
    result = verify(tmp_path)
    assert result.ok, result.problems
    assert result.notes == [
        f"{name} line 7: torn (its process stopped while writing it; left out)",
        f"{name}: line(s) 5-6 written after the last manifest (its process stopped before the next one): "
        "chained, not pinned by the manifest",
    ]


def test_a_signed_manifest_holds_with_its_public_key_only(tmp_path: Path) -> None:
    key, other = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    private = tmp_path / "private.pem"
    private.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    public, wrong = tmp_path / "public.pem", tmp_path / "wrong.pem"
    for path, holder in ((public, key), (wrong, other)):
        path.write_bytes(
            holder.public_key().public_bytes(
                serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
            )
        )
    audit = tmp_path / "audit"
    write_trail(audit, signing_key=private)
    assert main(["audit", "verify", str(audit), "--public-key", str(public)]) == 0
    assert main(["audit", "verify", str(audit), "--public-key", str(wrong)]) == 1
    # Inside a project: scrapy robots audit verify, the same grammar.
    scrapy = str(Path(sys.executable).parent / "scrapy")
    for key, status in ((public, 0), (wrong, 1)):
        project = subprocess.run(
            [scrapy, "robots", "audit", "verify", str(audit), "--public-key", str(key)],
            cwd=ROOT / "example_project",
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert project.returncode == status, project.stderr
    assert "the signature does not verify with the public key given" in project.stdout
    # The manifest's recorded head rewritten to match an edited file: the chain holds, the signature does not.
    manifest_path = next(audit.glob("manifest.*.json"))
    document = json.loads(manifest_path.read_text())
    document["manifest"]["closed"] = False
    manifest_path.write_text(json.dumps(document))
    assert main(["audit", "verify", str(audit)]) == 0  # without the key, only a note says it is signed
    assert main(["audit", "verify", str(audit), "--public-key", str(public)]) == 1
    unsigned = tmp_path / "unsigned"
    write_trail(unsigned)
    assert main(["audit", "verify", str(unsigned), "--public-key", str(public)]) == 1
