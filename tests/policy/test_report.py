"""The end-of-crawl report as plain data (``docs/behaviour.md`` §11): ``summarise``, its log lines,
its JSON form, and which rules block an origin entirely."""

from __future__ import annotations

import json

import pytest

from scrapy_robots_rep.core import AgentRules, RobotsTxt
from scrapy_robots_rep.policy.accounting import OriginCounts
from scrapy_robots_rep.policy.report import (
    LISTED_IN_LOG,
    REPORT_VERSION,
    CrawlReport,
    OriginSummary,
    RobotsSeen,
    blocks_everything,
    summarise,
)

ORIGIN = "https://example.com"
AGENT = "testbot"


def rules(body: str, matching: str = "rfc9309") -> AgentRules:
    return RobotsTxt.parse(body, matching).for_agent(AGENT)


@pytest.mark.parametrize(
    "body",
    [
        "User-agent: *\nDisallow: /\n",
        "User-agent: testbot\nDisallow: /\n",
        "User-agent: *\nDisallow: /*\n",
        "User-agent: *\nDisallow: *\n",
        "User-agent: *\nDisallow: /*$\n",
        "User-agent: *\nDisallow: /private\nDisallow: /\n",
    ],
)
def test_a_rule_matching_every_path_and_no_allow_rule_blocks_everything(body: str) -> None:
    assert blocks_everything(rules(body), ORIGIN)


@pytest.mark.parametrize(
    "body",
    [
        "User-agent: *\nDisallow: /\nAllow: /x\n",
        "User-agent: *\nAllow: /x\nDisallow: /\n",
        "User-agent: *\nDisallow: /$\n",
        "User-agent: *\nDisallow: /private\n",
        "User-agent: otherbot\nDisallow: /\n",
        "User-agent: *\nDisallow:\n",
        "",
    ],
)
def test_rules_that_leave_a_path_open_do_not_block_everything(body: str) -> None:
    assert not blocks_everything(rules(body), ORIGIN)


def test_in_legacy_matching_wildcards_are_literal_and_an_empty_disallow_blocks() -> None:
    assert blocks_everything(rules("User-agent: *\nDisallow: /\n", "legacy"), ORIGIN)
    assert not blocks_everything(rules("User-agent: *\nDisallow: /*\n", "legacy"), ORIGIN)
    assert blocks_everything(rules("User-agent: *\nDisallow:\n", "legacy"), ORIGIN)


def test_a_site_closed_to_robots_blocks_everything_and_allow_all_does_not() -> None:
    """The legacy status policy reads 401/403 as a record disallowing all; 404 allows all."""
    assert blocks_everything(AgentRules.disallow_all("robots.txt returned 403: site closed to robots"), ORIGIN)
    assert blocks_everything(AgentRules.disallow_all("robots.txt returned 401", matching="legacy"), ORIGIN)
    assert not blocks_everything(AgentRules.allow_all("robots.txt returned 404"), ORIGIN)


def seen(outcome: str = "rules", status: int | None = 200, reason: str = "", blocked: bool = False) -> RobotsSeen:
    return RobotsSeen(outcome, status, reason or f"robots.txt returned {status}", blocked)


def test_summarise_has_every_origin_counted_seen_or_waiting_in_order() -> None:
    counts = {"https://b.test": OriginCounts(allowed=3, disallowed=1, deferred=4)}
    robots = {"https://b.test": seen(), "https://a.test": seen("unreachable", 503)}
    waiting = {"https://c.test": 2, "https://a.test": 5}
    report = summarise(counts, robots, {"https://b.test": (10.0, 2.0)}, waiting)

    assert [summary.origin for summary in report.origins] == ["https://a.test", "https://b.test", "https://c.test"]
    a, b, c = report.origins
    assert a == OriginSummary("https://a.test", robots["https://a.test"], 0, 0, 0, 0, still_waiting=5)
    assert b == OriginSummary("https://b.test", robots["https://b.test"], 3, 1, 0, 4, 0, 10.0, 2.0)
    assert c == OriginSummary("https://c.test", None, 0, 0, 0, 0, still_waiting=2)


def test_summarise_of_nothing_is_an_empty_report() -> None:
    assert summarise({}, {}, {}, {}).origins == []


def counts(allowed: int = 0, refusals: dict | None = None, **other: int) -> OriginCounts:
    """Counts whose ``disallowed`` comes from the refusals, as the crawl counts them."""
    origin_counts = OriginCounts(allowed=allowed, **other)
    for key, number in (refusals or {}).items():
        for _ in range(number):
            origin_counts.refused(key)
    return origin_counts


