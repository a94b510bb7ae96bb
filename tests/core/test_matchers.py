"""The two matchers of an origin give the decision of the definition.

An origin's first ``EARLY_DECISIONS`` decisions are made by its table of rules
(``RuleTable``: plain prefixes looked up by text, the other patterns tried in
rank order); later ones by the compiled index (``build_index``), whose checks
name a stage of entries that all have one verdict. The definition: the deciding
rule is the first entry, in rank order, whose pattern matches. Both matchers
must find that rule, and the reader of rule lines (``read_rules``) must read
the lines ``parse_line`` reads.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_robots_rep.core import MATCHING_MODES, AgentRules, RobotsTxt
from scrapy_robots_rep.core.agent_rules import EARLY_DECISIONS
from scrapy_robots_rep.core.lines import ALLOW, DISALLOW, read_directives
from scrapy_robots_rep.core.rule_index import first_match, plain_values, read_rules
from tests.corpus import corpus_dir
from tests.hardening.strategies import (
    HOST,
    LEGACY_PATH_ATOMS,
    LEGACY_PATTERN_ATOMS,
    RFC9309_PATH_ATOMS,
    paths,
    patterns,
)

# Rule lines in usual and unusual spellings, and lines that hold a rule word without being rules.
LINES = (
    "Disallow: /a",
    "disallow:/b*c$",
    "DISALLOW : /c # note",
    "  Allow:\t/d  ",
    "Allow: /a/index.html",
    "allow:",
    "Disallow:",
    "Dissallow: /e",
    "Disalow /f",
    "Allowed: /g",
    "diasllow: /h",
    "Disallow #: /i",
    "Disallow: /j:k",
    "\u00a0Disallow: /k",
    "Disallow: /l\u3000",
    "Dis allow: /m",
    "Allow /n /o",
    "Sitemap: https://a.example/allow",
    "Crawl-delay: 2",
    "# Disallow: /p",
    "User-agent: *",
    "",
    "   ",
    "<p>allow</p>",
)


def rows_of_every_line(text: str, lenient: bool) -> list[tuple[bool, str, int]]:
    _, directives = read_directives(text, lenient)
    return [(field == ALLOW, value, number - 1) for number, field, value in directives if field in (ALLOW, DISALLOW)]


@settings(max_examples=400, deadline=None, database=None)
@given(st.lists(st.sampled_from(LINES), max_size=30), st.booleans())
def test_rule_lines_are_read_as_every_line_is_read(lines: list[str], lenient: bool) -> None:
    text = "\n".join(lines)
    assert read_rules(text, lenient) == rows_of_every_line(text, lenient)


def rule_rows(atoms: tuple[str, ...]) -> st.SearchStrategy[list[tuple[bool, str, int]]]:
    row = st.tuples(st.booleans(), st.one_of(patterns(atoms), st.just("")))
    return st.lists(row, max_size=12).map(
        lambda rows: [(allow, value, index) for index, (allow, value) in enumerate(rows)]
    )


# Lines that take a source out of plain form (``rule_index.plain_values``): its rules are then read line by line.
UNPLAIN_LINES = ("# allow: /x", "  Disallow: /indented", "DISALLOW: /q", "Disalow: /s", "Diasllow: /t", "disallaw: /u")


@settings(max_examples=600, deadline=None, database=None)
@given(st.data(), st.sampled_from(tuple(MATCHING_MODES)), st.lists(st.sampled_from(UNPLAIN_LINES), max_size=1))
def test_a_table_decides_by_the_first_ranked_match(data: st.DataObject, matching: str, unplain: list[str]) -> None:
    mode = MATCHING_MODES[matching]
    atoms = (
        (RFC9309_PATH_ATOMS, RFC9309_PATH_ATOMS) if matching == "rfc9309" else (LEGACY_PATTERN_ATOMS, LEGACY_PATH_ATOMS)
    )
    lines = [f"{'Allow' if allow else 'Disallow'}: {value}" for allow, value, _ in data.draw(rule_rows(atoms[0]))]
    source = "\n".join(lines[: len(lines) // 2] + unplain + lines[len(lines) // 2 :])
    table = mode.table(source, mode.lenient)
    ranked = mode.rank(read_rules(source, mode.lenient))
    assert table.ranked() == ranked
    for path in data.draw(st.lists(paths(atoms[1]), min_size=1, max_size=5)):
        normalised = mode.normalise(path)
        entry = first_match(ranked, normalised)
        assert table.allows(normalised) is (entry is None or entry[1])


@settings(max_examples=400, deadline=None, database=None)
@given(st.lists(st.sampled_from(LINES), max_size=30))
def test_plain_form_values_are_the_values_of_every_rule_line(lines: list[str]) -> None:
    text = "\n".join(lines)
    values = plain_values(text)
    if values is not None:
        rows = rows_of_every_line(text, lenient=True)
        disallow, allow = values
        assert [value.strip() for value in disallow] == [value for allow, value, _ in rows if not allow]
        assert [value.strip() for value in allow] == [value for allow, value, _ in rows if allow]


def test_plain_form_is_the_usual_spelling_of_rule_lines() -> None:
    assert plain_values("Disallow: /a\nallow: /b # note\ndisallow:/c\nAllow:\nCrawl-delay: 2") == (
        ["/a", "/c"],
        ["/b ", ""],
    )
    for unplain in UNPLAIN_LINES:
        assert plain_values(f"Disallow: /a\n{unplain}") is None, unplain
    # A line that is no rule may hold a misspelling's word only when it also holds no rule field's.
    assert plain_values("Disallow: /a\nCrawl-delay: 1 # slow") == (["/a"], [])


def compiled(rules: AgentRules) -> AgentRules:
    """``rules`` once past its first decisions (its index compiled)."""
    for _ in range(EARLY_DECISIONS + 1):
        rules.allowed(f"{HOST}/")
    return rules


def body(rows: list[tuple[bool, str, int]]) -> str:
    return "User-agent: *\n" + "".join(f"{'Allow' if allow else 'Disallow'}: {value}\n" for allow, value, _ in rows)


@settings(max_examples=400, deadline=None, database=None)
@given(st.data(), st.sampled_from(tuple(MATCHING_MODES)))
def test_the_compiled_index_explains_as_the_table(data: st.DataObject, matching: str) -> None:
    atoms = (
        (RFC9309_PATH_ATOMS, RFC9309_PATH_ATOMS) if matching == "rfc9309" else (LEGACY_PATTERN_ATOMS, LEGACY_PATH_ATOMS)
    )
    # Enough rules for buckets, often.
    text = body(data.draw(rule_rows(atoms[0])) + data.draw(rule_rows(atoms[0])))
    late = compiled(RobotsTxt.parse(text, matching).for_agent("mybot"))
    for path in data.draw(st.lists(paths(atoms[1]), min_size=1, max_size=5)):
        early = RobotsTxt.parse(text, matching).for_agent("mybot")
        decision = early.explain(HOST + path)
        assert late.explain(HOST + path) == decision
        assert late.allowed(HOST + path) is decision.allowed


def test_every_corpus_url_is_explained_alike_before_and_after_compiling() -> None:
    corpus = corpus_dir()
    urls_file = corpus / "urls.jsonl"
    if not urls_file.is_file():
        pytest.skip("no corpus")
    by_site: dict[str, list[str]] = {}
    with open(urls_file, encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            by_site.setdefault(record["site"], []).append(record["url"])
    for matching in MATCHING_MODES:
        for site, urls in by_site.items():
            text = (corpus / "robots" / f"{site}.txt").read_bytes()
            late = compiled(RobotsTxt.parse(text, matching).for_agent("mybot"))
            for position, url in enumerate(urls):
                # A new origin every few URLs: each of these decisions is one of its first.
                if position % (EARLY_DECISIONS // 2) == 0:
                    early = RobotsTxt.parse(text, matching).for_agent("mybot")
                assert early.explain(url) == late.explain(url), (site, url, matching)
