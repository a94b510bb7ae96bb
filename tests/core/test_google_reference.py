"""rfc9309 mode against the behaviours pinned by Google's reference parser tests.

Where Google's parser and RFC 9309 section 2.2.2 percent-encoding normalisation
disagree, the project follows the RFC (docs/behaviour.md §4); those tests say so in their names.
Google's matcher takes an agent that is already a product token; ``RobotsTxt`` reduces the
configured agent to its product token first (docs/behaviour.md §7), so a test that gave
Google's matcher a whole ``Foo Bar`` now gives a token that is not ``Foo``.
"""

from __future__ import annotations

import pytest

from scrapy_robots_rep.core import RobotsTxt
from tests.core.helpers import allowed

FOO_DISALLOWED = "user-agent: FooBot\ndisallow: /\n"


def test_empty_file_allows_everything():
    assert allowed("", "FooBot", "http://foo.bar/")


def test_empty_path_is_root():
    assert not allowed(FOO_DISALLOWED, "FooBot", "http://foo.bar")


def test_missing_colon_is_accepted_when_whitespace_separates():
    assert not allowed("user-agent FooBot\ndisallow /\n", "FooBot", "http://foo.bar/x/y")
    assert allowed("foo: FooBot\nbar: /\n", "FooBot", "http://foo.bar/x/y")


def test_missing_colon_with_more_than_two_words_is_not_a_line():
    assert allowed("user-agent FooBot\ndisallow / now\n", "FooBot", "http://foo.bar/x/y")


GROUPS = (
    "allow: /foo/bar/\n"
    "\n"
    "user-agent: FooBot\n"
    "disallow: /\n"
    "allow: /x/\n"
    "user-agent: BarBot\n"
    "disallow: /\n"
    "allow: /y/\n"
    "\n"
    "\n"
    "allow: /w/\n"
    "user-agent: BazBot\n"
    "\n"
    "user-agent: FooBot\n"
    "allow: /z/\n"
    "disallow: /\n"
)


@pytest.mark.parametrize(
    ("agent", "path", "expected"),
    [
        ("FooBot", "/x/b", True),
        ("FooBot", "/z/d", True),
        ("FooBot", "/y/c", False),
        ("BarBot", "/y/c", True),
        ("BarBot", "/w/a", True),
        ("BarBot", "/z/d", False),
        ("BazBot", "/z/d", True),
        ("FooBot", "/foo/bar/", False),
        ("BarBot", "/foo/bar/", False),
        ("BazBot", "/foo/bar/", False),
    ],
)
def test_groups_merge_per_agent_and_blank_lines_do_not_end_them(agent, path, expected):
    assert allowed(GROUPS, agent, "http://foo.bar" + path) is expected


@pytest.mark.parametrize(
    "body",
    [
        "USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n",
        "user-agent: FooBot\nallow: /x/\ndisallow: /\n",
        "uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n",
    ],
)
def test_field_names_are_case_insensitive(body):
    assert allowed(body, "FooBot", "http://foo.bar/x/y")
    assert not allowed(body, "FooBot", "http://foo.bar/a/b")


@pytest.mark.parametrize("value", ["FOO BAR", "foo bar", "FoO bAr"])
@pytest.mark.parametrize("agent", ["Foo", "foo"])
def test_user_agent_values_are_case_insensitive(value, agent):
    body = f"User-Agent: {value}\nAllow: /x/\nDisallow: /\n"
    assert allowed(body, agent, "http://foo.bar/x/y")
    assert not allowed(body, agent, "http://foo.bar/a/b")


def test_user_agent_value_is_read_up_to_its_product_token():
    body = "User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n"
    assert allowed(body, "Foo", "http://foo.bar/x/y")
    assert not allowed(body, "FooBar", "http://foo.bar/x/y")
    assert not allowed(body, "Bar", "http://foo.bar/x/y")


@pytest.mark.parametrize("value", ["mybot/1.2", "mybot*", "MyBot (+http://x)", "mybot;v2"])
def test_version_and_decorations_of_the_value_are_ignored(value):
    assert not allowed(f"User-agent: {value}\nDisallow: /\n", "mybot", "http://a.com/x")


