"""RepSettings: defaults, the agent chain, exempt domains, and clear errors for bad values."""

from __future__ import annotations

from pathlib import Path

import pytest

from scrapy_robots_rep.policy.settings import RepSettings, SettingsError, SettingsReader


def test_defaults_follow_the_behaviour_document() -> None:
    settings = RepSettings.from_mapping({})
    assert settings.matching == "rfc9309"
    assert settings.status_policy == "rfc9309"
    assert settings.user_agent == "Scrapy"
    assert settings.max_size == 512_000
    assert settings.max_redirects == 5
    assert settings.fetch_timeout == 30
    assert settings.unreachable_max_age == 30 * 86400
    assert settings.defer_max_time == 600
    assert (settings.cache_ttl, settings.cache_ttl_min, settings.cache_ttl_max) == (86400, 60, 7 * 86400)
    assert settings.cache_max_origins == 100_000
    assert settings.cache_honor_headers and settings.crawl_delay and settings.enabled
    assert settings.crawl_delay_max == 60
    assert settings.cache_backend is None and settings.from_header is None
    assert settings.exempt_domains == () and settings.report is None


def test_the_fetch_timeout_no_longer_follows_download_timeout() -> None:
    assert RepSettings.from_mapping({"DOWNLOAD_TIMEOUT": 180}).fetch_timeout == 30
    assert RepSettings.from_mapping({"DOWNLOAD_TIMEOUT": 180, "REP_FETCH_TIMEOUT": "2.5"}).fetch_timeout == 2.5


@pytest.mark.parametrize(
    ("configured", "agent"),
    [
        ({"USER_AGENT": "mybot/1.0 (+https://example.com/bot)"}, "mybot/1.0 (+https://example.com/bot)"),
        ({"USER_AGENT": "mybot/1.0", "ROBOTSTXT_USER_AGENT": "RobotsBot"}, "RobotsBot"),
        ({"USER_AGENT": "mybot/1.0", "ROBOTSTXT_USER_AGENT": "RobotsBot", "REP_USER_AGENT": "RepBot/2"}, "RepBot/2"),
        ({"USER_AGENT": "mybot/1.0", "ROBOTSTXT_USER_AGENT": None}, "mybot/1.0"),
        ({"USER_AGENT": "mybot/1.0", "ROBOTSTXT_USER_AGENT": ""}, "mybot/1.0"),
        ({"USER_AGENT": "  spaced  "}, "spaced"),
        ({"USER_AGENT": ""}, "Scrapy"),
        ({"REP_USER_AGENT": None, "USER_AGENT": None}, "Scrapy"),
    ],
)
def test_the_agent_chain_keeps_the_configured_string(configured: dict[str, object], agent: str) -> None:
    assert RepSettings.from_mapping(configured).user_agent == agent


@pytest.mark.parametrize(
    ("configured", "keeps"),
    [
        ({}, False),
        ({"REP_AUDIT_DIR": "audit"}, True),
        ({"REP_PROVENANCE_FIELD": "robots"}, True),
        ({"REP_AUDIT_COMPRESS": True}, False),
    ],
)
def test_evidence_is_kept_with_an_audit_directory_or_a_provenance_field(
    configured: dict[str, object], keeps: bool
) -> None:
    assert RepSettings.from_mapping(configured).keeps_evidence is keeps


def test_string_values_from_the_command_line_are_converted() -> None:
    settings = RepSettings.from_mapping(
        {"REP_ENABLED": "false", "REP_CACHE_TTL": "120", "REP_MAX_SIZE": "1000", "REP_CRAWL_DELAY": "1"}
    )
    assert settings.enabled is False
    assert settings.cache_ttl == 120.0
    assert settings.max_size == 1000
    assert settings.crawl_delay is True


def test_never_deferring_is_a_valid_choice() -> None:
    assert RepSettings.from_mapping({"REP_DEFER_MAX_TIME": 0}).defer_max_time == 0


def test_both_registries_give_the_allowed_names() -> None:
    settings = RepSettings.from_mapping({"REP_MATCHING": "legacy", "REP_STATUS_POLICY": "legacy"})
    assert (settings.matching, settings.status_policy) == ("legacy", "legacy")


