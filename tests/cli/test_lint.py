"""Lint: crafted bad files for every warning kind, the ``check --lint`` command, and real corpus files."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

import pytest

from scrapy_robots_rep.cli import main
from scrapy_robots_rep.core import ExtensionField, RobotsTxt
from scrapy_robots_rep.core.lint import LintKind, LintWarning, file_warnings, lint
from tests.cli.console import run
from tests.project import in_example_project


def found(body: str, matching: str = "rfc9309", **options: int) -> list[tuple[int | None, str]]:
    return [(warning.line, warning.kind.value) for warning in lint(body, matching, **options)]


def messages(body: str, matching: str = "rfc9309") -> dict[int | None, str]:
    return {warning.line: warning.message for warning in lint(body, matching)}


# A clean file, in both modes: every line is read as written and every rule can decide.
CLEAN = """\
# Shop robots
User-agent: *
Allow: /shop/catalog
Disallow: /shop
Disallow: /*.pdf$
Crawl-delay: 2
Request-rate: 1/5s
Content-Signal: search=yes, ai-train=no

User-agent: Googlebot
User-agent: bing_bot-news
Disallow: /private

Sitemap: https://example.com/sitemap.xml
"""


@pytest.mark.parametrize("matching", ["rfc9309", "legacy"])
def test_a_clean_file_has_no_warning(matching):
    assert lint(CLEAN, matching) == []


def test_an_empty_file_or_only_comments_has_no_warning():
    assert lint("") == lint(b"# nothing to say\n\n") == []


@pytest.mark.parametrize(
    "body",
    [
        "<!DOCTYPE html>\n<html><head><title>Shop</title></head>\n<body>Disallow: /</body></html>\n",
        "<html>\n<body>\nUser-agent: *\nDisallow: /private\n</body>\n</html>\n",
    ],
)
def test_an_html_page_is_one_file_wide_warning(body):
    [warning] = lint(body)

    assert (warning.line, warning.kind) == (None, LintKind.NOT_ROBOTS_TXT)
    assert warning.message.startswith("this is an HTML page, not a robots.txt")


def test_a_body_without_any_field_is_not_a_robots_txt():
    [warning] = lint('{"error": "not found"}\nplease try again later\n')

    assert (warning.line, warning.kind) == (None, LintKind.NOT_ROBOTS_TXT)
    assert warning.message == ("no line of this file is a robots.txt field (User-agent, Allow, Disallow, Sitemap...)")


# What a crawl asks of every robots.txt it fetches: the file-wide warnings alone, which read the
# lines only when no line is a field as usually written. Each body here must not be settled by that
# look: a field in a comment, misspelt or without a colon, or spelt with a character that only
# Unicode case folding makes a field's letter (the long s, the Kelvin sign).
UNSETTLED_BY_A_LOOK = [
    "# User-agent: *\n# Disallow: /\n",
    "useragent: *\ndissallow: /private\n",
    "User-agent *\nDisallow /private\n",
    "\u017fitemap: https://example.com/sitemap.xml\n",
    "\u212a: nothing\nuser-agent\u212a: x\n",
    "<html><body>User-agent: *</body></html>\n",
    "plain prose, no field\n",
]


@pytest.mark.parametrize("matching", ["rfc9309", "legacy"])
@pytest.mark.parametrize("body", [CLEAN, "", *UNSETTLED_BY_A_LOOK])
def test_file_warnings_are_the_file_wide_warnings_of_lint(body, matching):
    assert file_warnings(body, matching) == [warning for warning in lint(body, matching) if warning.line is None]


def test_a_field_spelt_with_a_character_that_folds_to_ascii_is_not_a_field():
    [warning] = file_warnings("\u017fitemap: https://example.com/sitemap.xml\n")

    assert warning.kind is LintKind.NOT_ROBOTS_TXT


def test_content_past_the_size_limit_is_a_warning():
    body = "User-agent: *\nDisallow: /a\n" + "".join(f"Disallow: /{number}\n" for number in range(10))

    assert found(body, max_size=40)[0] == (None, "too-large")
    assert lint(body, max_size=40)[0].message == f"the file has {len(body)} bytes; only the first 40 are read"
    assert found(body, max_size=len(body)) == []


def test_a_line_that_is_not_a_field_is_ignored():
    body = "User-agent: *\nplease do not crawl us\nDisallow: /private\n"

    assert found(body) == [(2, "not-a-directive")]
    assert messages(body)[2] == "not a 'field: value' line, ignored"


def test_misspelt_fields_read_anyway_in_rfc9309_are_unknown_in_legacy():
    body = "User-agent: *\nUser agent: bot\nDissallow: /private\nDisallow /tmp\n"

    assert found(body) == [(2, "misspelt-field"), (3, "misspelt-field"), (4, "missing-colon")]
    assert messages(body)[3] == (
        "'Dissallow' is a misspelling of 'Disallow': read as 'Disallow' in rfc9309 matching "
        "(as Google does), ignored by strict parsers: write 'Disallow'"
    )
    assert messages(body)[4] == "no ':' after 'Disallow': read anyway in rfc9309 matching, ignored by strict parsers"
    assert found(body, "legacy") == [(2, "unknown-field"), (3, "unknown-field"), (4, "not-a-directive")]
    assert messages(body, "legacy")[3] == (
        "unknown field 'Dissallow', ignored in legacy matching (rfc9309 matching reads it as 'Disallow'): "
        "write 'Disallow'"
    )
    assert messages(body, "legacy")[4] == (
        "not a 'field: value' line, ignored (it has no ':'; lenient rfc9309 matching would read it)"
    )


def test_unknown_fields_say_what_happens_and_suggest_a_spelling():
    body = (
        "User-agent: *\nDisallow: /a\n"
        "User-agnet: otherbot\nDisallow: /b\n"
        "Host: example.com\n"
        "https://example.com/sitemap.xml\n"
        "X-Custom: 1\n"
    )

    assert found(body) == [(3, "unknown-field"), (5, "unknown-field"), (6, "unknown-field"), (7, "unknown-field")]
    assert messages(body) == {
        3: "unknown field 'User-agnet': the line is ignored; did you mean 'User-agent'? "
        "(the rules after it belong to the group before it, if any)",
        5: "'Host' is not a field this parser reads (a Yandex extension): the line is ignored",
        6: "a bare URL is not a field: the line is ignored (write 'Sitemap: <url>' for a sitemap)",
        7: "unknown field 'X-Custom': the line is ignored",
    }
    # What the warning says: the rule after the misspelt user-agent is the '*' group's.
    rule = RobotsTxt.parse(body).explain("https://example.com/b", "somebot").rule
    assert rule is not None and rule.line == 4


def test_a_declared_extension_field_is_not_unknown():
    """A field declared as an extension (``RobotsTxt.parse(extensions=...)``, ``REP_EXTENSION_FIELDS``)
    is read, so it is no ``unknown-field``; an undeclared one still is."""
    body = "User-agent: *\nLLM-Policy: https://example.com/llm.txt\nX-Custom: 1\nDisallow: /private\n"

    assert found(body) == [(2, "unknown-field"), (3, "unknown-field")]
    for extensions in (["llm-policy"], [ExtensionField("LLM-Policy", per_group=False)]):
        for matching in ("rfc9309", "legacy"):
            warnings = lint(body, matching, extensions=extensions)
            assert [(warning.line, warning.kind.value) for warning in warnings] == [(3, "unknown-field")]


def test_rules_before_any_user_agent_are_ignored():
    body = "Disallow: /early\nCrawl-delay: 5\nUser-agent: *\nDisallow: /late\n"

    for matching in ("rfc9309", "legacy"):
        assert found(body, matching) == [(1, "outside-group"), (2, "outside-group")]
        assert messages(body, matching)[1] == "Disallow before any User-agent line: ignored"


def test_a_blank_line_ends_a_legacy_record():
    body = "User-agent: *\n\nDisallow: /private\n"

    assert found(body) == []
    assert found(body, "legacy") == [(3, "outside-group")]
    assert messages(body, "legacy")[3] == (
        "Disallow is in no record: in legacy matching a blank line ends a record, "
        "so this line has no User-agent line: ignored"
    )
    assert RobotsTxt.parse(body, "legacy").allowed("https://example.com/private", "somebot")


def test_user_agent_values_that_are_not_product_tokens():
    body = "User-agent: Googlebot/2.1\nUser-agent: 360Spider\nUser-agent:\nUser-agent: * \nDisallow: /x\n"

    assert found(body) == [(1, "bad-agent"), (2, "bad-agent"), (3, "bad-agent")]
    assert messages(body) == {
        1: "'Googlebot/2.1' is not a product token (letters, '_' and '-' only): rfc9309 matching reads it as "
        "'googlebot'",
        2: "'360Spider' is not a product token (letters, '_' and '-' only): rfc9309 matching reads it as '' "
        "and the group applies to no robot",
        3: "empty User-agent value: the group applies to no robot",
    }


def test_sitemaps_must_be_absolute_http_urls():
    body = (
        "Sitemap: /sitemap.xml\nSitemap: ftp://example.com/s.xml\nSitemap: https:///nohost.xml\n"
        "Sitemap: HTTPS://Example.com/ok.xml\nSitemap: http://example.com/ok.xml\n"
    )

    assert found(body) == [(1, "bad-sitemap"), (2, "bad-sitemap"), (3, "bad-sitemap")]
    assert messages(body)[1] == "Sitemap must be an absolute http(s) URL, got '/sitemap.xml'"


def test_values_that_cannot_be_read():
    body = "User-agent: *\nCrawl-delay: soon\nRequest-rate: fast\nContent-Signal: maybe\nDisallow: /x\n"

    assert found(body) == [(2, "bad-value"), (3, "bad-value"), (4, "bad-value")]
    assert messages(body)[2] == "Crawl-delay value 'soon' cannot be read: ignored"
    assert messages(body)[4] == "Content-Signal value 'maybe' has no 'purpose=yes|no' pair: ignored"


@pytest.mark.parametrize("matching", ["rfc9309", "legacy"])
def test_patterns_that_match_no_url_path(matching):
    body = "User-agent: *\nDisallow: https://example.com/private\nDisallow: private\nDisallow: /ok\n"

    assert found(body, matching) == [(2, "never-matches"), (3, "never-matches")]
    assert messages(body, matching)[2] == (
        "'Disallow: https://example.com/private' matches no URL: a URL path starts with '/' and this pattern "
        "does not (write the path, not the whole URL)"
    )
    for url in ("https://example.com/private", "https://example.com/https://example.com/private"):
        assert RobotsTxt.parse(body, matching).allowed(url, "somebot")


SHADOWED = """\
User-agent: *
Disallow: /shop
Allow: /shop/cart
Disallow: /shop
Disallow: /page
Disallow: /page*
Allow: /tie
Disallow: /tie
Disallow: /ab
Disallow: /a*
Disallow: /x$
Disallow: /x
"""


def test_shadowed_rules_in_rfc9309():
    # 4 repeats 2; 5 is covered by the longer 6; 8 loses the tie to 7; 9 (same length as 10,
    # listed first) and 11 (anchored, longer than 12) still decide for some URL.
    assert found(SHADOWED) == [(4, "shadowed"), (5, "shadowed"), (8, "shadowed")]
    assert messages(SHADOWED) == {
        4: "'Disallow: /shop' repeats line 2 ('Disallow: /shop'): only the first copy can decide",
        5: "'Disallow: /page' can never decide: 'Disallow: /page*' (line 6) matches every URL it matches and is "
        "tried before it in rfc9309 matching (its pattern is longer)",
        8: "'Disallow: /tie' can never decide: 'Allow: /tie' (line 7) matches every URL it matches and is tried "
        "before it in rfc9309 matching (allow wins a tie in length)",
    }


def test_shadowed_rules_in_legacy():
    # legacy: file order, prefixes, '*' and '$' are plain characters.
    assert found(SHADOWED, "legacy") == [(3, "shadowed"), (4, "shadowed"), (6, "shadowed"), (8, "shadowed")]
    assert messages(SHADOWED, "legacy")[3] == (
        "'Allow: /shop/cart' can never decide: 'Disallow: /shop' (line 2) matches every URL it matches and is "
        "tried before it in legacy matching (it comes first)"
    )


def test_an_empty_legacy_disallow_shadows_everything_after_it():
    body = "User-agent: *\nDisallow:\nAllow: /public\n"

    assert found(body) == []
    assert found(body, "legacy") == [(3, "shadowed")]


def test_wildcards_cover_only_what_they_provably_cover():
    body = (
        "User-agent: *\n"
        "Disallow: /*/print*\n"  # covers line 3 (longer, every /x/print... URL)
        "Allow: /*/print\n"
        "Disallow: /a*c*e\n"  # does not cover line 5: /a*e matches /ae, which has no c
        "Disallow: /a*e\n"
        "Disallow: /*.php$\n"  # anchored: does not cover /*.php, which matches /x.php?y
        "Disallow: /*.php\n"
    )

    assert found(body) == [(3, "shadowed")]


