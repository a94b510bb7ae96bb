"""Content-usage signals: noai, TDMRep, robots.txt Content-Signal and declared purposes
(docs/behaviour.md §10); and what ``explain()`` says."""

from __future__ import annotations

from datetime import datetime, timezone
from types import SimpleNamespace

import pytest

from scrapy_robots_rep.core.page import PURPOSES, Effect, PageDirectives, purpose_refusal

HTML = {"Content-Type": "text/html"}
NOW = datetime(2025, 1, 1, tzinfo=timezone.utc)


def parse(markup: str = "", **headers: str) -> PageDirectives:
    pairs = [("Content-Type", "text/html")] + [(name.replace("_", "-"), value) for name, value in headers.items()]
    return PageDirectives.parse(markup, pairs, agent="mybot", now=NOW)


@pytest.mark.parametrize(
    "directives",
    [
        parse('<meta name="robots" content="noai">'),
        parse('<meta name="mybot" content="noimageai">'),
        parse(X_Robots_Tag="noai, noimageai"),
        parse(X_Robots_Tag="mybot: noimageai"),
        parse(TDM_Reservation="1"),
        parse('<meta name="tdm-reservation" content="1">'),
    ],
    ids=["meta noai", "agent noimageai", "header", "scoped header", "tdm header", "tdm meta"],
)
def test_ai_purposes_refused(directives: PageDirectives) -> None:
    assert not directives.allows("ai-train") and not directives.allows("AI-Input")
    assert directives.allows("search")
    assert not directives.noindex


@pytest.mark.parametrize(
    "directives",
    [parse(), parse(TDM_Reservation="0"), parse(X_Robots_Tag="otherbot: noai"), parse("<!-- noai -->")],
    ids=["nothing", "tdm 0", "other agent", "comment"],
)
def test_ai_purposes_allowed(directives: PageDirectives) -> None:
    assert all(directives.allows(purpose) for purpose in PURPOSES)


def test_tdm_values_exposed() -> None:
    directives = parse('<meta name="tdm-reservation" content="1"><meta name="tdm-policy" content=" https://a.test/p ">')
    assert directives.tdm_reservation is True
    assert directives.tdm_policy == "https://a.test/p"


def test_site_signals_fold_in_conservatively() -> None:
    signals = {"search": True, "ai-input": True, "ai-train": False}
    page = parse().with_site_signals(signals)
    assert page.allows("search") and page.allows("ai-input") and not page.allows("ai-train")
    assert page.refusal("ai-train") == "ai-train=no (robots.txt Content-Signal)"
    noai = parse(X_Robots_Tag="noai").with_site_signals({"ai-input": True})
    assert not noai.allows("ai-input")  # a page-level no beats an origin-wide yes
    assert noai.refusal("ai-input") == "noai (header X-Robots-Tag: noai)"


def test_a_purpose_nothing_speaks_about_is_allowed() -> None:
    assert parse().with_site_signals({"ai-train": False}).allows("some-future-purpose")


@pytest.mark.parametrize(
    ("signals", "purposes", "refused"),
    [
        ({"ai-train": False}, ["ai-train"], True),
        ({"ai-train": False, "ai-input": False}, ["ai-train", "ai-input"], True),
        ({"ai-train": False}, ["ai-train", "search"], False),
        ({"ai-train": False, "search": True}, ["search"], False),
        ({"ai-train": False}, [], False),
        ({}, ["ai-train"], False),
        ({"search": False}, ["SEARCH"], True),
    ],
)
def test_purpose_refusal(signals: dict[str, bool], purposes: list[str], refused: bool) -> None:
    reason = purpose_refusal(signals, purposes)
    assert (reason is not None) is refused
    if reason is not None:
        assert reason.startswith("robots.txt Content-Signal refuses every declared purpose (REP_PURPOSES)")


def test_explain_names_every_source() -> None:
    directives = PageDirectives.parse(
        '<head><meta name="robots" content="noindex, max-snippet: 20, frobnicate"></head>',
        [("Content-Type", "text/html"), ("X-Robots-Tag", "otherbot: nofollow"), ("X-Robots-Tag", "mybot: noai")],
        agent="mybot",
        now=NOW,
    ).with_site_signals({"search": True})
    assert directives.explain() == [
        "noai (header X-Robots-Tag: mybot: noai): ai-train=no, ai-input=no",
        'noindex (<meta name="robots" content="noindex, max-snippet: 20, frobnicate"> in the head): noindex',
        'max-snippet: 20 (<meta name="robots" content="noindex, max-snippet: 20, frobnicate"> in the head): '
        "exposed, not enforced",
        'frobnicate (<meta name="robots" content="noindex, max-snippet: 20, frobnicate"> in the head): '
        "unknown: kept, not enforced",
        "nofollow (header X-Robots-Tag: otherbot: nofollow): ignored, scoped to another agent",
        "search=yes (robots.txt Content-Signal)",
    ]


def test_explain_when_nothing_applies() -> None:
    assert parse().explain() == ["no robots directives: nothing restricted"]


def test_from_response_reads_any_object_with_body_and_headers() -> None:
    plain = SimpleNamespace(
        body=b'<html><head><meta name="robots" content="noindex"></head>', headers={"X-Robots-Tag": ["nofollow"]}
    )
    directives = PageDirectives.from_response(plain, agent="mybot")
    assert directives.noindex and directives.nofollow


def test_from_scrapy_response() -> None:
    from scrapy.http import HtmlResponse, TextResponse

    page = HtmlResponse(
        "https://a.test/", body=b"<meta name=robots content=noarchive>", headers={"X-Robots-Tag": ["mybot: nofollow"]}
    )
    assert PageDirectives.from_response(page, agent="mybot/1.0").restricted == {Effect.NOARCHIVE, Effect.NOFOLLOW}
    text = TextResponse(
        "https://a.test/x.txt", body=b"<meta name=robots content=noarchive>", headers={"Content-Type": "text/plain"}
    )
    assert not PageDirectives.from_response(text, agent="mybot").noarchive