def test_agent_is_matched_for_equality_not_as_prefix():
    assert allowed("User-agent: mybotx\nDisallow: /\n", "mybot", "http://a.com/x")
    assert allowed("User-agent: my\nDisallow: /\n", "mybot", "http://a.com/x")


def test_star_followed_by_text_is_still_the_global_group():
    assert not allowed("User-agent: * # everyone\nDisallow: /\n", "mybot", "http://a.com/x")
    assert not allowed("User-agent: * everyone\nDisallow: /\n", "mybot", "http://a.com/x")
    assert allowed("User-agent: *bot\nDisallow: /\n", "mybot", "http://a.com/x")


def test_global_group_is_secondary():
    body = "user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n"
    assert not allowed(body, "FooBot", "http://foo.bar/x/y")
    assert allowed(body, "BarBot", "http://foo.bar/x/y")
    only_specific = "user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\nuser-agent: BazBot\ndisallow: /\n"
    assert allowed(only_specific, "QuxBot", "http://foo.bar/x/y")


def test_all_global_groups_are_merged_and_never_merged_with_a_specific_group():
    body = "User-agent: *\nDisallow: /a\n\nUser-agent: other\nDisallow: /\n\nUser-agent: *\nDisallow: /b\n"
    assert not allowed(body, "mybot", "http://a.com/a")
    assert not allowed(body, "mybot", "http://a.com/b")
    assert allowed(body, "mybot", "http://a.com/c")
    specific = "User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n"
    assert allowed(specific, "FooBot", "http://foo.bar/x/page")
    assert not allowed(specific, "FooBot", "http://foo.bar/y/page")


def test_sitemap_and_unknown_lines_do_not_end_the_user_agent_run():
    body = "User-agent: a\nSitemap: http://a.com/s.xml\nFoo: bar\nUser-agent: b\nDisallow: /\n"
    assert not allowed(body, "a", "http://a.com/x")
    assert not allowed(body, "b", "http://a.com/x")


def test_rule_values_are_case_sensitive():
    assert not allowed("user-agent: FooBot\ndisallow: /x/\n", "FooBot", "http://foo.bar/x/y")
    assert allowed("user-agent: FooBot\ndisallow: /X/\n", "FooBot", "http://foo.bar/x/y")


@pytest.mark.parametrize(
    ("body", "path", "expected"),
    [
        ("disallow: /x/page.html\nallow: /x/\n", "/x/page.html", False),
        ("allow: /x/page.html\ndisallow: /x/\n", "/x/page.html", True),
        ("allow: /x/page.html\ndisallow: /x/\n", "/x/", False),
        ("disallow: \nallow: \n", "/x/page.html", True),
        ("disallow: /\nallow: /\n", "/x/page.html", True),
        ("disallow: /x\nallow: /x/\n", "/x", False),
        ("disallow: /x\nallow: /x/\n", "/x/", True),
        ("disallow: /x/page.html\nallow: /x/page.html\n", "/x/page.html", True),
        ("allow: /page\ndisallow: /*.html\n", "/page.html", False),
        ("allow: /page\ndisallow: /*.html\n", "/page", True),
        ("allow: /x/page.\ndisallow: /*.html\n", "/x/page.html", True),
        ("allow: /x/page.\ndisallow: /*.html\n", "/x/y.html", False),
        ("allow: /p\ndisallow: /\n", "/page", True),
        ("allow: /folder\ndisallow: /folder\n", "/folder/page", True),
        ("allow: /page\ndisallow: /*.htm\n", "/page.htm", False),
        ("allow: /$\ndisallow: /\n", "/", True),
        ("allow: /$\ndisallow: /\n", "/page.html", False),
    ],
)
def test_longest_match_wins_and_allow_wins_ties(body, path, expected):
    assert allowed("user-agent: FooBot\n" + body, "FooBot", "http://foo.bar" + path) is expected


