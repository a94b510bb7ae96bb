"""The robots.txt fields are one table (``core/fields.py``): the parser, the scanner, the rule
readers and the lint take their spellings from it, and an extension field a caller declares is
read, kept per group or file-wide, and carried by the plain-data form like the table's own."""

from __future__ import annotations

import json

import pytest

from scrapy_robots_rep import ExtensionField as PublicExtensionField
from scrapy_robots_rep.core import MATCHING_MODES, AgentRules, ExtensionField, RobotsTxt
from scrapy_robots_rep.core.fields import FIELDS, MISSPELLINGS, RULE_FIELDS, VALUE_FIELDS, Field, Kept
from scrapy_robots_rep.core.lint import LintKind, lint
from scrapy_robots_rep.core.rule_index import plain_values, read_rules
from scrapy_robots_rep.policy.record_cache import CacheRecord
from scrapy_robots_rep.policy.status import Outcome

HOST = "https://a.com"
# Lower-casing "İ" lengthens it: such a text is read line by line, not scanned.
UNSCANNABLE = "# İ\n"


def test_every_misspelling_of_the_table_is_read_by_every_reader() -> None:
    for misspelling, name in MISSPELLINGS.items():
        written = misspelling.title()
        if name in RULE_FIELDS:
            line = f"{written}: /x"
            body = f"User-agent: *\n{line}\nAllow: /x/open\n"
            # The rule readers: lines that may be rules, and the plain form.
            assert [(allow, value) for allow, value, _ in read_rules(line, True)] == [(name == "allow", "/x")]
            assert plain_values(f"Disallow: /a\n{line}") is None
            for text in (body, UNSCANNABLE + body):
                rules = RobotsTxt.parse(text).for_agent("mybot")
                assert not rules.allowed(f"{HOST}/x/y") and rules.allowed(f"{HOST}/x/open"), (misspelling, text)
        elif name == "user-agent":
            body = f"{written}: mybot\nDisallow: /x\n\nUser-agent: *\nDisallow: /\n"
            for text in (body, UNSCANNABLE + body):
                rules = RobotsTxt.parse(text).for_agent("mybot")
                assert rules.group == ("mybot",) and rules.allowed(f"{HOST}/y"), (misspelling, text)
        else:
            body = f"User-agent: *\nDisallow: /x\n{written}: https://a.com/s.xml\n"
            for text in (body, UNSCANNABLE + body):
                assert getattr(RobotsTxt.parse(text), f"{name}s") == [f"{HOST}/s.xml"], (misspelling, text)
        warnings = lint(body)
        assert [warning.kind for warning in warnings if warning.kind is LintKind.MISSPELT_FIELD], misspelling


def test_a_row_must_hold_a_word_of_every_spelling() -> None:
    """The scanner finds a field's lines by its words: a misspelling without one would be missed."""
    with pytest.raises(ValueError, match="holds none of"):
        Field("disallow", "Disallow", Kept.RULE, words=("allow",), misspellings=("disalow",))
    assert Field("request-rate", "Request-rate", Kept.DELAY).words == ("request-rate",)
    for row in FIELDS.values():
        for spelling in (row.name, *row.misspellings):
            assert any(word in spelling for word in row.words), spelling


