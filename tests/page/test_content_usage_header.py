"""The AIPREF ``Content-Usage`` response header and robots.txt's answer for a page (docs/page-directives.md)."""

from __future__ import annotations

import pytest

from scrapy_robots_rep import RobotsTxt
from scrapy_robots_rep.core.page import PageDirectives


def page(*usage: str, **other: str) -> PageDirectives:
    headers = [("Content-Usage", value) for value in usage] + [(k.replace("_", "-"), v) for k, v in other.items()]
    return PageDirectives.parse(b"", headers, agent="mybot")


def refused(directives: PageDirectives) -> set[str]:
    return {purpose for purpose in ("search", "ai-input", "ai-train") if not directives.allows(purpose)}


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        # draft-ietf-aipref-attach's example response.
        (["train-ai=n"], {"ai-train"}),
        (["train-ai=n, search=y"], {"ai-train"}),
        (["ai-use=n"], {"ai-input"}),
        (["train-ai=y, search=n"], {"search"}),
        (["train-ai=maybe"], set()),
        (['train-ai="n"'], set()),
        (["Train-ai=n"], set()),
        (["train-ai=n,"], set()),
        (["train-ai=n, train-ai=y"], set()),
        (["bots=n"], set()),
        # Several header lines are one dictionary: the last value of a key counts.
        (["train-ai=n", "search=n"], {"ai-train", "search"}),
        (["train-ai=n", "train-ai=y"], set()),
        (["train-ai=n", "Search=n"], set()),
    ],
    ids=repr,
)
def test_header_preferences(values: list[str], expected: set[str]) -> None:
    assert refused(page(*values)) == expected


def test_both_vocabularies_name_the_purpose() -> None:
    directives = page("train-ai=n, ai-use=n")
    assert not directives.allows("ai-train") and not directives.allows("train-ai")
    assert not directives.allows("ai-input") and not directives.allows("ai-use")
    assert directives.allows("search")


def test_the_statement_is_exposed_with_its_unknown_keys() -> None:
    directives = page("train-ai=n, bots=y;x=1")
    usage = directives.usage
    assert usage is not None
    assert dict(usage.values) == {"train-ai": "n", "bots": "y"} and usage.unknown_keys == ("bots",)
    assert page().usage is None
    assert [d.name for d in directives.unknown] == []


def test_explain_and_refusal_name_the_header() -> None:
    directives = page("train-ai=n, foo=bar")
    assert (
        directives.refusal("ai-train")
        == "Content-Usage: train-ai=n, foo=bar (header Content-Usage: train-ai=n, foo=bar)"
    )
    assert directives.explain() == [
        "Content-Usage: train-ai=n, foo=bar (header Content-Usage: train-ai=n, foo=bar): "
        "train-ai=n (ai-train refused), foo=bar (unknown label, kept)",
        "the body was not read: not an HTML response",
    ]
    assert "does not parse: every category unknown" in page("Train-ai=n").explain()[0]


def test_all_sources_combine_any_no_winning() -> None:
    # The header allows training, TDMRep reserves it: the "no" wins.
    assert not page("train-ai=y", tdm_reservation="1").allows("ai-train")
    # robots.txt says no to search for this path, the header says yes: the "no" wins.
    directives = page("search=y").with_site_usage({"search": False}, "robots.txt line 3: Content-Usage: search=n")
    assert directives.refusal("search") == "search=n (robots.txt line 3: Content-Usage: search=n)"
    # Content-Signal and Content-Usage from robots.txt, and the header, each refuse one purpose.
    combined = page("ai-use=n").with_site_signals({"search": False}).with_site_usage({"ai-train": False})
    assert refused(combined) == {"search", "ai-input", "ai-train"}
    assert "ai-train=n (robots.txt Content-Usage)" in combined.explain()


def test_an_unknown_answer_is_never_a_no() -> None:
    directives = page("train-ai=unknown").with_site_usage({})
    assert directives.allows("ai-train")
    assert page("train-ai=y").with_site_signals({"ai-train": True}).allows("ai-train")


def test_robots_txt_answer_for_the_page_folds_in() -> None:
    robots = RobotsTxt.parse("User-agent: *\nContent-Usage: /a/ train-ai=n\nContent-Usage: /a/b/ train-ai=y\n")
    found = robots.for_agent("mybot").content_usage("https://a.test/a/x")
    assert found is not None
    directives = page().with_site_usage(found.preferences, found.source)
    assert directives.refusal("ai-train") == "ai-train=n (robots.txt line 2: Content-Usage: /a/ train-ai=n)"
    longer = robots.for_agent("mybot").content_usage("https://a.test/a/b/x")
    assert longer is not None
    assert page().with_site_usage(longer.preferences, longer.source).allows("ai-train")


def test_scrapy_style_headers() -> None:
    directives = PageDirectives.parse(b"", {b"Content-Usage": [b"train-ai=n", b"search=y"]}, agent="mybot")
    assert refused(directives) == {"ai-train"}
