"""Property-based attacks on the core parser and matcher (issue 6, "parser and matcher under attack")."""

from __future__ import annotations

import os
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_robots_rep.core import AgentRules, RobotsTxt
from tests.hardening.consistency import all_answers
from tests.hardening.reference import (
    Expected,
    Group,
    RuleLine,
    legacy_expected,
    legacy_group,
    render,
    rfc9309_expected,
    rfc9309_groups,
)
from tests.hardening.strategies import (
    AGENT_NOISE_LINES,
    HOST,
    LEGACY_AGENTS,
    LEGACY_PATH_ATOMS,
    LEGACY_PATTERN_ATOMS,
    LEGACY_ROBOT,
    NOISE_LINES,
    RFC9309_AGENT,
    RFC9309_AGENTS,
    RFC9309_PATH_ATOMS,
    RFC9309_PATTERN_ATOMS,
    equivalent_encoding,
    groups,
    paths,
    patterns,
)

MODES = ("rfc9309", "legacy")
# Hypothesis tests draw the mode rather than take it from pytest.mark.parametrize: pytest-twisted
# 1.14 wraps a @given test's inner function once per parametrized item and then fails.
FIELDS = (
    "User-agent",
    "user-agent",
    "USER-AGENT",
    "Allow",
    "Disallow",
    "disallow",
    "Sitemap",
    "Crawl-delay",
    "Request-rate",
    "Content-Signal",
    "useragent",
    "dissallow",
    "Host",
    "",
)
SEPARATORS = ("\n", "\r\n", "\r", "\n\n")


EXAMPLES_SCALE = int(os.environ.get("HARDENING_EXAMPLES_SCALE", "1"))
"""Multiplies every example count; ``benchmarks/fuzz_core.py hypothesis`` raises it for long runs."""


def examples(count: int) -> settings:
    """Hypothesis settings for this suite: no deadline (shared CI machines), no example database."""
    return settings(max_examples=count * EXAMPLES_SCALE, deadline=None, database=None)


@st.composite
def line_soup(draw: st.DrawFn) -> bytes:
    """Bytes shaped like robots.txt lines, with hostile values, mixed line ends and bad UTF-8."""
    lines = draw(
        st.lists(
            st.one_of(
                st.builds(
                    lambda field, colon, value: f"{field}{colon}{value}",
                    st.sampled_from(FIELDS),
                    st.sampled_from((":", " : ", ":\t", "", "::")),
                    st.one_of(
                        st.text(max_size=30),
                        st.sampled_from(
                            (
                                "*",
                                "/",
                                "$",
                                "/*$",
                                "nan",
                                "-5",
                                "1e308",
                                "inf",
                                "1/0",
                                "0/0",
                                "3/10m",
                                "%",
                                "%zz",
                                "%2",
                                "%C3",
                                "/é",
                                "mybot",
                                "search=yes, ai-train=NO",
                                "ai-input=no,,=yes",
                                "x=maybe,é=no",
                            )
                        ),
                    ),
                ),
                st.text(max_size=40),
            ),
            max_size=25,
        )
    )
    separators = draw(st.lists(st.sampled_from(SEPARATORS), min_size=len(lines), max_size=len(lines)))
    text = "".join(line + end for line, end in zip(lines, separators, strict=True))
    data = text.encode("utf-8", "surrogatepass")
    garbage = draw(st.binary(max_size=8))
    cut = draw(st.integers(0, len(data)))
    prefix = b"\xef\xbb\xbf" if draw(st.booleans()) else b""
    return prefix + data[:cut] + garbage + data[cut:]


hostile_bodies = st.one_of(st.binary(max_size=2000), line_soup())
hostile_urls = st.builds(
    lambda tail: f"{HOST}/{tail}",
    st.text(max_size=60),
) | st.sampled_from(
    (
        f"{HOST}",
        f"{HOST}?",
        f"{HOST}/#frag",
        f"{HOST}/%",
        f"{HOST}/%zz",
        f"{HOST}/robots.txt",
        f"{HOST}/%F0%9F",
        "http://[::1]/a",
        "https://a.com:99999/x",
    )
)
agents = st.sampled_from(("mybot", "MyBot/1.0", "*", "Googlebot", "a b", "x" * 300, "é"))