@pytest.mark.parametrize(
    ("value", "domains"),
    [
        (["api.example.com", "Internal.Example.ORG."], ("api.example.com", "internal.example.org")),
        (("a.example",), ("a.example",)),
        ("a.example, b.example,,", ("a.example", "b.example")),
        ("", ()),
        ([], ()),
        ([".example.com", "example.com"], ("example.com",)),
        (["bücher.example"], ("xn--bcher-kva.example",)),
        (["10.0.0.1", "my_host"], ("10.0.0.1", "my_host")),
    ],
)
def test_exempt_domains_are_normalised(value: object, domains: tuple[str, ...]) -> None:
    assert RepSettings.from_mapping({"REP_EXEMPT_DOMAINS": value}).exempt_domains == domains


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("https://api.example.com/", "REP_EXEMPT_DOMAINS lists domain names, not URLs: got 'https://api.example.com/'"),
        (["*.example.com"], "REP_EXEMPT_DOMAINS lists domain names .*got '\\*.example.com'"),
        (["example.com:8080"], "REP_EXEMPT_DOMAINS lists domain names .*no port"),
        (["a b"], "REP_EXEMPT_DOMAINS lists domain names"),
        ([""], "REP_EXEMPT_DOMAINS must list domain names such as 'api.example.com', got ''"),
        ([3], "REP_EXEMPT_DOMAINS must list domain names such as 'api.example.com', got 3"),
        ({"a.example": True}, "REP_EXEMPT_DOMAINS must be a list of domain names or a comma-separated string"),
    ],
)
def test_bad_exempt_domains_say_what_to_write(value: object, message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        RepSettings.from_mapping({"REP_EXEMPT_DOMAINS": value})


def test_report_path() -> None:
    assert RepSettings.from_mapping({"REP_REPORT": "out/report.json"}).report == "out/report.json"
    assert RepSettings.from_mapping({"REP_REPORT": Path("out/report.json")}).report == "out/report.json"
    assert RepSettings.from_mapping({"REP_REPORT": ""}).report is None
    with pytest.raises(SettingsError, match="REP_REPORT must be a file path, got 5"):
        RepSettings.from_mapping({"REP_REPORT": 5})


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("REP_MATCHING", "google", "REP_MATCHING must be one of 'rfc9309', 'legacy', got 'google'"),
        ("REP_STATUS_POLICY", "strict", "REP_STATUS_POLICY must be one of 'rfc9309', 'legacy', got 'strict'"),
        ("REP_CACHE_TTL", -1, "REP_CACHE_TTL must be at least 0, got -1"),
        ("REP_CACHE_TTL", "a day", "REP_CACHE_TTL must be a number of seconds, got 'a day'"),
        ("REP_FETCH_TIMEOUT", 0, "REP_FETCH_TIMEOUT must be greater than 0"),
        ("REP_MAX_SIZE", 0, "REP_MAX_SIZE must be at least 1"),
        ("REP_MAX_SIZE", 1.5, "REP_MAX_SIZE must be a whole number"),
        ("REP_MAX_SIZE", float("inf"), "REP_MAX_SIZE must be a whole number, got inf"),
        ("REP_MAX_REDIRECTS", "five", "REP_MAX_REDIRECTS must be a whole number, got 'five'"),
        ("REP_CACHE_MAX_ORIGINS", 0, "REP_CACHE_MAX_ORIGINS must be at least 1"),
        ("REP_CRAWL_DELAY_MAX", float("nan"), "REP_CRAWL_DELAY_MAX must be a finite number"),
        ("REP_DEFER_MAX_TIME", True, "REP_DEFER_MAX_TIME must be a number of seconds, got True"),
        ("REP_DEFER_MAX_TIME", -1, "REP_DEFER_MAX_TIME must be at least 0, got -1"),
        ("REP_ENABLED", "maybe", "REP_ENABLED must be True or False, got 'maybe'"),
        ("REP_USER_AGENT", "  ", "REP_USER_AGENT must be a non-empty string"),
        ("REP_USER_AGENT", 7, "REP_USER_AGENT must be a non-empty string, got 7"),
        ("ROBOTSTXT_USER_AGENT", 7, "ROBOTSTXT_USER_AGENT must be a string, got 7"),
        ("REP_CACHE_BACKEND", 3, "REP_CACHE_BACKEND must be a string, got 3"),
    ],
)
def test_bad_values_name_the_setting_and_what_it_accepts(name: str, value: object, message: str) -> None:
    with pytest.raises(SettingsError, match=message.replace("(", r"\(").replace(")", r"\)")):
        RepSettings.from_mapping({name: value})


def test_ttl_clamps_must_be_ordered() -> None:
    with pytest.raises(SettingsError, match=r"REP_CACHE_TTL_MIN .* must not be greater than REP_CACHE_TTL_MAX"):
        RepSettings.from_mapping({"REP_CACHE_TTL_MIN": 100, "REP_CACHE_TTL_MAX": 10})


def test_other_components_read_their_own_settings_with_the_reader() -> None:
    reader = SettingsReader({"MY_TIMEOUT": "2", "MY_NAME": " x ", "MY_FLAG": "on", "MY_HOSTS": "A.example"})
    assert reader.number("MY_TIMEOUT", 1.0, minimum=0, above=True) == 2.0
    assert reader.number("MY_MISSING", 1.0, minimum=0) == 1.0
    assert reader.text("MY_NAME", "default") == "x"
    assert reader.boolean("MY_FLAG", False) is True
    assert reader.domains("MY_HOSTS") == ("a.example",)
    assert reader.choice("MY_MODE", "a", ["a", "b"]) == "a"
    assert reader.raw("MY_NAME") == " x "
    with pytest.raises(SettingsError, match="MY_TIMEOUT must be greater than 5, got '2'"):
        reader.number("MY_TIMEOUT", 1.0, minimum=5, above=True)


def test_extension_fields_are_names_or_extension_field_objects() -> None:
    from scrapy_robots_rep import ExtensionField

    assert RepSettings.from_mapping({}).extension_fields == ()
    fields = RepSettings.from_mapping({"REP_EXTENSION_FIELDS": "llm-policy, AI-Terms"}).extension_fields
    assert fields == (ExtensionField("llm-policy"), ExtensionField("AI-Terms"))
    file_wide = ExtensionField("llm-policy", per_group=False)
    assert RepSettings.from_mapping({"REP_EXTENSION_FIELDS": [file_wide]}).extension_fields == (file_wide,)
    with pytest.raises(SettingsError, match="REP_EXTENSION_FIELDS: extension field 'disallow-ai' is read as"):
        RepSettings.from_mapping({"REP_EXTENSION_FIELDS": ["disallow-ai"]})
    with pytest.raises(SettingsError, match="REP_EXTENSION_FIELDS must be a list of field names"):
        RepSettings.from_mapping({"REP_EXTENSION_FIELDS": 3})
