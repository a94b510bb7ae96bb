"""RepSettings: defaults, derived defaults, and clear errors for bad values."""

from __future__ import annotations

import pytest

from scrapy_robots_rep.policy.settings import RepSettings, SettingsError, product_token


def test_defaults_follow_the_spec() -> None:
    settings = RepSettings.from_mapping({})
    assert settings.matching == "rfc9309"
    assert settings.status_policy == "rfc9309"
    assert settings.max_size == 512_000
    assert settings.max_redirects == 5
    assert settings.unreachable_max_age == 30 * 86400
    assert settings.defer_max_time == 600
    assert (settings.cache_ttl, settings.cache_ttl_min, settings.cache_ttl_max) == (86400, 60, 7 * 86400)
    assert settings.cache_max_origins == 100_000
    assert settings.cache_honor_headers and settings.crawl_delay and settings.enabled
    assert settings.crawl_delay_max == 60
    assert settings.cache_backend is None and settings.from_header is None


def test_agent_and_timeout_default_to_scrapy_settings() -> None:
    settings = RepSettings.from_mapping({"USER_AGENT": "mybot/1.0 (+https://example.com/bot)", "DOWNLOAD_TIMEOUT": 7})
    assert settings.user_agent == "mybot"
    assert settings.fetch_timeout == 7.0
    explicit = RepSettings.from_mapping(
        {"USER_AGENT": "mybot/1.0", "REP_USER_AGENT": "OtherBot", "REP_FETCH_TIMEOUT": "2.5"}
    )
    assert (explicit.user_agent, explicit.fetch_timeout) == ("OtherBot", 2.5)


@pytest.mark.parametrize(
    ("user_agent", "token"),
    [("mybot/1.0 (+https://x)", "mybot"), ("  Scrapy/2.19", "Scrapy"), ("plain", "plain"), ("", "")],
)
def test_product_token(user_agent: str, token: str) -> None:
    assert product_token(user_agent) == token


def test_string_values_from_the_command_line_are_converted() -> None:
    settings = RepSettings.from_mapping(
        {"REP_ENABLED": "false", "REP_CACHE_TTL": "120", "REP_MAX_SIZE": "1000", "REP_CRAWL_DELAY": "1"}
    )
    assert settings.enabled is False
    assert settings.cache_ttl == 120.0
    assert settings.max_size == 1000
    assert settings.crawl_delay is True


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("REP_MATCHING", "google", "REP_MATCHING must be one of 'rfc9309', 'legacy', got 'google'"),
        ("REP_STATUS_POLICY", "strict", "REP_STATUS_POLICY must be one of 'rfc9309', 'legacy'"),
        ("REP_CACHE_TTL", -1, "REP_CACHE_TTL must be at least 0, got -1"),
        ("REP_CACHE_TTL", "a day", "REP_CACHE_TTL must be a number of seconds, got 'a day'"),
        ("REP_FETCH_TIMEOUT", 0, "REP_FETCH_TIMEOUT must be greater than 0"),
        ("REP_MAX_SIZE", 0, "REP_MAX_SIZE must be at least 1"),
        ("REP_MAX_SIZE", 1.5, "REP_MAX_SIZE must be a whole number"),
        ("REP_MAX_REDIRECTS", "five", "REP_MAX_REDIRECTS must be a whole number, got 'five'"),
        ("REP_CACHE_MAX_ORIGINS", 0, "REP_CACHE_MAX_ORIGINS must be at least 1"),
        ("REP_CRAWL_DELAY_MAX", float("nan"), "REP_CRAWL_DELAY_MAX must be a finite number"),
        ("REP_DEFER_MAX_TIME", True, "REP_DEFER_MAX_TIME must be a number of seconds, got True"),
        ("REP_ENABLED", "maybe", "REP_ENABLED must be True or False, got 'maybe'"),
        ("REP_USER_AGENT", "  ", "REP_USER_AGENT must be a non-empty string"),
        ("REP_CACHE_BACKEND", 3, "REP_CACHE_BACKEND must be a string, got 3"),
    ],
)
def test_bad_values_name_the_setting_and_what_it_accepts(name: str, value: object, message: str) -> None:
    with pytest.raises(SettingsError, match=message.replace("(", r"\(").replace(")", r"\)")):
        RepSettings.from_mapping({name: value})


def test_ttl_clamps_must_be_ordered() -> None:
    with pytest.raises(SettingsError, match=r"REP_CACHE_TTL_MIN .* must not be greater than REP_CACHE_TTL_MAX"):
        RepSettings.from_mapping({"REP_CACHE_TTL_MIN": 100, "REP_CACHE_TTL_MAX": 10})
