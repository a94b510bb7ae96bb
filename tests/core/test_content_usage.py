"""IETF AIPREF ``Content-Usage`` rules in robots.txt and RSL ``License:`` lines (docs/page-directives.md)."""

from __future__ import annotations

import pytest

from scrapy_robots_rep import AgentRules, RobotsTxt
from scrapy_robots_rep.core.content_usage import read_usage_value
from scrapy_robots_rep.core.lint import LintKind, lint
from scrapy_robots_rep.core.purposes import PURPOSE_NAMES, PURPOSES, VOCABULARY, purpose_name
from scrapy_robots_rep.core.usage_preferences import combine, read_header, read_statement

# draft-ietf-aipref-attach, "Example robots.txt file".
DRAFT_EXAMPLE = """\
User-Agent: *
Allow: /
Disallow: /never/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y

User-Agent: ExampleBot
Allow: /
Content-Usage: train-ai=y
"""

MODES = ("rfc9309", "legacy")


class TestVocabulary:
    def test_one_table_names_each_label_and_its_purpose(self) -> None:
        assert dict(VOCABULARY) == {"train-ai": "ai-train", "ai-use": "ai-input", "search": "search"}
        assert set(VOCABULARY.values()) == set(PURPOSES)

    @pytest.mark.parametrize(
        ("name", "purpose"),
        [
            ("ai-train", "ai-train"),
            ("train-ai", "ai-train"),
            ("ai-input", "ai-input"),
            ("ai-use", "ai-input"),
            ("search", "search"),
            (" Train-AI ", "ai-train"),
            ("bots", None),
        ],
    )
    def test_both_vocabularies_name_one_purpose(self, name: str, purpose: str | None) -> None:
        assert purpose_name(name) == purpose
        assert (purpose is not None) == (name.strip().lower() in PURPOSE_NAMES)


class TestStatement:
    @pytest.mark.parametrize(
        ("text", "preferences"),
        [
            ("train-ai=n", {"ai-train": False}),
            # draft-ietf-aipref-vocab §6: allow training, disallow search.
            ("train-ai=y, search=n", {"ai-train": True, "search": False}),
            ("ai-use=n", {"ai-input": False}),
            ('train-ai=maybe, search=N, ai-use="n"', {}),
            ("train-ai", {}),
            ("", {}),
            # §6.5.1: a repeated key keeps its last value; neither last value is a token.
            ('train-ai=y, train-ai, search=n, search="n"', {}),
            ("train-ai=n, train-ai=y", {"ai-train": True}),
            # §6.5.2: parameters are ignored, only the last member's count.
            ("train-ai;allow=n, train-ai=y", {"ai-train": True}),
            (" train-ai=n ,\tsearch=y ", {"ai-train": False, "search": True}),
        ],
    )
    def test_preferences(self, text: str, preferences: dict[str, bool]) -> None:
        statement = read_statement(text)
        assert statement.valid
        assert dict(statement.preferences) == preferences

    @pytest.mark.parametrize(
        "text",
        [
            "Train-ai=n",  # §6.5.1: an upper-case key does not parse
            "train-ai=n,",
            "train-ai=n search=y",
            'train-ai;has;parameters="?";',  # §6.5.2's example, read strictly: a trailing ";"
            "train-ai=n, SEARCH=y",
            "train-ai=é",
        ],
    )
    def test_a_statement_that_does_not_parse_makes_every_category_unknown(self, text: str) -> None:
        statement = read_statement(text)
        assert statement.valid is False
        assert dict(statement.preferences) == {} and dict(statement.values) == {}
        assert "does not parse" in statement.describe()

    def test_unknown_keys_are_kept_and_exposed(self) -> None:
        statement = read_statement("train-ai=n, bots=y, foo=(1 2);p=1, ai-use=?0")
        assert dict(statement.values) == {"train-ai": "n", "bots": "y", "foo": "(1 2)", "ai-use": "?0"}
        assert statement.unknown_keys == ("bots", "foo")
        assert dict(statement.preferences) == {"ai-train": False}
        assert statement.describe() == (
            "train-ai=n (ai-train refused), bots=y (unknown label, kept), "
            "foo=(1 2) (unknown label, kept), ai-use=?0 (unknown)"
        )

    @pytest.mark.parametrize(
        "text",
        [
            "train-ai=n, search=y",
            "Train-ai=n",
            'train-ai=y, train-ai, search=n, search="n"',
            "train-ai;allow=n, train-ai=y",
            'train-ai;has;parameters="?";',
            'a=(1 2);x, b=?0, c=:aGk=:, d=@12, e=%"h%c3%a9", f=1.5, g=-3, foo=bar, ai-use=maybe',
            "a=1234567890123456",
            "a=(1 2",
            'a="unterminated',
            "train-ai=n,",
            "train-ai=n n",
            "*=y, x*.y_z-1=n",
            "",
        ],
    )
    def test_the_small_reader_agrees_with_http_sf(self, text: str) -> None:
        """The robots.txt reader and the header's RFC 9651 parser read a statement alike."""
        mine, theirs = read_statement(text), read_header(text)
        assert (mine.valid, dict(mine.values)) == (theirs.valid, dict(theirs.values))

    def test_combining_any_no_wins_and_unknown_stays_absent(self) -> None:
        assert combine([{"ai-train": True, "search": True}, {"ai-train": False}, {}]) == {
            "ai-train": False,
            "search": True,
        }


