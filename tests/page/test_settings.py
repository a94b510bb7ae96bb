"""The page-level settings: defaults, accepted forms and actionable errors."""

from __future__ import annotations

import pytest

from scrapy_robots_rep.policy.settings import RepSettings, SettingsError


def test_defaults() -> None:
    settings = RepSettings.from_mapping({})
    assert (settings.page_directives, settings.page_noindex, settings.page_rel_nofollow, settings.purposes) == (
        True,
        "drop",
        False,
        (),
    )


@pytest.mark.parametrize(
    ("value", "purposes"),
    [
        (["ai-train"], ("ai-train",)),
        ("search, AI-Input", ("search", "ai-input")),
        (("ai-train", "ai-train"), ("ai-train",)),
        # AIPREF's names are the same purposes, kept by their Content-Signal names.
        (["train-ai", "ai-use", "search"], ("ai-train", "ai-input", "search")),
        ("Train-AI, ai-train", ("ai-train",)),
        ("", ()),
        ([], ()),
    ],
)
def test_purposes(value: object, purposes: tuple[str, ...]) -> None:
    assert RepSettings.from_mapping({"REP_PURPOSES": value}).purposes == purposes


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (
            {"REP_PURPOSES": ["training"]},
            "REP_PURPOSES entries must be among 'search', 'ai-input', 'ai-train', 'train-ai', 'ai-use'",
        ),
        ({"REP_PURPOSES": 3}, "REP_PURPOSES must be a list of purposes or a comma-separated string"),
        ({"REP_PAGE_NOINDEX": "delete"}, "REP_PAGE_NOINDEX must be one of 'drop', 'keep'"),
        ({"REP_PAGE_DIRECTIVES": "maybe"}, "REP_PAGE_DIRECTIVES must be True or False"),
        ({"REP_PAGE_REL_NOFOLLOW": 2}, "REP_PAGE_REL_NOFOLLOW must be True or False"),
    ],
)
def test_bad_values(settings: dict[str, object], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        RepSettings.from_mapping(settings)


def test_command_line_strings() -> None:
    settings = RepSettings.from_mapping({"REP_PAGE_DIRECTIVES": "false", "REP_PAGE_REL_NOFOLLOW": "1"})
    assert settings.page_directives is False and settings.page_rel_nofollow is True
