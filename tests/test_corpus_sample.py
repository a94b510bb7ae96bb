"""The corpus sample shipped in ``tests/data/corpus`` is whole, and the locator picks the right corpus."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tests.corpus import FULL, SAMPLE, corpus_dir


def test_sample_holds_what_its_manifest_lists() -> None:
    manifest = json.loads((SAMPLE / "manifest.json").read_text(encoding="utf-8"))
    files = {path.name[: -len(".txt")]: path.stat().st_size for path in (SAMPLE / "robots").glob("*.txt")}
    with open(SAMPLE / "urls.jsonl", encoding="utf-8") as lines:
        urls_per_site = Counter(json.loads(line)["site"] for line in lines)

    assert set(files) == set(manifest["chosen"])
    assert len(files) == manifest["kept"] and sum(files.values()) == manifest["kept_bytes"]
    assert urls_per_site == {site: 20 for site in files}
    assert sum(urls_per_site.values()) == manifest["urls"]
    assert {"4chan.org", "99designs.com", "github.com", "twitter.com", "www.congress.gov"} <= set(files)
    assert sum(files.values()) + (SAMPLE / "urls.jsonl").stat().st_size < 2_100_000


def test_sample_files_are_kept_byte_for_byte() -> None:
    bodies = {path.name: path.read_bytes() for path in (SAMPLE / "robots").glob("*.txt")}

    assert any(b"\r" in body and b"\n" not in body for body in bodies.values()), "CR-only line ends survive"
    assert any(body.startswith(b"\xef\xbb\xbf") for body in bodies.values()), "BOMs survive"
    congress = b"User-agent: *\nCrawl-delay: 2\nUser-Agent: Googlebot\nDisallow: /search/\n"
    assert bodies["www.congress.gov.txt"] == congress, "the grouping example is intact"


@pytest.mark.skipif(not any((FULL / "robots").glob("*.txt")), reason=f"the full corpus is not at {FULL}")
def test_sample_is_regenerated_identically_from_the_full_corpus(tmp_path: Path) -> None:
    subprocess.run([sys.executable, str(SAMPLE / "make_sample.py"), str(FULL), str(tmp_path)], check=True, timeout=120)

    for name in ("manifest.json", "urls.jsonl"):
        assert (tmp_path / name).read_bytes() == (SAMPLE / name).read_bytes(), name
    made = {path.name: path.read_bytes() for path in (tmp_path / "robots").iterdir()}
    shipped = {path.name: path.read_bytes() for path in (SAMPLE / "robots").iterdir()}
    assert made == shipped


def test_locator_can_be_forced_to_the_sample(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REP_CORPUS", "sample")

    assert corpus_dir() == SAMPLE


def test_locator_prefers_the_full_corpus_when_present(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REP_CORPUS", raising=False)

    assert corpus_dir() == (FULL if (FULL / "robots").is_dir() else SAMPLE)


def test_locator_rejects_an_unknown_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REP_CORPUS", "everything")

    with pytest.raises(ValueError, match="REP_CORPUS='everything': expected one of sample, full"):
        corpus_dir()
