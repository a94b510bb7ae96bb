"""The page-level settings: defaults, accepted forms and actionable errors."""

from __future__ import annotations

import pytest

from scrapy_robots_rep.page.middleware import PageSettings
from scrapy_robots_rep.policy.settings import SettingsError


def test_defaults() -> None:
    assert PageSettings.from_mapping({}) == PageSettings(enabled=True, noindex="drop", rel_nofollow=False, purposes=())


@pytest.mark.parametrize(
    ("value", "purposes"),
    [
        (["ai-train"], ("ai-train",)),
        ("search, AI-Input", ("search", "ai-input")),
        (("ai-train", "ai-train"), ("ai-train",)),
        ("", ()),
        ([], ()),
    ],
)
def test_purposes(value: object, purposes: tuple[str, ...]) -> None:
    assert PageSettings.from_mapping({"REP_PURPOSES": value}).purposes == purposes


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"REP_PURPOSES": ["training"]}, "REP_PURPOSES entries must be among 'search', 'ai-input', 'ai-train'"),
        ({"REP_PURPOSES": 3}, "REP_PURPOSES must be a list of purposes or a comma-separated string"),
        ({"REP_PAGE_NOINDEX": "delete"}, "REP_PAGE_NOINDEX must be one of 'drop', 'keep'"),
        ({"REP_PAGE_DIRECTIVES": "maybe"}, "REP_PAGE_DIRECTIVES must be True or False"),
        ({"REP_PAGE_REL_NOFOLLOW": 2}, "REP_PAGE_REL_NOFOLLOW must be True or False"),
    ],
)
def test_bad_values(settings: dict[str, object], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        PageSettings.from_mapping(settings)


def test_command_line_strings() -> None:
    settings = PageSettings.from_mapping({"REP_PAGE_DIRECTIVES": "false", "REP_PAGE_REL_NOFOLLOW": "1"})
    assert settings.enabled is False and settings.rel_nofollow is True