def test_rules_are_shadowed_only_within_their_own_group():
    body = "User-agent: a\nDisallow: /shop\n\nUser-agent: b\nAllow: /shop\n"

    assert found(body) == []


def test_an_allowed_index_page_still_decides_for_its_directory():
    # Allow: /d/index.html also allows /d/ (as Google does): a longer rule covering the page
    # does not make the line useless.
    body = "User-agent: *\nDisallow: /d/\nAllow: /d/index.html\nDisallow: /d/index.html*\n"

    assert found(body) == []
    rule = RobotsTxt.parse(body).explain("https://example.com/d/", "somebot").rule
    assert rule is not None and rule.line == 3


def test_warnings_are_in_line_order_file_wide_first():
    body = "Sitemap: /s.xml\nDisallow: /x\nUser-agent: 1bot\nDissallow: /y\n" + "#" * 100

    assert found(body, max_size=80) == [
        (None, "too-large"),
        (1, "bad-sitemap"),
        (2, "outside-group"),
        (3, "bad-agent"),
        (4, "misspelt-field"),
    ]


# The command line.


def test_check_lint_prints_one_line_per_warning_and_exits_1(capsys, tmp_path):
    path = tmp_path / "robots.txt"
    path.write_text("User-agent: *\nDissallow: /private\nSitemap: sitemap.xml\n")

    status, out, err = run(capsys, "check", str(path), "--lint")

    assert (status, err) == (1, "")
    assert out.splitlines() == [
        f"robots.txt {path}: read from file, linted in rfc9309 matching",
        f"{path}:2: misspelt-field: 'Dissallow' is a misspelling of 'Disallow': read as 'Disallow' in rfc9309 "
        "matching (as Google does), ignored by strict parsers: write 'Disallow'",
        f"{path}:3: bad-sitemap: Sitemap must be an absolute http(s) URL, got 'sitemap.xml'",
        "2 warnings",
    ]


