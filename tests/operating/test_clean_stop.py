"""A crawl stopped while an origin's robots.txt retry is pending closes cleanly
(docs/operating.md, The close message): no CRITICAL line, no unhandled error, no logging error.
The crawl is a real ``scrapy crawl`` process, stopped with SIGINT as Ctrl-C stops it."""

from __future__ import annotations

import signal

from tests.project import Project
from tests.sites import Sites, text

WAITING = "next attempt in"


def test_ctrl_c_while_a_robots_txt_retry_is_pending_closes_cleanly(sites: Sites, tmp_path) -> None:
    down = sites.start({"/robots.txt": text("busy", status=503, **{"Retry-After": "120"})})
    project = Project(tmp_path)
    crawl = project.start_crawl(f"{down.url}/page")
    assert crawl.stderr is not None
    seen: list[str] = []
    try:
        for line in crawl.stderr:
            seen.append(line)
            if WAITING in line:
                crawl.send_signal(signal.SIGINT)
                break
        seen += crawl.stderr.readlines()
        crawl.wait(timeout=60)
    finally:
        if crawl.poll() is None:
            crawl.kill()
            crawl.wait()
    log = "".join(seen)

    assert any(WAITING in line for line in seen), log
    assert "still waiting for robots.txt of " + down.url in log, log
    assert crawl.returncode == 0, log
    for bad in ("CRITICAL", "Unhandled error", "Logging error", "Traceback", "never retrieved"):
        assert bad not in log, log
    assert down.paths() == ["/robots.txt"]


def test_closespider_timeout_while_a_robots_txt_retry_is_pending_closes_cleanly(sites: Sites, tmp_path) -> None:
    down = sites.start({"/robots.txt": text("busy", status=503, **{"Retry-After": "120"})})
    project = Project(tmp_path)
    project.add_settings("CLOSESPIDER_TIMEOUT = 1")

    completed = project.crawl(f"{down.url}/page")

    log = completed.stderr
    assert completed.returncode == 0, log
    assert "Spider closed (closespider_timeout) with 1 request still waiting for robots.txt" in log, log
    for bad in ("CRITICAL", "Unhandled error", "Logging error", "Traceback", "never retrieved"):
        assert bad not in log, log
    assert down.paths() == ["/robots.txt"]
