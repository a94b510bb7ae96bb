"""``REP_REPORT`` values that cannot work, and a site closed to robots by its status (``docs/behaviour.md`` §11)."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
import pytest_twisted

from scrapy_robots_rep.exceptions import RobotsDisallowed
from scrapy_robots_rep.policy.report import REPORT_VERSION
from scrapy_robots_rep.policy.settings import SettingsError
from tests.crawling import crawl, request
from tests.sites import Sites, text


@pytest_twisted.ensureDeferred
@pytest.mark.parametrize(
    ("value", "message"),
    [
        (5, "REP_REPORT must be a file path, got 5"),
        (["report.json"], "REP_REPORT must be a file path, got ['report.json']"),
    ],
)
async def test_a_report_setting_that_is_not_a_path_stops_the_crawl_at_start(
    sites: Sites, value: object, message: str
) -> None:
    site = sites.start()
    with pytest.raises(SettingsError) as raised:
        await crawl([f"{site.url}/a"], settings={"REP_REPORT": value})
    assert str(raised.value) == message
    assert site.paths() == []


@pytest_twisted.ensureDeferred
async def test_a_report_path_that_is_a_directory_stops_the_crawl_at_start(sites: Sites, tmp_path: Path) -> None:
    site = sites.start()
    with pytest.raises(
        SettingsError, match=r"REP_REPORT must name a file to write \(.json, or .html\), .* is a directory"
    ):
        await crawl([f"{site.url}/a"], settings={"REP_REPORT": str(tmp_path)})
    assert site.paths() == []


@pytest_twisted.ensureDeferred
async def test_a_report_that_cannot_be_written_is_an_error_that_ends_the_crawl_cleanly(
    sites: Sites, tmp_path: Path
) -> None:
    not_a_folder = tmp_path / "notes.txt"
    not_a_folder.write_text("a file, not a folder\n")
    site = sites.start({"/robots.txt": text("User-agent: *\nDisallow: /private\n")})
    result = await crawl(
        [f"{site.url}/a", f"{site.url}/private"],
        settings={"REP_REPORT": str(not_a_folder / "report.json")},
        loggers=("scrapy_robots_rep", "scrapy.utils.signal"),
    )

    assert result.stats["finish_reason"] == "finished"
    errors = result.messages(logging.ERROR)
    assert len(errors) == 1 and errors[0].startswith("Could not write the robots.txt report (REP_REPORT): "), errors
    assert result.messages(logging.INFO, "robots.txt report: 1 origin, 2 requests decided")


@pytest_twisted.ensureDeferred
async def test_a_site_closed_by_a_legacy_403_is_reported_as_blocking_everything(sites: Sites, tmp_path: Path) -> None:
    site = sites.start({"/robots.txt": text("Forbidden", status=403)})
    path = tmp_path / "report.json"
    result = await crawl(
        [f"{site.url}/a", f"{site.url}/b"], settings={"REP_STATUS_POLICY": "legacy", "REP_REPORT": str(path)}
    )

    assert result.failures == {f"{site.url}/a": RobotsDisallowed, f"{site.url}/b": RobotsDisallowed}
    loud = result.messages(logging.WARNING, "blocks this crawler entirely")
    assert len(loud) == 1 and loud[0].startswith(f"{site.url}: blocks this crawler entirely (")
    assert "403" in loud[0] and loud[0].endswith("): 2 requests disallowed")
    (entry,) = json.loads(path.read_text())["origins"]
    assert entry["robots"]["outcome"] == "disallow_all"
    assert (entry["robots"]["status"], entry["robots"]["blocks_everything"]) == (403, True)
    assert (entry["allowed"], entry["disallowed"]) == (0, 2)


@pytest_twisted.ensureDeferred
async def test_a_crawl_that_checked_no_origin_still_replaces_an_earlier_report(sites: Sites, tmp_path: Path) -> None:
    path = tmp_path / "report.json"
    path.write_text(json.dumps({"v": REPORT_VERSION, "origins": [{"origin": "https://earlier-run.test"}]}))
    site = sites.start({"/robots.txt": text("User-agent: *\nDisallow: /\n")})
    result = await crawl(
        [request(f"{site.url}/a", meta={"dont_obey_robotstxt": True})], settings={"REP_REPORT": str(path)}
    )

    assert result.pages == [f"{site.url}/a"]
    assert site.paths() == ["/a"]
    assert json.loads(path.read_text()) == {"v": REPORT_VERSION, "origins": []}
    assert result.messages(logging.INFO, "robots.txt report:") == []
