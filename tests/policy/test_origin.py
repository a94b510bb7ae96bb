"""Origin normalisation (scheme + lower-cased host (punycode) + port, default port folded) and exempt hosts."""

from __future__ import annotations

import pytest

from scrapy_robots_rep.policy.origin import is_exempt, origin_of, robots_url


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


DOMAINS = ("example.com", "xn--bcher-kva.example")


@pytest.mark.parametrize(
    ("host", "exempt"),
    [
        ("example.com", True),
        ("api.example.com", True),
        ("a.b.example.com", True),
        ("API.Example.COM.", True),
        ("bücher.example", True),
        ("shop.xn--bcher-kva.example", True),
        ("notexample.com", False),
        ("example.com.evil.test", False),
        ("example.org", False),
        ("com", False),
        ("", False),
    ],
)
def test_exempt_hosts_are_the_domains_and_their_subdomains(host: str, exempt: bool) -> None:
    assert is_exempt(host, DOMAINS) is exempt


def test_nothing_is_exempt_by_default() -> None:
    assert not is_exempt("example.com", ())