def test_longest_match_counts_octets_after_normalisation():
    body = "user-agent: FooBot\nallow: /ä\ndisallow: /%C3%A4x\n"
    assert allowed(body, "FooBot", "http://foo.bar/%C3%A4")
    assert not allowed(body, "FooBot", "http://foo.bar/%C3%A4x")


def test_url_query_with_reserved_characters_is_matched_as_is():
    body = "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n"
    assert allowed(body, "FooBot", "http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par")


@pytest.mark.parametrize("rule", ["/foo/bar/ツ", "/foo/bar/%E3%83%84", "/foo/bar/%e3%83%84"])
def test_non_ascii_and_its_escapes_match_the_escaped_url(rule):
    body = f"User-agent: FooBot\nDisallow: /\nAllow: {rule}\n"
    assert allowed(body, "FooBot", "http://foo.bar/foo/bar/%E3%83%84")


@pytest.mark.parametrize("rule", ["/foo/bar/ツ", "/foo/bar/%E3%83%84"])
def test_rfc9309_raw_non_ascii_url_is_encoded_unlike_google(rule):
    body = f"User-agent: FooBot\nDisallow: /\nAllow: {rule}\n"
    assert allowed(body, "FooBot", "http://foo.bar/foo/bar/ツ")


def test_rfc9309_escaped_unreserved_characters_equal_their_plain_form_unlike_google():
    body = "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n"
    assert allowed(body, "FooBot", "http://foo.bar/foo/bar/baz")
    assert allowed(body, "FooBot", "http://foo.bar/foo/bar/%62%61%7a")
    assert not allowed(body, "FooBot", "http://foo.bar/foo/bar/bat")


def test_escaped_slash_is_never_a_slash_and_its_hex_case_does_not_matter():
    body = "User-agent: *\nDisallow: /a%2fb\n"
    assert not allowed(body, "mybot", "http://a.com/a%2Fb")
    assert allowed(body, "mybot", "http://a.com/a/b")


def test_wildcard_and_anchor():
    body = "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n"
    assert not allowed(body, "FooBot", "http://foo.bar/foo/bar/quz")
    assert allowed(body, "FooBot", "http://foo.bar/foo/quz")
    assert allowed(body, "FooBot", "http://foo.bar/foo//quz")
    assert allowed(body, "FooBot", "http://foo.bar/foo/bax/quz")
    anchored = "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n"
    assert not allowed(anchored, "FooBot", "http://foo.bar/foo/bar")
    assert allowed(anchored, "FooBot", "http://foo.bar/foo/bar/qux")
    assert allowed(anchored, "FooBot", "http://foo.bar/foo/bar/")
    assert allowed(anchored, "FooBot", "http://foo.bar/foo/bar/baz")


def test_dollar_inside_a_pattern_is_literal():
    body = "User-agent: *\nDisallow: /a$b\n"
    assert not allowed(body, "mybot", "http://a.com/a$b/c")
    assert allowed(body, "mybot", "http://a.com/a")


def test_comments_are_stripped():
    body = "User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n"
    assert allowed(body, "FooBot", "http://foo.bar/foo/bar")
    assert not allowed(body, "FooBot", "http://foo.bar/foo/quz")


def test_index_html_allows_its_directory():
    body = "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n"
    assert allowed(body, "foobot", "http://foo.com/allowed-slash/")
    assert not allowed(body, "foobot", "http://foo.com/allowed-slash/index.htm")
    assert allowed(body, "foobot", "http://foo.com/allowed-slash/index.html")
    assert not allowed(body, "foobot", "http://foo.com/allowed-slash/other")
    assert not allowed(body, "foobot", "http://foo.com/anyother-url")


def test_index_html_in_a_disallow_rule_does_not_cover_its_directory():
    body = "User-Agent: *\nDisallow: /d/index.html\n"
    assert allowed(body, "foobot", "http://foo.com/d/")


