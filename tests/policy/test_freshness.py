"""HTTP freshness lifetimes, validators and Retry-After (docs/behaviour.md §5 and §6)."""

from __future__ import annotations

from email.utils import formatdate

import pytest

from scrapy_robots_rep.policy.freshness import (
    Freshness,
    LifetimeSource,
    Validators,
    freshness,
    http_date,
    retry_after,
    validators_from,
)

NOW = 784_111_777.0  # Sun, 06 Nov 1994 08:49:37 GMT
TTL, TTL_MIN, TTL_MAX = 86_400.0, 60.0, 604_800.0


def date(offset: float) -> str:
    """The IMF-fixdate ``offset`` seconds from NOW."""
    return formatdate(NOW + offset, usegmt=True)


def lifetime(headers: dict[str, str], honor_headers: bool = True) -> Freshness:
    return freshness(headers, NOW, ttl=TTL, honor_headers=honor_headers, ttl_min=TTL_MIN, ttl_max=TTL_MAX)


@pytest.mark.parametrize(
    ("headers", "expected", "source"),
    [
        ({}, TTL, LifetimeSource.DEFAULT),
        ({"cache-control": "public"}, TTL, LifetimeSource.DEFAULT),
        ({"cache-control": "max-age=3600"}, 3600.0, LifetimeSource.MAX_AGE),
        ({"cache-control": "public, max-age=120, must-revalidate"}, 120.0, LifetimeSource.MAX_AGE),
        ({"cache-control": 'MAX-AGE="300"'}, 300.0, LifetimeSource.MAX_AGE),
        ({"cache-control": "max-age = 300"}, 300.0, LifetimeSource.MAX_AGE),
        ({"cache-control": "max-age=3600", "age": "600"}, 3000.0, LifetimeSource.MAX_AGE),
        ({"cache-control": "max-age=3600", "age": "3590"}, TTL_MIN, LifetimeSource.MAX_AGE),
        ({"cache-control": "max-age=3600", "age": "99999"}, TTL_MIN, LifetimeSource.MAX_AGE),
        ({"cache-control": "max-age=5"}, TTL_MIN, LifetimeSource.MAX_AGE),
        ({"cache-control": "max-age=0"}, TTL_MIN, LifetimeSource.MAX_AGE),
        ({"cache-control": "max-age=99999999"}, TTL_MAX, LifetimeSource.MAX_AGE),
        ({"cache-control": "max-age=" + "9" * 5000}, TTL_MAX, LifetimeSource.MAX_AGE),
        ({"cache-control": "s-maxage=10"}, TTL, LifetimeSource.DEFAULT),
        ({"cache-control": "max-age=100, max-age=200"}, 100.0, LifetimeSource.MAX_AGE),
        ({"cache-control": "no-store"}, TTL_MIN, LifetimeSource.NO_CACHE),
        ({"cache-control": "no-cache"}, TTL_MIN, LifetimeSource.NO_CACHE),
        ({"cache-control": "max-age=3600, No-Cache"}, TTL_MIN, LifetimeSource.NO_CACHE),
        ({"cache-control": 'no-cache="Set-Cookie", max-age=3600'}, 3600.0, LifetimeSource.MAX_AGE),
        ({"cache-control": 'private="x, max-age=5", max-age=700'}, 700.0, LifetimeSource.MAX_AGE),
        ({"expires": date(7200), "date": date(0)}, 7200.0, LifetimeSource.EXPIRES),
        ({"expires": date(7200), "date": date(-1800)}, 9000.0, LifetimeSource.EXPIRES),
        ({"expires": date(7200)}, 7200.0, LifetimeSource.EXPIRES),
        ({"expires": date(-10)}, TTL_MIN, LifetimeSource.EXPIRES),
        ({"expires": date(10)}, TTL_MIN, LifetimeSource.EXPIRES),
        ({"expires": date(10**8)}, TTL_MAX, LifetimeSource.EXPIRES),
        ({"expires": date(7200), "cache-control": "max-age=600"}, 600.0, LifetimeSource.MAX_AGE),
        ({"expires": date(7200), "cache-control": "no-store"}, TTL_MIN, LifetimeSource.NO_CACHE),
        ({"expires": "Sunday, 06-Nov-94 10:49:37 GMT"}, 7200.0, LifetimeSource.EXPIRES),
        ({"expires": "Sun Nov  6 10:49:37 1994"}, 7200.0, LifetimeSource.EXPIRES),
    ],
)
def test_lifetime_from_headers(headers: dict[str, str], expected: float, source: LifetimeSource) -> None:
    assert lifetime(headers) == Freshness(expected, source)