def test_the_log_summary_totals_then_one_line_per_origin_that_matters() -> None:
    report = summarise(
        {
            "https://blocked.test": counts(refusals={(2, "Disallow: /"): 4}, deferred=4),
            "https://down.test": counts(dropped_unreachable=2, deferred=2),
            "https://slow.test": counts(allowed=5, refusals={(3, "Disallow: /tmp"): 1}, deferred=1),
            "https://polite.test": counts(allowed=2, refusals={(4, "Disallow: /a"): 2, (7, "Disallow: /b*"): 5}),
            "https://late.test": counts(allowed=1),
        },
        {
            "https://blocked.test": seen(reason="'Disallow: /' at line 2, group *", blocked=True),
            "https://down.test": seen("unreachable", 503),
            "https://slow.test": seen(),
            "https://polite.test": seen(),
            "https://late.test": seen(),
        },
        {"https://slow.test": (30.0, 5.0), "https://polite.test": (0.5, 0.5)},
        {"https://waiting.test": 3, "https://late.test": 1},
    )

    assert report.lines() == [
        (
            False,
            "robots.txt report: 6 origins, 22 requests decided: 8 allowed, 12 disallowed, "
            "2 dropped as unreachable, 4 still waiting",
        ),
        (
            True,
            "https://blocked.test: blocks this crawler entirely ('Disallow: /' at line 2, group *): 4 requests disallowed",
        ),
        (
            True,
            "https://down.test: robots.txt could not be obtained (unreachable, HTTP 503): 2 requests dropped, 0 still waiting",
        ),
        (
            True,
            "https://waiting.test: robots.txt not obtained before the crawl closed: 0 requests dropped, 3 still waiting",
        ),
        (False, "https://late.test: rules obtained, 1 request still waiting at close"),
        (False, "https://polite.test: 7 requests disallowed, by line 7 'Disallow: /b*' (5), line 4 'Disallow: /a' (2)"),
        (False, "https://slow.test: 1 request disallowed, by line 3 'Disallow: /tmp' (1)"),
        (False, "Crawl-delay applied to 2 origins: https://polite.test 0.5s, https://slow.test 5s (asked 30s)"),
    ]


def test_a_quiet_crawl_has_only_the_totals_line_with_singulars() -> None:
    report = summarise({"https://a.test": OriginCounts(allowed=1, deferred=1)}, {"https://a.test": seen()}, {}, {})
    assert report.lines() == [
        (
            False,
            "robots.txt report: 1 origin, 1 request decided: 1 allowed, 0 disallowed, "
            "0 dropped as unreachable, 0 still waiting",
        ),
    ]


def test_long_lists_name_the_first_origins_and_count_the_others() -> None:
    many = LISTED_IN_LOG + 3
    origins = [f"https://site{number:02d}.test" for number in range(many)]
    report = summarise(
        {origin: OriginCounts(dropped_unreachable=1) for origin in origins},
        {},
        {origin: (1.0, 1.0) for origin in origins},
        {},
    )
    lines = [text for _, text in report.lines()]
    unreachable = [text for text in lines if "not obtained" in text]
    assert [text.split(":", 2)[0] + ":" + text.split(":", 2)[1] for text in unreachable] == origins[:LISTED_IN_LOG]
    assert "... and 3 more origins like these" in lines
    delayed = lines[-1]
    assert delayed.startswith(f"Crawl-delay applied to {many} origins: ") and delayed.endswith(" and 3 more")
    assert delayed.count("https://") == LISTED_IN_LOG


def test_the_json_form_has_every_field_of_every_origin() -> None:
    report = summarise(
        {"https://a.test": counts(allowed=1, refusals={(2, "Disallow: /x"): 2}, deferred=3)},
        {"https://a.test": seen(reason="'Disallow: /x' at line 2, group *")},
        {"https://a.test": (4.0, 1.5)},
        {"https://b.test": 1},
    )
    data = json.loads(json.dumps(report.to_dict()))

    assert data == {
        "v": REPORT_VERSION,
        "origins": [
            {
                "origin": "https://a.test",
                "robots": {
                    "outcome": "rules",
                    "status": 200,
                    "reason": "'Disallow: /x' at line 2, group *",
                    "blocks_everything": False,
                },
                "allowed": 1,
                "disallowed": 2,
                "dropped_unreachable": 0,
                "deferred": 3,
                "still_waiting": 0,
                "crawl_delay": 4.0,
                "delay_applied": 1.5,
                "refusals": [{"line": 2, "rule": "Disallow: /x", "reason": None, "refused": 2}],
                "page_drops": {},
            },
            {
                "origin": "https://b.test",
                "robots": None,
                "allowed": 0,
                "disallowed": 0,
                "dropped_unreachable": 0,
                "deferred": 0,
                "still_waiting": 1,
                "crawl_delay": None,
                "delay_applied": None,
                "refusals": [],
                "page_drops": {},
            },
        ],
    }
    assert CrawlReport().to_dict() == {"v": REPORT_VERSION, "origins": []}