@pytest.mark.parametrize(
    ("rule", "path", "expected"),
    [
        ("/fish", "/fish", True),
        ("/fish", "/fish.html", True),
        ("/fish", "/fish/salmon.html", True),
        ("/fish", "/fishheads/yummy.html", True),
        ("/fish", "/fish.html?id=anything", True),
        ("/fish", "/Fish.asp", False),
        ("/fish", "/catfish", False),
        ("/fish", "/?id=fish", False),
        ("/fish", "/bar", False),
        ("/fish*", "/fish", True),
        ("/fish*", "/fishheads", True),
        ("/fish*", "/Fish.bar", False),
        ("/fish/", "/fish/", True),
        ("/fish/", "/fish/?salmon", True),
        ("/fish/", "/fish", False),
        ("/fish/", "/Fish/Salmon.html", False),
        ("/*.php", "/filename.php", True),
        ("/*.php", "/folder/filename.php?parameters", True),
        ("/*.php", "//folder/any.php.file.html", True),
        ("/*.php", "/index?f=filename.php/", True),
        ("/*.php", "/php/", False),
        ("/*.php", "/index?php", False),
        ("/*.php", "/windows.PHP", False),
        ("/*.php$", "/filename.php", True),
        ("/*.php$", "/folder/filename.php", True),
        ("/*.php$", "/filename.php?parameters", False),
        ("/*.php$", "/filename.php/", False),
        ("/*.php$", "/filename.php5", False),
        ("/*.php$", "/aaaphpaaa", False),
        ("/fish*.php", "/fish.php", True),
        ("/fish*.php", "/fishheads/catfish.php?parameters", True),
        ("/fish*.php", "/Fish.PHP", False),
    ],
)
def test_google_documentation_examples(rule, path, expected):
    body = f"user-agent: FooBot\ndisallow: /\nallow: {rule}\n"
    assert allowed(body, "FooBot", "http://foo.bar" + path) is expected


@pytest.mark.parametrize(
    "body",
    [
        "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /\n",
        "User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n",
        "User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r",
        "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /",
        "User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /",
    ],
    ids=["lf", "crlf", "cr", "no-final-newline", "mixed"],
)
def test_line_ends_and_line_numbers(body):
    decision = RobotsTxt.parse(body).explain("http://a.com/x", "bar")
    assert not decision.allowed
    assert decision.rule is not None
    assert decision.rule.line == 6
    other = RobotsTxt.parse(body).explain("http://a.com/some/path", "foo")
    assert other.rule is not None
    assert other.rule.line == 2


@pytest.mark.parametrize(
    ("prefix", "foo_allowed_rule_seen"),
    [(b"\xef\xbb\xbf", True), (b"\xef\xbb", True), (b"\xef", True), (b"\xef\x11\xbf", False)],
    ids=["bom", "partial-2", "partial-1", "broken"],
)
def test_byte_order_mark_is_skipped(prefix, foo_allowed_rule_seen):
    body = prefix + b"User-Agent: foo\nDisallow: /AnyValue\n"
    assert allowed(body, "foo", "http://a.com/AnyValue") is not foo_allowed_rule_seen


def test_byte_order_mark_in_the_middle_breaks_its_line():
    body = b"User-Agent: foo\n\xef\xbb\xbfDisallow: /AnyValue\n"
    assert allowed(body, "foo", "http://a.com/AnyValue")


@pytest.mark.parametrize(
    "field",
    ["useragent", "user agent", "User-Agents", "USERAGENT"],
)
def test_user_agent_misspellings(field):
    assert not allowed(f"{field}: FooBot\nDisallow: /\n", "FooBot", "http://a.com/x")


@pytest.mark.parametrize("field", ["dissallow", "dissalow", "disalow", "diasllow", "disallaw", "Disallowed"])
def test_disallow_misspellings(field):
    assert not allowed(f"User-agent: FooBot\n{field}: /\n", "FooBot", "http://a.com/x")


def test_unknown_fields_are_ignored():
    assert allowed("User-agent: FooBot\nNoindex: /\nDeny: /\nDis-allow: /\n", "FooBot", "http://a.com/x")


