"""A host no server answers for (its name does not resolve, or it refuses the connection) is tried
on a short schedule, then its requests end as unreachable: the crawl ends in seconds, not after
``REP_DEFER_MAX_TIME`` (docs/behaviour.md §5). A real ``scrapy crawl`` of a startproject project."""

from __future__ import annotations

import re

from scrapy_robots_rep.policy.deferral import NO_SERVER_ATTEMPTS
from tests.project import Project
from tests.sites import closed_port_url

UNRESOLVABLE = "http://no-such-host.invalid"
"""RFC 6761: ``.invalid`` names never resolve."""


def test_a_dead_host_s_requests_end_as_unreachable_after_a_few_attempts(tmp_path) -> None:
    refused = closed_port_url()
    project = Project(tmp_path)
    project.add_settings("LOG_LEVEL = 'INFO'")

    completed = project.crawl(f"{refused}/a", f"{refused}/b", f"{UNRESOLVABLE}/c")

    log = completed.stderr
    assert completed.returncode == 0, log
    assert _stat(log, "rep/requests/dropped_unreachable") == 3, log
    assert _stat(log, "rep/robots/fetches") == 2 * NO_SERVER_ATTEMPTS, log
    for origin in (refused, UNRESOLVABLE):
        assert f"Dropped {origin}/" in log, log
        assert f"{origin}: robots.txt could not be obtained (unreachable)" in log, log
    assert "dropped for 0s" not in log


def _stat(log: str, name: str) -> int | None:
    found = re.search(rf"'{re.escape(name)}': (\d+)", log)
    return int(found.group(1)) if found else None