@examples(800)
@given(matching=st.sampled_from(MODES), body=hostile_bodies, url=hostile_urls, agent=agents)
def test_hostile_bytes_never_raise_and_every_answer_agrees(matching: str, body: bytes, url: str, agent: str) -> None:
    robots = RobotsTxt.parse(body, matching)
    answers = all_answers(robots, url, agent)
    assert len(set(answers)) == 1, answers
    assert answers == all_answers(RobotsTxt.parse(body, matching), url, agent)
    assert all(isinstance(sitemap, str) for sitemap in robots.sitemaps)
    rules = robots.for_agent(agent)
    assert rules.crawl_delay is None or 0 <= rules.crawl_delay < float("inf")
    assert all(
        isinstance(purpose, str) and isinstance(allowed, bool) for purpose, allowed in rules.content_signals.items()
    )
    assert bool(rules.content_signals) == bool(rules.content_signal_lines())
    copy = AgentRules.from_dict(rules.to_dict())
    assert (copy.content_signals, copy.content_signal_lines()) == (rules.content_signals, rules.content_signal_lines())


@examples(300)
@given(matching=st.sampled_from(MODES), text=st.text(max_size=500), url=hostile_urls)
def test_str_bodies_parse_like_their_utf8_bytes(matching: str, text: str, url: str) -> None:
    encoded = text.encode("utf-8", "surrogatepass")
    assert RobotsTxt.parse(text, matching).allowed(url, "mybot") == RobotsTxt.parse(encoded, matching).allowed(
        url, "mybot"
    )


def check_against_reference(
    robots: RobotsTxt, url: str, agent: str, expected: Expected, chosen_values: set[str]
) -> None:
    """The core's decision, deciding rule and group agree with the reference's."""
    decision = robots.explain(url, agent)
    assert decision.allowed == expected.allowed, decision
    if expected.deciding_lines:
        assert decision.rule is not None, decision
        assert decision.rule.line in expected.deciding_lines, decision
        assert decision.rule.allow == expected.allowed, decision
    else:
        assert decision.rule is None, decision
    assert {value.lower() for value in decision.group} <= {value.lower() for value in chosen_values}, decision
    assert bool(decision.group) == bool(chosen_values), decision
    assert robots.for_agent(agent).allowed(url) == expected.allowed


@examples(600)
@given(
    file_groups=groups(RFC9309_AGENTS, RFC9309_PATTERN_ATOMS),
    path=paths(RFC9309_PATH_ATOMS),
    noise=st.lists(st.sampled_from(NOISE_LINES), max_size=2).map(tuple),
    agent_noise=st.lists(st.sampled_from(AGENT_NOISE_LINES), max_size=2).map(tuple),
)
def test_rfc9309_equals_brute_force_reference(
    file_groups: list[Group], path: str, noise: tuple[str, ...], agent_noise: tuple[str, ...]
) -> None:
    rendered = render(file_groups, noise, agent_noise)
    robots = RobotsTxt.parse(rendered.text, "rfc9309")
    expected = rfc9309_expected(rendered, file_groups, RFC9309_AGENT, path)
    chosen = {value for index in rfc9309_groups(file_groups, RFC9309_AGENT) for value in file_groups[index].agents}
    check_against_reference(robots, HOST + path, RFC9309_AGENT, expected, chosen)


@examples(600)
@given(file_groups=groups(LEGACY_AGENTS, LEGACY_PATTERN_ATOMS), path=paths(LEGACY_PATH_ATOMS))
def test_legacy_equals_first_prefix_reference(file_groups: list[Group], path: str) -> None:
    rendered = render(file_groups)
    robots = RobotsTxt.parse(rendered.text, "legacy")
    expected = legacy_expected(rendered, file_groups, LEGACY_ROBOT, path)
    index = legacy_group(file_groups, LEGACY_ROBOT)
    chosen = set() if index is None else set(file_groups[index].agents)
    check_against_reference(robots, HOST + path, LEGACY_ROBOT, expected, chosen)