@pytest.mark.parametrize("field", ["Sitemap", "sitemap", "Site-map"])
def test_sitemaps_anywhere_in_the_file(field):
    body = f"{field}: http://foo.bar/first.xml\nUser-Agent: foo\nAllow: /p\n{field}: http://foo.bar/second.xml\n"
    robots = RobotsTxt.parse(body)
    assert robots.sitemaps == ["http://foo.bar/first.xml", "http://foo.bar/second.xml"]
    assert robots.for_agent("other").sitemaps == ("http://foo.bar/first.xml", "http://foo.bar/second.xml")


def test_a_long_line_is_cut_as_google_cuts_it():
    max_line = 2083 * 8
    pattern = "/x/" + "a" * (max_line - 3 - len("disallow: ") + 1 - 3)
    body = f"user-agent: FooBot\ndisallow: {pattern}/qux\n"
    assert allowed(body, "FooBot", "http://foo.bar/fux")
    assert not allowed(body, "FooBot", f"http://foo.bar{pattern}/fux")


def test_long_allow_lines_are_cut_as_google_cuts_them():
    max_line = 2083 * 8
    length = max_line - 3 - len("allow: ") + 1
    line_a = "/x/" + "a" * (length - 3)
    line_b = "/x/" + "b" * (length - 3)
    body = f"user-agent: FooBot\ndisallow: /\nallow: {line_a}/qux\nallow: {line_b}/qux\n"
    assert not allowed(body, "FooBot", "http://foo.bar/")
    assert allowed(body, "FooBot", f"http://foo.bar{line_a}/qux")
    assert allowed(body, "FooBot", f"http://foo.bar{line_b}/fux")


@pytest.mark.parametrize(
    ("url", "path"),
    [
        ("http://www.example.com", "/"),
        ("http://www.example.com/", "/"),
        ("http://www.example.com/a", "/a"),
        ("http://www.example.com/a/b?c=http://d.e/", "/a/b?c=http://d.e/"),
        ("http://www.example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"),
        ("http://www.example.com?a", "/?a"),
        ("https://user:pw@www.example.com:8080/a;b#c", "/a;b"),
    ],
)
def test_the_matched_string_is_path_and_query(url, path):
    body = f"User-agent: *\nDisallow: {path}$\n"
    assert not allowed(body, "mybot", url)


def test_robots_txt_itself_is_always_allowed():
    body = "User-agent: *\nDisallow: /\n"
    decision = RobotsTxt.parse(body).explain("https://a.com/robots.txt", "mybot")
    assert decision.allowed
    assert decision.reason == "robots.txt is always allowed"
    assert allowed(body, "mybot", "https://a.com/robots.txt?from=sitemap")
    assert not allowed(body, "mybot", "https://a.com/robots.txt.bak")


def test_characters_a_uri_cannot_hold_are_escaped_on_both_sides():
    body = "User-agent: *\nDisallow: /sem totalsource/\nDisallow: /* jsessionid=$\n"
    assert not allowed(body, "mybot", "http://a.com/sem%20totalsource/x")
    assert not allowed(body, "mybot", "http://a.com/sem totalsource/x")
    assert not allowed(body, "mybot", "http://a.com/12345%20jsess%69onid=")
    assert allowed(body, "mybot", "http://a.com/semtotalsource/x")


def test_a_lone_percent_sign_never_forms_an_escape_with_what_follows():
    body = "User-agent: *\nDisallow: /%E6%B1%82\nDisallow: /100%\n"
    assert allowed(body, "mybot", "http://a.com/%E6%B%31%82")
    assert not allowed(body, "mybot", "http://a.com/%E6%B1%82")
    assert not allowed(body, "mybot", "http://a.com/100%25")
    assert not allowed(body, "mybot", "http://a.com/100%")


def test_unicode_whitespace_around_a_value_is_ignored():
    body = "User-agent: *\nDisallow: /library\u00a0\n\u00a0Disallow:\u00a0/cloudplayer*\u00a0\n"
    assert not allowed(body, "mybot", "http://a.com/library")
    assert not allowed(body, "mybot", "http://a.com/cloudplayerpage/3.php")