def test_check_lint_exits_0_without_warnings(capsys, tmp_path):
    path = tmp_path / "robots.txt"
    path.write_text(CLEAN)

    status, out, _ = run(capsys, "check", str(path), "--lint", "--matching", "legacy")

    assert status == 0
    assert out.splitlines() == [f"robots.txt {path}: read from file, linted in legacy matching", "no warnings"]


def test_check_lint_json(capsys, tmp_path):
    path = tmp_path / "robots.txt"
    path.write_text("<html><body>Not found</body></html>")

    status, out, _ = run(capsys, "check", str(path), "--lint", "--json")

    assert status == 1
    assert json.loads(out) == {
        "location": str(path),
        "summary": "read from file",
        "matching": "rfc9309",
        "warnings": [
            {
                "line": None,
                "kind": "not-robots-txt",
                "message": "this is an HTML page, not a robots.txt: only rules on lines of their own are read "
                "(usually none)",
            }
        ],
    }


def test_check_lint_in_a_project_reads_its_extension_fields(tmp_path):
    path = tmp_path / "robots.txt"
    path.write_text("User-agent: *\nLLM-Policy: https://example.com/llm.txt\nDisallow: /private\n")

    completed = in_example_project("robots", "check", str(path), "--lint", "-s", "REP_EXTENSION_FIELDS=llm-policy")

    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert completed.stdout.splitlines()[-1] == "no warnings"


