"""Directive lists and unavailable_after dates in the forms Google documents (docs/behaviour.md §10)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from scrapy_robots_rep.core.page import PageDirectives
from scrapy_robots_rep.core.page.values import directive_items, parse_date, scoped_parts

UTC = timezone.utc


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("25 Jun 2010 15:00:00 PST", datetime(2010, 6, 25, 23, 0, tzinfo=UTC)),  # RFC 822 (Google's example)
        ("Fri, 25 Jun 2010 15:00:00 GMT", datetime(2010, 6, 25, 15, 0, tzinfo=UTC)),  # RFC 822 / 1123
        ("Sat, 25 Aug 2007 15:00:00 -0500", datetime(2007, 8, 25, 20, 0, tzinfo=UTC)),
        ("Sunday, 15-Oct-22 07:00:00 PDT", datetime(2022, 10, 15, 14, 0, tzinfo=UTC)),  # RFC 850
        ("23-Jul-2007 18:00:00 EST", datetime(2007, 7, 23, 23, 0, tzinfo=UTC)),  # Google's 2007 announcement
        ("2020-09-21", datetime(2020, 9, 21, tzinfo=UTC)),  # ISO 8601 (Google's current example)
        ("2025-12-31T23:59:59Z", datetime(2025, 12, 31, 23, 59, 59, tzinfo=UTC)),
        ("2025-12-31T23:59:59+02:00", datetime(2025, 12, 31, 21, 59, 59, tzinfo=UTC)),
        ("2025-12-31 10:00", datetime(2025, 12, 31, 10, 0, tzinfo=UTC)),  # no zone: UTC
        ("25 Jun 2010", datetime(2010, 6, 25, tzinfo=UTC)),
        ("soon", None),
        ("2020-13-45", None),
        ("31 Feb 2020 10:00:00 GMT", None),
        ("", None),
    ],
)
def test_dates(text: str, expected: datetime | None) -> None:
    assert parse_date(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "noindex, unavailable_after: Sunday, 15-Oct-22 07:00:00 PDT, nofollow",
            ["noindex", "unavailable_after: Sunday, 15-Oct-22 07:00:00 PDT", "nofollow"],
        ),
        ("unavailable_after: Fri, 25 Jun 2010 15:00:00 GMT", ["unavailable_after: Fri, 25 Jun 2010 15:00:00 GMT"]),
        ("unavailable_after: soon, noindex", ["unavailable_after: soon", "noindex"]),
        ("max-snippet:20,max-image-preview:large", ["max-snippet: 20", "max-image-preview: large"]),
        ("noindex nofollow", ["noindex", "nofollow"]),
        ("noindex something", ["noindex something"]),
    ],
)
def test_directive_lists(text: str, expected: list[str]) -> None:
    assert [item.text for item in directive_items(text)] == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("googlebot: noindex", (("googlebot", " noindex"),)),
        ("noindex", ((None, "noindex"),)),
        ("unavailable_after: 2020-01-01", ((None, "unavailable_after: 2020-01-01"),)),
        ("max-snippet: 3", ((None, "max-snippet: 3"),)),
        ("noindex: yes", ((None, "noindex: yes"),)),
        # A second ``name:`` that is not a directive name starts a new scope.
        ("otherbot: noindex, mybot: nofollow", (("otherbot", " noindex"), ("mybot", " nofollow"))),
        ("noindex, mybot: nofollow, max-snippet: 3", ((None, "noindex"), ("mybot", " nofollow, max-snippet: 3"))),
        ("a: noindex; b: nofollow", (("a", " noindex"), ("b", " nofollow"))),
        # A date's commas and colons never start a scope.
        (
            "mybot: unavailable_after: Friday, 25-Jun-2010 15:00:00 PST, otherbot: none",
            (("mybot", " unavailable_after: Friday, 25-Jun-2010 15:00:00 PST"), ("otherbot", " none")),
        ),
    ],
)
def test_scopes(value: str, expected: tuple[tuple[str | None, str], ...]) -> None:
    assert scoped_parts(value) == expected


def test_unavailable_after_is_noindex_once_passed() -> None:
    html = {"Content-Type": "text/html"}
    markup = '<meta name="robots" content="unavailable_after: 2024-05-01T00:00:00Z">'
    before = PageDirectives.parse(markup, html, agent="mybot", now=datetime(2024, 4, 30, tzinfo=UTC))
    after = PageDirectives.parse(markup, html, agent="mybot", now=datetime(2024, 5, 2, tzinfo=UTC))
    assert before.noindex is False and after.noindex is True
    assert before.unavailable_after == after.unavailable_after == datetime(2024, 5, 1, tzinfo=UTC)
    assert after.why("noindex") is not None and "passed" in after.why("noindex")  # type: ignore[operator]


def test_an_invalid_date_is_ignored() -> None:
    directives = PageDirectives.parse(b"", {"X-Robots-Tag": "unavailable_after: next week"}, agent="mybot")
    assert directives.noindex is False and directives.unavailable_after is None
    assert directives.explain() == [
        "unavailable_after: next week (header X-Robots-Tag: unavailable_after: next week): not a date: ignored",
        "the body was not read: not an HTML response",
    ]