@examples(300)
@given(data=st.data(), file_groups=groups(RFC9309_AGENTS, RFC9309_PATTERN_ATOMS), path=paths(RFC9309_PATH_ATOMS))
def test_rfc9309_equivalent_url_encodings_get_the_same_answer(
    data: st.DataObject, file_groups: list[Group], path: str
) -> None:
    robots = RobotsTxt.parse(render(file_groups).text, "rfc9309")
    variant = data.draw(equivalent_encoding(path), label="variant")
    assert robots.allowed(HOST + variant, RFC9309_AGENT) == robots.allowed(HOST + path, RFC9309_AGENT)


@examples(300)
@given(data=st.data(), file_groups=groups(RFC9309_AGENTS, RFC9309_PATTERN_ATOMS), path=paths(RFC9309_PATH_ATOMS))
def test_rfc9309_equivalent_pattern_encodings_get_the_same_answer(
    data: st.DataObject, file_groups: list[Group], path: str
) -> None:
    reencoded = [
        replace(
            group,
            rules=tuple(replace(rule, pattern=data.draw(equivalent_encoding(rule.pattern))) for rule in group.rules),
        )
        for group in file_groups
    ]
    original = RobotsTxt.parse(render(file_groups).text, "rfc9309")
    variant = RobotsTxt.parse(render(reencoded).text, "rfc9309")
    assert variant.allowed(HOST + path, RFC9309_AGENT) == original.allowed(HOST + path, RFC9309_AGENT)


@examples(300)
@given(
    file_groups=groups(RFC9309_AGENTS, RFC9309_PATTERN_ATOMS),
    path=paths(RFC9309_PATH_ATOMS),
    extra=patterns(RFC9309_PATTERN_ATOMS),
)
def test_rfc9309_adding_an_allow_rule_never_disallows(file_groups: list[Group], path: str, extra: str) -> None:
    before = RobotsTxt.parse(render(file_groups).text, "rfc9309").allowed(HOST + path, RFC9309_AGENT)
    widened = [replace(group, rules=(*group.rules, RuleLine(True, extra))) for group in file_groups]
    after = RobotsTxt.parse(render(widened).text, "rfc9309").allowed(HOST + path, RFC9309_AGENT)
    assert after or not before


@pytest.mark.parametrize("matching", MODES)
@pytest.mark.parametrize("separator", ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"])
def test_only_lf_and_cr_end_a_line(matching: str, separator: str) -> None:
    body = f"User-agent: *\nDisallow: /a{separator}Disallow: /b\nDisallow: /c\n"
    robots = RobotsTxt.parse(body.encode(), matching)
    assert robots.allowed(f"{HOST}/b", "mybot")
    rule = robots.explain(f"{HOST}/c", "mybot").rule
    assert rule is not None
    assert rule.line == 3


@pytest.mark.parametrize("matching", MODES)
@pytest.mark.parametrize(
    "line",
    [
        "Crawl-delay: 1e308",
        "Crawl-delay: 1e309",
        "Crawl-delay: -5",
        "Crawl-delay: nan",
        "Crawl-delay: inf",
        "Crawl-delay: " + "9" * 400,
        "Request-rate: 1/" + "9" * 400,
        "Request-rate: 1/" + "9" * 400 + "h",
        "Request-rate: 0/10",
        "Request-rate: -1/10",
        "Request-rate: 1/nan",
        "Request-rate: " + "9" * 400 + "/1",
    ],
)
def test_hostile_delays_are_finite_and_json_safe(matching: str, line: str) -> None:
    robots = RobotsTxt.parse(f"User-agent: *\n{line}\nDisallow: /x\n", matching)
    delay = robots.for_agent("mybot").crawl_delay
    assert delay is None or 0 <= delay < float("inf")
    assert all_answers(robots, f"{HOST}/x", "mybot") == (False,) * 6