@pytest.mark.parametrize("matching", MATCHING_MODES)
@pytest.mark.parametrize("prefix", ["", UNSCANNABLE], ids=["scanned", "read line by line"])
def test_an_extension_field_is_kept_per_group_and_travels_as_plain_data(matching: str, prefix: str) -> None:
    body = (
        prefix + "User-agent: otherbot\nLLM-Policy: https://a.com/other.txt\nDisallow: /\n\n"
        "User-agent: mybot\nllm-policy: https://a.com/mine.txt\nDisallow: /private\n"
        "Crawl-delay: 2\nLLM-POLICY: https://a.com/more.txt\nAI-Terms: https://a.com/terms\n"
    )
    robots = RobotsTxt.parse(
        body, matching, extensions=[ExtensionField("LLM-Policy"), ExtensionField("ai-terms", per_group=False)]
    )
    rules = robots.for_agent("mybot")
    assert rules.extension("llm-policy") == ("https://a.com/mine.txt", "https://a.com/more.txt")
    assert rules.extension("LLM-Policy") == rules.extension("llm-policy")
    assert rules.extension("ai-terms") == ("https://a.com/terms",)
    assert rules.extension("undeclared") == ()
    # The field's own rows are read as before.
    assert (rules.crawl_delay, rules.allowed(f"{HOST}/private"), rules.allowed(f"{HOST}/x")) == (2.0, False, True)
    # Shared stores keep records as JSON: the values come back.
    copy = AgentRules.from_dict(json.loads(json.dumps(rules.to_dict())))
    assert (
        copy.extensions
        == rules.extensions
        == {
            "llm-policy": ("https://a.com/mine.txt", "https://a.com/more.txt"),
            "ai-terms": ("https://a.com/terms",),
        }
    )
    record = CacheRecord(rules=rules, outcome=Outcome.RULES, status=200, fetched_at=0.0, expires_at=1.0)
    assert CacheRecord.from_dict(json.loads(json.dumps(record.to_dict()))).rules.extension("ai-terms") == (
        "https://a.com/terms",
    )
    # An agent no group names gets the file-wide values only.
    assert robots.for_agent("thirdbot").extensions == {"llm-policy": (), "ai-terms": ("https://a.com/terms",)}


def test_without_extensions_the_plain_data_is_unchanged() -> None:
    rules = RobotsTxt.parse("User-agent: *\nLLM-Policy: https://a.com/p\nDisallow: /x\n").for_agent("mybot")
    assert rules.extension("llm-policy") == ()
    assert "extensions" not in rules.to_dict()
    assert AgentRules.from_dict(rules.to_dict()).rules() == rules.rules()


def test_extension_fields_stay_unknown_to_lint_and_are_ignored_by_matching() -> None:
    body = "User-agent: *\nLLM-Policy: https://a.com/p\nDisallow: /x\n"
    assert [(warning.line, warning.kind) for warning in lint(body)] == [(2, LintKind.UNKNOWN_FIELD)]
    rules = RobotsTxt.parse(body, extensions=["llm-policy"]).for_agent("mybot")
    assert [rule.line for rule in rules.rules()] == [3]


@pytest.mark.parametrize(
    "name", ["", "allow", "Disallow-AI", "user agent", "sitemap-index", "a:b", "a#b", " padded", "two words"]
)
def test_an_extension_must_be_a_field_name_the_parser_does_not_read(name: str) -> None:
    with pytest.raises(ValueError, match="extension field"):
        RobotsTxt.parse("", extensions=[name])


def test_extension_field_is_public() -> None:
    assert PublicExtensionField is ExtensionField
    with pytest.raises(ValueError, match="'extensions' must map"):
        AgentRules.from_dict({**AgentRules.allow_all("404").to_dict(), "extensions": {"LLM": ["x"]}})


@pytest.mark.parametrize("prefix", ["", UNSCANNABLE], ids=["scanned", "read line by line"])
def test_a_field_kept_as_values_needs_its_row_only(prefix: str) -> None:
    """What a new row of ``FIELDS`` kept as values gets, with no other module edited: the parser,
    grouping, the scanner and the plain-data form read it (here the row is handed to ``RobotsTxt``
    as ``parse`` hands the table's own ``VALUE_FIELDS``)."""
    row = Field("content-policy", "Content-Policy", Kept.VALUES)
    body = prefix + "User-agent: *\nContent-Policy: https://a.com/policy\nDisallow: /x\n"
    rules = RobotsTxt(MATCHING_MODES["rfc9309"], body, (*VALUE_FIELDS, row)).for_agent("mybot")
    assert rules.extension("content-policy") == ("https://a.com/policy",)
    assert AgentRules.from_dict(rules.to_dict()).extension("content-policy") == ("https://a.com/policy",)
    assert not rules.allowed(f"{HOST}/x")
