"""``REP_OUTCOME_SINKS``: a project's own outcome sink, built with ``build_from_crawler`` and told
how every request and robots.txt fetch ended (docs/operating.md, "Your own outcome sink")."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
import pytest_twisted
from scrapy.crawler import Crawler
from scrapy.utils.test import get_crawler

from scrapy_robots_rep import OutcomeSink, RobotsMiddleware
from scrapy_robots_rep.crawl.outcomes import FetchEnded, RequestEnded
from scrapy_robots_rep.policy.settings import SettingsError
from tests.crawling import BASE_SETTINGS, crawl
from tests.sites import Sites, text


class Metrics(OutcomeSink):
    """Counts what it is told, as a metrics exporter would, and keeps the crawler it was built with."""

    built: ClassVar[list[Metrics]] = []

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.requests: list[tuple[str, str]] = []
        self.fetches: list[tuple[str, str]] = []
        Metrics.built.append(self)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Metrics:
        return cls(crawler)

    def request_ended(self, ended: RequestEnded) -> None:
        self.requests.append((ended.outcome.value, ended.request.url))

    def fetch_ended(self, ended: FetchEnded) -> None:
        self.fetches.append((ended.origin, ended.conclusion.record.outcome.value))


class NotASink:
    pass


@pytest_twisted.ensureDeferred
async def test_a_configured_sink_is_told_every_outcome_of_a_real_crawl(sites: Sites) -> None:
    Metrics.built.clear()
    site = sites.start({"/robots.txt": text("User-agent: *\nDisallow: /private\n"), "/a": text("a")})
    result = await crawl(
        [f"{site.url}/a", f"{site.url}/private"],
        settings={"REP_OUTCOME_SINKS": [f"{__name__}.Metrics"]},
    )
    assert [sink.crawler for sink in Metrics.built] == [result.crawler]
    sink = Metrics.built[0]
    assert sink.fetches == [(site.url, "rules")]
    decided = {(outcome, url) for outcome, url in sink.requests if outcome != "deferred"}
    assert decided == {("allowed", f"{site.url}/a"), ("disallowed", f"{site.url}/private")}
    assert result.stat("rep/requests/allowed") == 1


@pytest.mark.parametrize(
    ("sinks", "message"),
    [
        (["nowhere.Metrics"], "REP_OUTCOME_SINKS entry 'nowhere.Metrics' cannot be loaded: No module named"),
        ([f"{__name__}.NotASink"], "REP_OUTCOME_SINKS entry '.*NotASink' is not an OutcomeSink"),
        (5, "REP_OUTCOME_SINKS must be a list of import paths"),
    ],
)
def test_a_sink_that_cannot_be_used_is_a_start_up_error_naming_the_setting(sinks: Any, message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        RobotsMiddleware.from_crawler(get_crawler(settings_dict={**BASE_SETTINGS, "REP_OUTCOME_SINKS": sinks}))
