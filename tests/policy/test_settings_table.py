"""The one table of settings: every field of RepSettings comes from it, and the docs show exactly it."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

from scrapy_robots_rep.policy.settings import SETTINGS, RepSettings

BEHAVIOUR = Path(__file__).resolve().parents[2] / "docs" / "behaviour.md"


def test_every_field_of_the_settings_object_is_one_row_of_the_table() -> None:
    assert [field.name for field in fields(RepSettings)] == [setting.field for setting in SETTINGS]
    assert len({setting.name for setting in SETTINGS}) == len(SETTINGS)


def test_defaults_are_the_table_defaults() -> None:
    settings = RepSettings.from_mapping({})
    for setting in SETTINGS:
        assert getattr(settings, setting.field) == setting.default, setting.name


def test_the_behaviour_document_lists_exactly_the_table() -> None:
    text = BEHAVIOUR.read_text(encoding="utf-8")
    section = text.split("## Settings at a glance", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if re.match(r"\| `REP_", line)]
    expected = [
        f"| `{setting.name}` | {setting.shown_default} | {setting.doc} | {setting.section} |" for setting in SETTINGS
    ]
    assert rows == expected