def test_check_lint_of_a_missing_file_exits_2(capsys, tmp_path):
    with pytest.raises(SystemExit) as exit_info:
        main(["check", str(tmp_path / "nope.txt"), "--lint"])

    assert exit_info.value.code == 2
    assert "cannot read ROBOTS file" in capsys.readouterr().err


# Real files.


def corpus_files(corpus: Path) -> list[Path]:
    return sorted((corpus / "robots").glob("*.txt"))


@pytest.mark.parametrize("matching", ["rfc9309", "legacy"])
def test_every_corpus_file_lints_with_well_formed_warnings(corpus, matching):
    kinds: set[LintKind] = set()
    for path in corpus_files(corpus):
        body = path.read_bytes()
        line_count = body.count(b"\n") + body.count(b"\r") + 1
        warnings = lint(body, matching)
        for warning in warnings:
            assert isinstance(warning, LintWarning)
            assert warning.line is None or 1 <= warning.line <= line_count, (path.name, warning)
            assert warning.message, (path.name, warning)
        assert [w.line or 0 for w in warnings] == sorted(w.line or 0 for w in warnings), path.name
        kinds.update(warning.kind for warning in warnings)
    # Real files have real mistakes: at least these kinds occur in any sample of them.
    assert {LintKind.SHADOWED, LintKind.UNKNOWN_FIELD, LintKind.BAD_AGENT} <= kinds


