"""The one table of settings: every field of RepSettings comes from it, and the docs show exactly it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scrapy_robots_rep.policy.settings import SETTINGS, RepSettings, configured_source

BEHAVIOUR = Path(__file__).resolve().parents[2] / "docs" / "behaviour.md"


def test_every_field_of_the_settings_object_is_one_row_of_the_table() -> None:
    values = [name for name in RepSettings._fields if name != "sources"]
    assert values == [setting.field for setting in SETTINGS]
    assert len({setting.name for setting in SETTINGS}) == len(SETTINGS)


def test_defaults_are_the_table_defaults() -> None:
    settings = RepSettings.from_mapping({})
    for setting in SETTINGS:
        assert getattr(settings, setting.field) == setting.default, setting.name


@pytest.mark.parametrize(
    ("configured", "field", "source"),
    [
        ({}, "user_agent", None),
        ({"USER_AGENT": "mybot/1.0"}, "user_agent", "USER_AGENT"),
        ({"USER_AGENT": "mybot/1.0", "ROBOTSTXT_USER_AGENT": " "}, "user_agent", "USER_AGENT"),
        ({"USER_AGENT": "mybot/1.0", "ROBOTSTXT_USER_AGENT": "robots"}, "user_agent", "ROBOTSTXT_USER_AGENT"),
        ({"ROBOTSTXT_USER_AGENT": "robots", "REP_USER_AGENT": "rep"}, "user_agent", "REP_USER_AGENT"),
        ({"REDIS_URL": "redis://queue/0"}, "redis_url", "REDIS_URL"),
        ({"REDIS_URL": "redis://queue/0", "REP_REDIS_URL": ""}, "redis_url", "REDIS_URL"),
        ({"REDIS_URL": "redis://queue/0", "REP_REDIS_URL": "redis://cache/1"}, "redis_url", "REP_REDIS_URL"),
        ({"REP_CACHE_TTL": "60"}, "cache_ttl", "REP_CACHE_TTL"),
        ({"REP_CACHE_TTL": None}, "cache_ttl", None),
    ],
)
def test_each_value_records_the_setting_it_came_from(
    configured: dict[str, object], field: str, source: str | None
) -> None:
    settings = RepSettings.from_mapping(configured)
    assert settings.source(field) == source
    assert configured_source(configured, field) == source


def test_the_behaviour_document_lists_exactly_the_table() -> None:
    text = BEHAVIOUR.read_text(encoding="utf-8")
    section = text.split("## Settings at a glance", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if re.match(r"\| `REP_", line)]
    expected = [
        f"| `{setting.name}` | {setting.shown_default} | {setting.doc} | {setting.section} |" for setting in SETTINGS
    ]
    assert rows == expected