class TestRuleValue:
    @pytest.mark.parametrize(
        ("value", "path", "statement"),
        [
            ("train-ai=n", None, "train-ai=n"),
            ("/ai-ok/ train-ai=y", "/ai-ok/", "train-ai=y"),
            ("/ai-ok/\ttrain-ai=y", "/ai-ok/", "train-ai=y"),
            ("/a*b$   search=n", "/a*b$", "search=n"),
            ("/only-a-path", "/only-a-path", ""),
            ("search=n /x", None, "search=n /x"),
        ],
    )
    def test_path_is_present_only_when_the_value_starts_with_a_slash(
        self, value: str, path: str | None, statement: str
    ) -> None:
        found_path, found = read_usage_value(value)
        assert found_path == path and found.text == statement


def answer(body: str, url: str, agent: str = "mybot", matching: str = "rfc9309") -> dict[str, bool]:
    found = RobotsTxt.parse(body, matching).for_agent(agent).content_usage(url)
    assert found is not None
    return dict(found.preferences)


class TestRules:
    @pytest.mark.parametrize("matching", MODES)
    @pytest.mark.parametrize(
        ("path", "allowed", "preferences"),
        [
            ("/test", True, {"ai-train": False}),
            ("/never/test", False, {"ai-train": False}),
            ("/ai-ok/test", True, {"ai-train": True}),
        ],
    )
    def test_the_drafts_example(self, matching: str, path: str, allowed: bool, preferences: dict[str, bool]) -> None:
        robots = RobotsTxt.parse(DRAFT_EXAMPLE, matching)
        # Legacy matching is first-match: its "Allow: /" allows /never/ too.
        assert robots.allowed("https://a.test" + path, "otherbot") is (allowed or matching == "legacy")
        assert answer(DRAFT_EXAMPLE, "https://a.test" + path, "otherbot", matching) == preferences

    def test_the_drafts_example_for_its_named_bot(self) -> None:
        assert answer(DRAFT_EXAMPLE, "https://a.test/never/test", "ExampleBot") == {"ai-train": True}

    def test_the_longest_matching_path_decides(self) -> None:
        body = (
            "User-agent: *\nContent-Usage: /a/ train-ai=n\nContent-Usage: /a/b/ train-ai=y\n"
            "Content-Usage: search=n\nContent-Usage: /*.pdf$ ai-use=n\n"
        )
        assert answer(body, "https://a.test/a/x") == {"ai-train": False}
        assert answer(body, "https://a.test/a/b/x") == {"ai-train": True}
        assert answer(body, "https://a.test/other") == {"search": False}
        assert answer(body, "https://a.test/a/b/doc.pdf") == {"ai-input": False}
        assert answer(body, "https://a.test/doc.pdf?x") == {"search": False}

    def test_rules_with_the_same_path_combine_any_no_winning(self) -> None:
        body = "User-agent: *\nContent-Usage: /a/ train-ai=y, search=y\nContent-Usage: /a/ train-ai=n\n"
        found = RobotsTxt.parse(body).for_agent("mybot").content_usage("https://a.test/a/x")
        assert found is not None
        assert dict(found.preferences) == {"ai-train": False, "search": True}
        assert [rule.line for rule in found.rules] == [2, 3]
        refusing = found.refusing("ai-train")
        assert refusing is not None and refusing.line == 3

    def test_paths_are_normalised_as_allow_disallow_patterns(self) -> None:
        body = "User-agent: *\nContent-Usage: /caf%c3%a9/ train-ai=n\nContent-Usage: /%7Euser/ search=n\n"
        assert answer(body, "https://a.test/café/x") == {"ai-train": False}
        assert answer(body, "https://a.test/~user/x") == {"search": False}

    def test_a_rule_that_does_not_parse_still_decides_as_unknown(self) -> None:
        body = "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /a/ Train-ai=y\n"
        assert answer(body, "https://a.test/a/x") == {}
        assert answer(body, "https://a.test/b") == {"ai-train": False}

    def test_merged_groups_merge_their_rules(self) -> None:
        body = (
            "User-agent: mybot\nDisallow: /x\nContent-Usage: /a/ train-ai=n\n\n"
            "User-agent: otherbot\nDisallow: /x\nContent-Usage: search=n\n\n"
            "User-agent: mybot\nDisallow: /x\nContent-Usage: /a/ search=y\nContent-Usage: ai-use=n\n"
        )
        rules = RobotsTxt.parse(body).for_agent("mybot")
        assert [rule.line for rule in rules.content_usage_rules] == [3, 11, 12]
        assert answer(body, "https://a.test/a/x") == {"ai-train": False, "search": True}
        assert answer(body, "https://a.test/b") == {"ai-input": False}

    def test_a_content_usage_line_does_not_end_a_run_of_user_agents(self) -> None:
        body = "User-agent: a\nContent-Usage: train-ai=n\nUser-agent: mybot\nDisallow: /x\n"
        rules = RobotsTxt.parse(body).for_agent("mybot")
        assert rules.group == ("a", "mybot")
        assert not rules.allowed("https://a.test/x")
        assert answer(body, "https://a.test/y") == {"ai-train": False}

    @pytest.mark.parametrize("matching", MODES)
    def test_no_rules_means_no_answer(self, matching: str) -> None:
        rules = RobotsTxt.parse("User-agent: *\nDisallow: /x\n", matching).for_agent("mybot")
        assert rules.content_usage("https://a.test/") is None and rules.content_usage_rules == ()

    def test_a_non_ascii_body_read_through_the_full_grouping_keeps_the_rules(self) -> None:
        # "İ" lengthens when lower-cased: the file is read by grouping every line instead of the scan.
        body = "# İ\nUser-agent: *\nContent-Usage: /a/ train-ai=n\n"
        assert answer(body, "https://a.test/a/") == {"ai-train": False}


