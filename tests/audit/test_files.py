"""The audit files without a crawl: flushing, compression, the body store, times, the reader."""

from __future__ import annotations

import gzip
import json
import os
import time
from pathlib import Path

import pytest

from scrapy_robots_rep.audit import AuditDirectory, AuditTrail
from scrapy_robots_rep.audit.bodies import BodyStore, body_hash
from scrapy_robots_rep.audit.times import parse_rfc3339, rfc3339


def wait_for(condition: object, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.05)


def decision(url: str, when: float, kind: str = "allowed", sha256: str | None = None) -> dict[str, object]:
    return {
        "time": rfc3339(when),
        "url": url,
        "origin": "http://a.example",
        "decision": kind,
        "sha256": sha256,
        "group": ["*"],
        "rule": None,
        "reason": "no rule matched",
        "agent": "bot",
        "matching": "rfc9309",
        "status_policy": "rfc9309",
    }


@pytest.mark.parametrize("compress", [False, True])
def test_lines_reach_the_file_without_a_close(tmp_path: Path, compress: bool) -> None:
    trail = AuditTrail(tmp_path, compress=compress)
    try:
        trail.decision(decision("http://a.example/é", time.time()))
        (path,) = tmp_path.glob("decisions.*")
        assert path.name == f"decisions.{os.uname().nodename}-{os.getpid()}.jsonl" + (".gz" if compress else "")
        # The flushing thread pushes the line out; the directory reads it while the file is open.
        wait_for(lambda: AuditDirectory(tmp_path).find("http://a.example/é").found)
    finally:
        trail.close()
    data = gzip.decompress(path.read_bytes()) if compress else path.read_bytes()
    header, line = (json.loads(text) for text in data.splitlines())
    assert header["audit_file"]["name"] == "decisions"
    assert line["url"] == "http://a.example/é"


def test_a_line_cut_short_is_left_out_and_the_rest_reads(tmp_path: Path) -> None:
    now = time.time()
    whole = json.dumps(decision("http://a.example/x", now)).encode() + b"\n"
    (tmp_path / "decisions.other-1.jsonl").write_bytes(whole + whole[:40])
    compressed = gzip.compress(json.dumps(decision("http://a.example/y", now)).encode() + b"\n")
    (tmp_path / "decisions.other-2.jsonl.gz").write_bytes(compressed + compressed[:20])
    directory = AuditDirectory(tmp_path)
    assert directory.find("http://a.example/x").found
    assert directory.find("http://a.example/y").found
    assert len(list(directory.lines("decisions"))) == 2


def test_bodies_are_stored_once_by_hash(tmp_path: Path) -> None:
    body = "\ufeffUser-agent: *\r\nDisallow: /é\r\n".encode()
    first, second = BodyStore(tmp_path), BodyStore(tmp_path)  # two processes of a fleet
    assert first.store(body) == second.store(body) == body_hash(body)
    assert [path.name for path in tmp_path.iterdir()] == [f"{body_hash(body)}.txt"]
    assert first.path(body_hash(body)).read_bytes() == body


def test_times_are_utc_whatever_the_time_zone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "America/St_Johns")
    time.tzset()
    try:
        assert rfc3339(0.5) == "1970-01-01T00:00:00.500Z"
        assert parse_rfc3339("1970-01-01T00:00:00.500Z") == 0.5
        assert parse_rfc3339("1970-01-01T05:30:00+05:30") == 0.0
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()
    with pytest.raises(ValueError, match="not an RFC 3339 time"):
        parse_rfc3339("yesterday")


def test_the_decision_in_force_at_a_time_is_the_last_one_made_by_then(tmp_path: Path) -> None:
    url = "http://a.example/page"
    lines = [decision(url, 1000.0, "allowed"), decision(url, 2000.0, "disallowed")]
    (tmp_path / "decisions.h-1.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    directory = AuditDirectory(tmp_path)
    assert directory.find(url).verdict == "dropped"
    assert directory.find(url, at=1500.0).verdict == "fetched"
    assert not directory.find(url, at=999.0).found
    assert len(directory.find(url).earlier) == 1


def test_a_missing_directory_is_an_error_that_says_so(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="not an audit directory"):
        AuditDirectory(tmp_path / "nowhere")