@pytest.mark.parametrize("matching", ["rfc9309", "legacy"])
def test_file_warnings_of_corpus_files_are_those_of_lint(corpus, matching):
    for path in corpus_files(corpus):
        body = path.read_bytes()
        for max_size in (len(body), max(len(body) // 2, 1)):
            expected = [warning for warning in lint(body, matching, max_size=max_size) if warning.line is None]
            assert file_warnings(body, matching, max_size=max_size) == expected, path.name


def test_rules_reported_as_never_deciding_never_decide_on_corpus_urls(corpus):
    urls_by_site: dict[str, list[str]] = defaultdict(list)
    with (corpus / "urls.jsonl").open() as lines:
        for line in lines:
            entry = json.loads(line)
            urls_by_site[entry["site"]].append(entry["url"])
    checked = 0
    for path in corpus_files(corpus):
        body = path.read_bytes()
        for matching in ("rfc9309", "legacy"):
            useless = {
                warning.line
                for warning in lint(body, matching)
                if warning.kind in (LintKind.SHADOWED, LintKind.NEVER_MATCHES)
            }
            if not useless:
                continue
            robots = RobotsTxt.parse(body, matching)
            agents = ["somebot", *sorted(_agent_values(body))[:8]]
            for url in urls_by_site[path.stem]:
                for agent in agents:
                    rule = robots.explain(url, agent).rule
                    assert rule is None or rule.line not in useless, (path.name, matching, url, agent, rule)
                    checked += 1
    assert checked > 0


def test_each_shadowed_rule_is_decided_by_its_shadower_in_corpus_files(corpus):
    """Every corpus SHADOWED warning, replayed on a file of just the two rules, with a URL the rule matches."""
    line_of_shadower = re.compile(r"\(line (\d+)\)")
    replayed = 0
    for path in corpus_files(corpus):
        body = path.read_bytes()
        lines = body.decode("utf-8", "ignore").replace("\r\n", "\n").replace("\r", "\n").split("\n")
        for matching in ("rfc9309", "legacy"):
            for warning in lint(body, matching):
                if warning.kind is not LintKind.SHADOWED:
                    continue
                match = line_of_shadower.search(warning.message) or re.search(r"repeats line (\d+)", warning.message)
                assert match is not None, warning
                shadower, shadowed = int(match.group(1)), warning.line
                assert shadowed is not None
                first, second = sorted((shadower, shadowed))
                pair = f"User-agent: *\n{lines[first - 1]}\n{lines[second - 1]}\n"
                alone = f"User-agent: *\n{lines[shadowed - 1]}\n"
                url = _url_matching(lines[shadowed - 1], matching)
                if url is None or RobotsTxt.parse(alone, matching).explain(url, "bot").rule is None:
                    continue
                decision = RobotsTxt.parse(pair, matching).explain(url, "bot")
                assert decision.rule is not None and decision.rule.line == (2 if shadower == first else 3), (
                    path.name,
                    matching,
                    warning,
                    url,
                    decision,
                )
                replayed += 1
    assert replayed > 0


def _agent_values(body: bytes) -> set[str]:
    text = body.decode("utf-8", "ignore")
    return {value.strip() for value in re.findall(r"(?im)^\s*user-agent\s*:\s*([^#\r\n]*)", text) if value.strip()}


def _url_matching(line: str, matching: str) -> str | None:
    """A URL the rule on ``line`` matches: its pattern with each '*' as 'x' (rfc9309) or as written."""
    pattern = line.split("#", 1)[0].split(":", 1)[-1].strip()
    if matching == "rfc9309":
        pattern = pattern.replace("*", "x").removesuffix("$")
    if not pattern.startswith("/"):
        return None
    return f"https://example.com{pattern}"