class TestRefusalBeforeDownload:
    BODY = (
        "User-agent: *\nDisallow: /private/\nContent-Usage: /data/ train-ai=n\nContent-Usage: /data/open/ train-ai=y\n"
        "Content-Usage: /input/ ai-use=n\nContent-Usage: /odd/ train-ai=maybe\nContent-Usage: /both/ train-ai=n, search=n\n"
    )

    def explain(self, path: str, purposes: tuple[str, ...]) -> tuple[bool, int | None, str]:
        decision = RobotsTxt.parse(self.BODY).explain("https://a.test" + path, "mybot", purposes)
        return decision.allowed, decision.rule.line if decision.rule else None, decision.reason

    def test_refuses_only_the_paths_it_matches(self) -> None:
        allowed, line, reason = self.explain("/data/x", ("ai-train",))
        assert (allowed, line) == (False, 3)
        assert reason == (
            "robots.txt Content-Usage refuses every declared purpose (REP_PURPOSES): "
            "ai-train=n (line 3: Content-Usage: /data/ train-ai=n)"
        )
        assert self.explain("/other", ("ai-train",))[0] is True

    def test_a_longer_y_wins(self) -> None:
        assert self.explain("/data/open/x", ("ai-train",))[0] is True

    def test_ai_use_refuses_the_ai_input_purpose_in_both_names(self) -> None:
        assert self.explain("/input/x", ("ai-input",))[:2] == (False, 5)
        assert self.explain("/input/x", ("ai-use",))[:2] == (False, 5)
        assert self.explain("/input/x", ("ai-train",))[0] is True

    def test_an_unknown_value_is_not_a_refusal(self) -> None:
        assert self.explain("/odd/x", ("ai-train",))[0] is True

    def test_only_when_every_declared_purpose_is_refused(self) -> None:
        assert self.explain("/data/x", ("ai-train", "search"))[0] is True
        assert self.explain("/both/x", ("train-ai", "search"))[:2] == (False, 7)

    def test_a_disallow_still_decides_first(self) -> None:
        allowed, line, reason = self.explain("/private/x", ("ai-train",))
        assert (allowed, line, reason) == (False, 2, "longest match")

    def test_content_signal_and_content_usage_combine(self) -> None:
        body = "User-agent: *\nContent-Signal: search=no\nContent-Usage: /d/ train-ai=n\n"
        rules = RobotsTxt.parse(body).for_agent("mybot")
        decision = rules.purposes_refusal("https://a.test/d/x", ["ai-train", "search"])
        assert decision is not None and decision.rule is not None and decision.rule.line == 3
        assert decision.reason == (
            "robots.txt Content-Usage and Content-Signal refuse every declared purpose (REP_PURPOSES): "
            "ai-train=n (line 3: Content-Usage: /d/ train-ai=n), search=no"
        )
        assert rules.purposes_refusal("https://a.test/e", ["ai-train", "search"]) is None

    def test_unknown_purpose_names_are_an_error(self) -> None:
        with pytest.raises(ValueError, match="unknown purpose 'bots'"):
            RobotsTxt.parse(self.BODY).explain("https://a.test/data/x", "mybot", ["bots"])


