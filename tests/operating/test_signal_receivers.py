"""The package's own signals are sent only while a receiver listens, asked at each send: a receiver
connected in the middle of a crawl, or to any sender, still hears the next one; the end-of-crawl
report is told each origin's record without listening to ``robots_obtained``."""

from __future__ import annotations

from typing import Any

from pydispatch import dispatcher
from scrapy import Request
from scrapy.utils.test import get_crawler

from scrapy_robots_rep import signals
from scrapy_robots_rep.core import AgentRules
from scrapy_robots_rep.crawl.outcomes import Outcomes, heard
from scrapy_robots_rep.policy.record_cache import CacheRecord
from scrapy_robots_rep.policy.status import Outcome


def test_heard_asks_the_table_at_each_send() -> None:
    crawler = get_crawler()
    sender = crawler.signals.sender
    assert not heard(sender, signals.request_deferred)

    def receiver(**kwargs: Any) -> None: ...

    crawler.signals.connect(receiver, signals.request_deferred)
    assert heard(sender, signals.request_deferred)
    assert not heard(sender, signals.robots_obtained)
    crawler.signals.disconnect(receiver, signals.request_deferred)
    assert not heard(sender, signals.request_deferred)
    dispatcher.connect(receiver, signals.robots_obtained)  # from any sender
    try:
        assert heard(sender, signals.robots_obtained)
    finally:
        dispatcher.disconnect(receiver, signals.robots_obtained)
    crawler.signals.connect(receiver, dispatcher.Any)  # any signal of this sender
    assert heard(sender, signals.request_disallowed)
    crawler.signals.disconnect(receiver, dispatcher.Any)
    assert not heard(sender, signals.request_disallowed)


def test_a_receiver_connected_late_hears_the_next_signals_and_watchers_every_record() -> None:
    crawler = get_crawler()
    outcomes = Outcomes.from_crawler(crawler)
    seen: list[tuple[str, str]] = []
    watched: list[str] = []
    outcomes.watch_records(lambda origin, record: watched.append(origin))
    rules = AgentRules.allow_all("robots.txt returned 404")
    record = CacheRecord(rules=rules, outcome=Outcome.ALLOW_ALL, status=404, fetched_at=1.0, expires_at=2.0)
    outcomes.deferred(Request("https://a.example/1"), "https://a.example")

    def on_deferred(request: Request, origin: str, **kwargs: Any) -> None:
        seen.append(("deferred", request.url))

    def on_obtained(origin: str, record: CacheRecord, **kwargs: Any) -> None:
        seen.append(("obtained", origin))

    crawler.signals.connect(on_deferred, signals.request_deferred)
    crawler.signals.connect(on_obtained, signals.robots_obtained)
    outcomes.deferred(Request("https://a.example/2"), "https://a.example")
    outcomes.record_kept("https://a.example", record)
    assert seen == [("deferred", "https://a.example/2"), ("obtained", "https://a.example")]
    assert watched == ["https://a.example"]
    assert crawler.stats is not None and crawler.stats.get_value("rep/requests/deferred") == 2