@pytest.mark.parametrize(
    ("headers", "expected", "source"),
    [
        ({"cache-control": "max-age=abc"}, TTL, LifetimeSource.DEFAULT),
        ({"cache-control": "max-age=-5"}, TTL, LifetimeSource.DEFAULT),
        ({"cache-control": "max-age=1.5"}, TTL, LifetimeSource.DEFAULT),
        ({"cache-control": "max-age"}, TTL, LifetimeSource.DEFAULT),
        ({"cache-control": "max-age=١٢٣"}, TTL, LifetimeSource.DEFAULT),
        ({"cache-control": "max-age=abc", "expires": date(7200)}, 7200.0, LifetimeSource.EXPIRES),
        ({"cache-control": ",,;=, ==\x00"}, TTL, LifetimeSource.DEFAULT),
        ({"cache-control": "max-age=3600", "age": "soon"}, 3600.0, LifetimeSource.MAX_AGE),
        ({"cache-control": "max-age=3600", "age": "-100"}, 3600.0, LifetimeSource.MAX_AGE),
        ({"cache-control": "max-age=3600", "age": "100, 200"}, 3500.0, LifetimeSource.MAX_AGE),
        ({"expires": "0"}, TTL, LifetimeSource.DEFAULT),
        ({"expires": "-1"}, TTL, LifetimeSource.DEFAULT),
        ({"expires": "tomorrow"}, TTL, LifetimeSource.DEFAULT),
        ({"expires": "Sun, 31 Feb 1994 08:49:37 GMT"}, TTL, LifetimeSource.DEFAULT),
        ({"expires": "Sun, 06 Nov 99999 08:49:37 GMT"}, TTL, LifetimeSource.DEFAULT),
        ({"expires": date(7200), "date": "yesterday"}, 7200.0, LifetimeSource.EXPIRES),
    ],
)
def test_malformed_headers_are_ignored(headers: dict[str, str], expected: float, source: LifetimeSource) -> None:
    assert lifetime(headers) == Freshness(expected, source)


def test_headers_are_not_read_when_not_honoured() -> None:
    headers = {"cache-control": "no-store, max-age=3600", "expires": date(-100)}
    assert lifetime(headers, honor_headers=False) == Freshness(TTL, LifetimeSource.DEFAULT)


def test_the_default_ttl_is_the_operators_choice_and_not_clamped() -> None:
    result = freshness({}, NOW, ttl=5.0, honor_headers=True, ttl_min=60.0, ttl_max=600.0)
    assert result == Freshness(5.0, LifetimeSource.DEFAULT)


def test_clamps_are_inclusive() -> None:
    result = freshness({"cache-control": "max-age=60"}, NOW, ttl=TTL, honor_headers=True, ttl_min=60, ttl_max=60)
    assert result == Freshness(60.0, LifetimeSource.MAX_AGE)
    assert isinstance(result.lifetime, float)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("Sun, 06 Nov 1994 08:49:37 GMT", NOW),
        ("Sunday, 06-Nov-94 08:49:37 GMT", NOW),
        ("Sun Nov  6 08:49:37 1994", NOW),
        ("  Sun, 06 Nov 1994 08:49:37 GMT  ", NOW),
        ("Sun, 06 Nov 1994 09:49:37 +0100", NOW),
        ("Sun, 06 Nov 1994 08:49:37 -0000", NOW),
        ("Sun, 06 Nov 1994 25:49:37 GMT", None),
        ("", None),
        (None, None),
        ("Sun, 06 Nov 1994", None),
    ],
)
def test_http_dates(value: str | None, expected: float | None) -> None:
    assert http_date(value) == expected


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"etag": '"v1"'}, Validators(etag='"v1"')),
        ({"etag": 'W/"v1"'}, Validators(etag='W/"v1"')),
        ({"last-modified": date(-3600)}, Validators(last_modified=date(-3600))),
        ({"etag": ' "v1" ', "last-modified": date(-3600)}, Validators('"v1"', date(-3600))),
        ({}, None),
        ({"etag": ""}, None),
        ({"etag": "  "}, None),
        ({"etag": '"a\x00b"'}, None),
        ({"etag": '"' + "x" * 5000 + '"'}, None),
        ({"last-modified": "last tuesday"}, None),
        ({"etag": '"v1"', "last-modified": "last tuesday"}, Validators(etag='"v1"')),
    ],
)
def test_validators_from_headers(headers: dict[str, str], expected: Validators | None) -> None:
    assert validators_from(headers) == expected


def test_validators_make_the_conditional_request_headers() -> None:
    both = Validators(etag='"v1"', last_modified="Sun, 06 Nov 1994 08:49:37 GMT")
    assert both.request_headers() == {
        "If-None-Match": '"v1"',
        "If-Modified-Since": "Sun, 06 Nov 1994 08:49:37 GMT",
    }
    assert Validators(etag='W/"v1"').request_headers() == {"If-None-Match": 'W/"v1"'}
    assert Validators(last_modified="x").request_headers() == {"If-Modified-Since": "x"}


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("120", 120.0),
        (" 0 ", 0.0),
        ("9" * 5000, float(2**31)),
        (date(30), 30.0),
        (date(-30), 0.0),
        ("Sunday, 06-Nov-94 08:50:37 GMT", 60.0),
        ("-5", None),
        ("1.5", None),
        ("soon", None),
        ("", None),
    ],
)
def test_retry_after(value: str, expected: float | None) -> None:
    assert retry_after({"retry-after": value}, NOW) == expected


def test_no_retry_after() -> None:
    assert retry_after({}, NOW) is None
