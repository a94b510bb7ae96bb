"""``compare_rules``: a change is judged on the agent's rules, never on the bytes."""

from __future__ import annotations

from scrapy_robots_rep.core import AgentRules, RobotsTxt
from scrapy_robots_rep.core.changes import SHOWN_RULES, compare_rules

BEFORE = b"# v1\nUser-agent: *\nDisallow: /a\nAllow: /a/b\nCrawl-delay: 1\n\nUser-agent: other\nDisallow: /\n"


def rules(body: bytes, agent: str = "bot") -> AgentRules:
    return RobotsTxt.parse(body).for_agent(agent)


def test_reordered_rules_and_other_comments_are_no_change() -> None:
    reordered = b"User-agent: other\nDisallow: /\n\n# version 2, tidied\nUser-agent: *\nCrawl-delay: 1\nAllow: /a/b\nDisallow: /a\n"
    assert compare_rules(rules(BEFORE), rules(reordered)) is None
    assert compare_rules(rules(BEFORE), rules(BEFORE)) is None


def test_another_agents_group_changing_is_no_change_for_this_one() -> None:
    assert compare_rules(rules(BEFORE), rules(BEFORE.replace(b"Disallow: /\n", b"Allow: /\n"))) is None


def test_rules_added_and_removed_are_named_with_their_lines() -> None:
    after = b"User-agent: *\nDisallow: /c\nAllow: /a/b\nCrawl-delay: 2\nContent-Signal: ai-train=no\n"
    change = compare_rules(rules(BEFORE), rules(after))
    assert change is not None
    assert [(rule.line, rule.text) for rule in change.added] == [(2, "Disallow: /c")]
    assert [(rule.line, rule.text) for rule in change.removed] == [(3, "Disallow: /a")]
    assert change.crawl_delay == (1.0, 2.0)
    assert change.content_signals == ({}, {"ai-train": False})
    assert change.describe() == (
        "1 rule added: 'Disallow: /c' (line 2); 1 rule removed: 'Disallow: /a' (line 3); "
        "crawl delay 1s -> 2s; Content-Signal none -> ai-train=no"
    )


def test_an_allow_becoming_a_disallow_is_a_change() -> None:
    change = compare_rules(rules(BEFORE), rules(BEFORE.replace(b"Allow: /a/b", b"Disallow: /a/b")))
    assert change is not None and [rule.text for rule in change.added] == ["Disallow: /a/b"]


def test_a_file_turning_into_allow_all_is_a_change() -> None:
    change = compare_rules(rules(BEFORE), AgentRules.allow_all("robots.txt returned 404"))
    assert change is not None and change.fixed == (None, True)
    assert change.describe().startswith("rules -> allow all; 2 rules removed")


def test_at_most_five_rules_of_each_kind_are_described() -> None:
    many = b"User-agent: *\n" + b"".join(b"Disallow: /p%d\n" % number for number in range(8))
    change = compare_rules(rules(b"User-agent: *\n"), rules(many))
    assert change is not None and len(change.added) == 8
    assert change.describe().count("Disallow: /p") == SHOWN_RULES
    assert change.describe().endswith("and 3 more")
    assert change.to_dict()["added"][7] == {"line": 9, "text": "Disallow: /p7"}


def test_content_usage_rules_are_compared_by_path_and_preferences() -> None:
    old = rules("User-agent: *\nDisallow: /x\nContent-Usage: /a/ train-ai=n\nContent-Usage: search=y\n")
    same = rules("User-agent: *\nContent-Usage: search=y  # reordered\nDisallow: /x\nContent-Usage: /a/ train-ai=n\n")
    assert compare_rules(old, same) is None

    new = rules("User-agent: *\nDisallow: /x\nContent-Usage: /a/ train-ai=y\nContent-Usage: search=y\n")
    change = compare_rules(old, new)
    assert change is not None
    assert [(rule.line, rule.text) for rule in change.usage_added] == [(3, "Content-Usage: /a/ train-ai=y")]
    assert [(rule.line, rule.text) for rule in change.usage_removed] == [(3, "Content-Usage: /a/ train-ai=n")]
    assert change.describe() == (
        "Content-Usage added: 'Content-Usage: /a/ train-ai=y' (line 3); "
        "Content-Usage removed: 'Content-Usage: /a/ train-ai=n' (line 3)"
    )
    assert change.to_dict()["content_usage_added"] == [{"line": 3, "text": "Content-Usage: /a/ train-ai=y"}]


def test_declared_extension_field_values_are_compared_as_the_agent_reads_them() -> None:
    def parsed(body: str) -> AgentRules:
        return RobotsTxt.parse(body, extensions=["llm-policy"]).for_agent("bot")

    old = parsed("User-agent: *\nDisallow: /x\nLLM-Policy: https://a.example/llm.txt\nLLM-Policy: /terms\n")
    reordered = parsed("User-agent: *\nLLM-Policy: /terms\nLLM-Policy: https://a.example/llm.txt\nDisallow: /x\n")
    assert compare_rules(old, reordered) is None
    other_group = "\nUser-agent: other\nLLM-Policy: /elsewhere\n"
    assert (
        compare_rules(
            old,
            parsed(
                "User-agent: *\nDisallow: /x\nLLM-Policy: https://a.example/llm.txt\nLLM-Policy: /terms\n" + other_group
            ),
        )
        is None
    )

    new = parsed("User-agent: *\nDisallow: /x\nLLM-Policy: https://b.example/llm.txt\n")
    change = compare_rules(old, new)
    assert change is not None
    assert change.extensions == {
        "llm-policy": (("https://a.example/llm.txt", "/terms"), ("https://b.example/llm.txt",))
    }
    assert change.describe() == "llm-policy https://a.example/llm.txt, /terms -> https://b.example/llm.txt"
    assert change.to_dict()["extensions"] == {
        "llm-policy": [["https://a.example/llm.txt", "/terms"], ["https://b.example/llm.txt"]]
    }
    change = compare_rules(new, parsed("User-agent: *\nDisallow: /x\n"))
    assert change is not None and change.describe() == "llm-policy https://b.example/llm.txt -> none"
