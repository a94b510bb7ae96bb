"""Origin normalisation: scheme + lower-cased host (punycode) + port, default port folded."""

from __future__ import annotations

import pytest

from scrapy_robots_rep.policy.origin import origin_of, robots_url


@pytest.mark.parametrize(
    ("url", "origin"),
    [
        ("http://h/x", "http://h"),
        ("http://h:80/x", "http://h"),
        ("https://h/x", "https://h"),
        ("https://h:443/", "https://h"),
        ("http://h:8080/x", "http://h:8080"),
        ("https://h:80/x", "https://h:80"),
        ("HTTP://Example.COM/Path", "http://example.com"),
        ("http://user:pw@example.com:81/", "http://example.com:81"),
        ("http://bücher.example/x", "http://xn--bcher-kva.example"),
        ("http://example.com./", "http://example.com"),
        ("http://[::1]:8000/x", "http://[::1]:8000"),
        ("http://[::1]/x", "http://[::1]"),
        ("http://example.com", "http://example.com"),
    ],
)
def test_origin_of(url: str, origin: str) -> None:
    assert origin_of(url) == origin


def test_three_origins_and_one_folded() -> None:
    origins = {origin_of(url) for url in ("http://h/", "https://h/", "http://h:8080/", "http://h:80/a")}
    assert origins == {"http://h", "https://h", "http://h:8080"}


@pytest.mark.parametrize(
    "url", ["data:text/plain,hi", "file:///etc/passwd", "ftp://h/x", "http:///nohost", "http://h:99999/", "http://h:x/"]
)
def test_no_origin_for_other_schemes_and_broken_urls(url: str) -> None:
    assert origin_of(url) is None


def test_robots_url() -> None:
    assert robots_url("http://h:8080") == "http://h:8080/robots.txt"