class TestLicenses:
    BODY = (
        "License: https://a.test/license.xml\nUser-agent: *\nDisallow: /x\n"
        "license: https://b.test/rsl.xml # second\nLicense:\nSitemap: https://a.test/s.xml\n"
    )

    @pytest.mark.parametrize("matching", MODES)
    def test_global_like_sitemaps(self, matching: str) -> None:
        robots = RobotsTxt.parse(self.BODY, matching)
        assert robots.licenses == ["https://a.test/license.xml", "https://b.test/rsl.xml"]
        assert robots.for_agent("mybot").licenses == ("https://a.test/license.xml", "https://b.test/rsl.xml")
        assert robots.for_agent("mybot").sitemaps == ("https://a.test/s.xml",)

    def test_on_rules_of_a_file_with_no_group_for_the_agent(self) -> None:
        robots = RobotsTxt.parse("License: https://a.test/l.xml\nUser-agent: other\nDisallow: /\n")
        assert robots.for_agent("mybot").licenses == ("https://a.test/l.xml",)

    def test_nothing_is_enforced(self) -> None:
        robots = RobotsTxt.parse("License: https://a.test/l.xml\n")
        assert robots.allowed("https://a.test/x", "mybot")


def test_plain_data_keeps_content_usage_and_licenses() -> None:
    rules = RobotsTxt.parse("License: https://a.test/l.xml\n" + DRAFT_EXAMPLE).for_agent("otherbot")
    data = rules.to_dict()
    assert data["licenses"] == ["https://a.test/l.xml"]
    assert data["content_usage"] == [[5, "Content-Usage: train-ai=n"], [6, "Content-Usage: /ai-ok/ train-ai=y"]]
    copy = AgentRules.from_dict(data)
    assert copy.licenses == rules.licenses
    assert copy.content_usage_rules == rules.content_usage_rules
    copied = copy.content_usage("https://a.test/ai-ok/x")
    assert copied is not None and dict(copied.preferences) == {"ai-train": True}


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("content_usage", [[1, "Disallow: /"]], "not a Content-Usage line"),
        ("content_usage", "x", "must be a list"),
        ("licenses", [""], "non-empty"),
        ("licenses", [1], "list of strings"),
    ],
)
def test_plain_data_rejects_malformed_content_usage_and_licenses(key: str, value: object, message: str) -> None:
    data = RobotsTxt.parse(DRAFT_EXAMPLE).for_agent("mybot").to_dict()
    data[key] = value
    with pytest.raises(ValueError, match=message):
        AgentRules.from_dict(data)


def test_lint_warns_about_a_content_usage_value_that_does_not_parse_and_a_relative_license() -> None:
    body = (
        "License: /rel.xml\nLicense: https://a.test/l.xml\nUser-agent: *\nDisallow: /x\n"
        "Content-Usage: Train-ai=n\nContent-Usage: /a/ train-ai=n,\nContent-Usage: /b/ train-ai=n, bots=y\n"
    )
    warnings = [(warning.line, warning.kind) for warning in lint(body)]
    assert warnings == [(1, LintKind.BAD_LICENSE), (5, LintKind.BAD_VALUE), (6, LintKind.BAD_VALUE)]
    messages = [warning.message for warning in lint(body)]
    assert "every category is unknown for every path" in messages[1]
    assert "every category is unknown for '/a/'" in messages[2]
