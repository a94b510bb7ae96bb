"""X-Robots-Tag headers, scoped and unscoped, and TDMRep headers (docs/behaviour.md §10)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from scrapy_robots_rep.core.page import Effect, PageDirectives

NOW = datetime(2025, 6, 1, tzinfo=timezone.utc)


def page(*values: str, agent: str = "MyBot/2.1 (+https://bot.test)", **other: str) -> PageDirectives:
    headers = [("X-Robots-Tag", value) for value in values] + [(name.replace("_", "-"), v) for name, v in other.items()]
    return PageDirectives.parse(b"", headers, agent=agent, now=NOW)


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (["noindex"], {Effect.NOINDEX}),
        (["noarchive, nosnippet"], {Effect.NOARCHIVE, Effect.NOSNIPPET}),
        (["noindex", "nofollow"], {Effect.NOINDEX, Effect.NOFOLLOW}),
        (["NONE"], {Effect.NOINDEX, Effect.NOFOLLOW}),
        (["mybot: noindex"], {Effect.NOINDEX}),
        (["MyBot: nofollow, noarchive"], {Effect.NOFOLLOW, Effect.NOARCHIVE}),
        (["mybot:noindex"], {Effect.NOINDEX}),
        (["otherbot: noindex"], set()),
        (["otherbot: noindex, nofollow", "mybot: noarchive"], {Effect.NOARCHIVE}),
        (["googlebot: noindex", "nofollow"], {Effect.NOFOLLOW}),
        (["otherbot: noindex, mybot: nofollow"], {Effect.NOFOLLOW}),
        (["otherbot: noindex, mybot: nofollow, thirdbot: noarchive"], {Effect.NOFOLLOW}),
        (["max-snippet: 20, noarchive"], {Effect.NOARCHIVE}),
        (["unavailable_after: 25 Jun 2010 15:00:00 PST"], {Effect.NOINDEX}),
        (["mybot: unavailable_after: 2030-01-01"], set()),
        (["all", "none"], {Effect.NOINDEX, Effect.NOFOLLOW}),
        (["", " , ,"], set()),
    ],
    ids=lambda value: repr(value),
)
def test_x_robots_tag(values: list[str], expected: set[Effect]) -> None:
    assert set(page(*values).restricted) == expected


def test_scope_covers_the_rest_of_the_header_value() -> None:
    directives = page("otherbot: noindex, nofollow, max-snippet: 3")
    assert directives.restricted == frozenset() and directives.max_snippet is None
    assert [d.name for d in directives.ignored] == ["noindex", "nofollow", "max-snippet"]


def test_valued_directives_are_never_scopes() -> None:
    directives = page("max-image-preview: large, unavailable_after: 2000-01-01")
    assert directives.max_image_preview == "large"
    assert directives.noindex is True
    assert directives.ignored == ()


def test_scoped_to_the_product_token_only() -> None:
    assert page("mybot/2.1: noindex").noindex is False  # a scope is a bare name
    assert page("mybot: noindex", agent="mybot").noindex is True
    assert page("mybot-news: noindex", agent="mybot").noindex is False


def test_scrapy_style_headers_mapping() -> None:
    headers = {b"X-Robots-Tag": [b"otherbot: noindex", b"mybot: nofollow"], b"Content-Type": [b"text/plain"]}
    directives = PageDirectives.parse(b"<meta name=robots content=noindex>", headers, agent="mybot")
    assert directives.restricted == {Effect.NOFOLLOW}


def test_header_names_are_case_insensitive() -> None:
    directives = PageDirectives.parse(b"", {"x-robots-tag": "noindex", "TDM-RESERVATION": "1"}, agent="mybot")
    assert directives.noindex and directives.tdm_reservation


def test_remembered_header_names_are_bounded_and_read_as_themselves() -> None:
    """The names read are remembered as received (str or bytes, any case, spaces around), a name not
    read too, and only so many of them."""
    from scrapy_robots_rep.core.page import directives as page_directives

    remembered = page_directives._read_header_name
    remembered.cache_clear()
    for _ in range(2):  # read, then looked up
        headers = [(b" X-Robots-Tag", b"noindex"), ("tdm-reservation", "1"), (b"X-Robots", b"nofollow"), (7, "x")]
        directives = PageDirectives.parse(b"", headers, agent="mybot")
        assert directives.restricted == {Effect.NOINDEX} and directives.tdm_reservation
    assert remembered.cache_info().hits == 4
    for number in range(remembered.cache_info().maxsize + 10):
        PageDirectives.parse(b"", [(f"X-Header-{number}", "noindex")], agent="mybot")
    assert remembered.cache_info().currsize == remembered.cache_info().maxsize
    assert PageDirectives.parse(b"", [(b"x-robots-TAG ", b"nofollow")], agent="mybot").nofollow


def test_remembered_x_robots_tag_values_are_read_for_each_agent_and_bounded() -> None:
    """The same value is read again for another agent, another value as itself, and only so many are kept."""
    from scrapy_robots_rep.core.page import directives as page_directives

    remembered = page_directives._x_robots_tag_directives
    remembered.cache_clear()
    value = "otherbot: noindex, mybot: nofollow"
    for _ in range(2):  # read, then looked up
        assert page(value).restricted == {Effect.NOFOLLOW}
        assert [d.text for d in page(value).ignored] == ["noindex"]
        assert page(value, agent="otherbot").restricted == {Effect.NOINDEX}
    assert page("noarchive").restricted == {Effect.NOARCHIVE}
    assert remembered.cache_info().hits == 4
    assert str(page(value).directives[0].source) == f"header X-Robots-Tag: {value}"
    for number in range(remembered.cache_info().maxsize + 10):
        assert page(f"max-snippet: {number}").max_snippet == number
    assert remembered.cache_info().currsize == remembered.cache_info().maxsize


def test_unknown_directives_are_kept() -> None:
    directives = page("noindex, notranslate, indexifembedded, frobnicate, max-video-preview: 3, foo-bar: x")
    assert [d.name for d in directives.unknown] == ["frobnicate"]
    assert [d.name for d in directives.directives] == [
        "noindex",
        "notranslate",
        "indexifembedded",
        "frobnicate",
        "max-video-preview",
    ]
    # ``foo-bar:`` is not a directive name: it starts a scope (another agent's).
    assert [d.name for d in directives.ignored] == ["x"]


def test_max_values_most_restrictive() -> None:
    directives = page(
        "max-snippet: 50",
        "max-snippet: -1, max-video-preview: -1",
        "max-image-preview: standard",
        "max-image-preview: none",
        "max-snippet: x",
    )
    assert directives.max_snippet == 50
    assert directives.max_video_preview == -1
    assert directives.max_image_preview == "none"
