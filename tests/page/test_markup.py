"""Robots meta tags in the markup real pages serve (docs/behaviour.md §10)."""

from __future__ import annotations

import pytest

from scrapy_robots_rep.core.page import Effect, PageDirectives, tag_search
from scrapy_robots_rep.core.page import markup as page_markup


@pytest.fixture(autouse=True, params=["compiled", "python"])
def tag_finder(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test here runs with both forms of the ``<meta`` search (the compiled one when built)."""
    if request.param == "compiled" and not tag_search.COMPILED:
        pytest.skip("the compiled search was not built (no C compiler)")
    if request.param == "python":
        monkeypatch.setattr(page_markup, "find_wanted_meta", tag_search.find_wanted_meta_in_python)


HTML = {"Content-Type": "text/html; charset=utf-8"}
NOINDEX = {Effect.NOINDEX}
NOFOLLOW = {Effect.NOFOLLOW}
BOTH = {Effect.NOINDEX, Effect.NOFOLLOW}
NOTHING: set[Effect] = set()


def effects(markup: str | bytes, headers: dict[str, str] | None = None, agent: str = "mybot/1.0") -> set[Effect]:
    return set(PageDirectives.parse(markup, HTML if headers is None else headers, agent=agent).restricted)


CASES = [
    ("plain", '<html><head><meta name="robots" content="noindex"></head><body></body></html>', NOINDEX),
    ("book example", '<HTML><HEAD><META NAME="ROBOTS" CONTENT="NOINDEX, NOFOLLOW"></HEAD></HTML>', BOTH),
    ("none", '<head><meta name="robots" content="none"></head>', BOTH),
    ("all", '<head><meta name="robots" content="all"></head>', NOTHING),
    ("index follow", '<head><meta name="robots" content="index, follow"></head>', NOTHING),
    ("single quotes", "<head><meta name='robots' content='nofollow'></head>", NOFOLLOW),
    ("unquoted", "<head><meta name=robots content=noindex></head>", NOINDEX),
    ("unquoted self-closing", "<head><meta name=robots content=noindex/></head>", NOINDEX),
    ("xhtml self-closing", '<head><meta name="robots" content="noindex" /></head>', NOINDEX),
    ("content before name", '<head><meta content="nofollow" name="robots"></head>', NOFOLLOW),
    ("mixed case values", '<head><meta name="Robots" content="NoIndex,NoFollow"></head>', BOTH),
    ("spaces around", '<head><meta name=" robots " content="  noindex ,  nofollow  "></head>', BOTH),
    (
        "no spaces after comma",
        '<head><meta name="robots" content="noindex,nofollow,noarchive"></head>',
        BOTH | {Effect.NOARCHIVE},
    ),
    ("newlines in tag", '<head><meta\n  name="robots"\n  content="noindex"\n></head>', NOINDEX),
    ("tabs around equals", '<head><meta name\t=\t"robots" content = "noindex"></head>', NOINDEX),
    (
        "several tags combine",
        '<head><meta name="robots" content="noindex"><meta name="robots" content="nofollow">',
        BOTH,
    ),
    ("agent tag", '<head><meta name="mybot" content="nofollow"></head>', NOFOLLOW),
    ("agent tag uppercase", '<head><meta name="MYBOT" content="noindex"></head>', NOINDEX),
    ("other agent tag", '<head><meta name="googlebot" content="noindex"></head>', NOTHING),
    (
        "robots and agent combine",
        '<head><meta name="robots" content="index"><meta name="mybot" content="noindex">',
        NOINDEX,
    ),
    ("most restrictive wins", '<head><meta name="robots" content="all"><meta name="robots" content="none">', BOTH),
    ("no head element", '<!DOCTYPE html><meta name="robots" content="noindex"><title>x</title><p>text', NOINDEX),
    ("unclosed head", '<html><head><meta name="robots" content="noindex"><body>text', NOINDEX),
    ("between head and body", '<html><head></head><meta name="robots" content="noindex"><body></body>', NOINDEX),
    ("in the body", '<html><head></head><body><p>x</p><meta name="robots" content="noindex"></body>', NOINDEX),
    (
        "after a huge body tag",
        "<head></head><body>" + "<div>x</div>" * 2000 + "<meta name=robots content=nofollow>",
        NOFOLLOW,
    ),
    ("in a comment", '<head><!-- <meta name="robots" content="noindex"> --></head>', NOTHING),
    ("comment in the body", '<body><!--<meta name="robots" content="noindex">--></body>', NOTHING),
    ("after a comment", '<head><!-- old --><meta name="robots" content="noindex"></head>', NOINDEX),
    ("empty comment forms", '<head><!--><!---><meta name="robots" content="noindex"></head>', NOINDEX),
    ("comment closed with --!>", '<head><!-- x --!><meta name="robots" content="noindex"></head>', NOINDEX),
    ("unclosed comment", '<head><!-- <meta name="robots" content="noindex">', NOTHING),
    (
        "in a script",
        '<head><script>document.write(\'<meta name="robots" content="noindex">\')</script></head>',
        NOTHING,
    ),
    (
        "script with a fake end",
        '<head><script>var s = "</scriptx><meta name=robots content=noindex>";</script>',
        NOTHING,
    ),
    ("after a script", '<head><script>if (a < b) {}</script><meta name="robots" content="noindex"></head>', NOINDEX),
    (
        "uppercase script end",
        '<head><SCRIPT>x="<meta name=robots content=noindex>"</SCRIPT><meta name=robots content=nofollow>',
        NOFOLLOW,
    ),
    (
        "self-closing script still opens",
        '<head><script src="a.js"/><meta name=robots content=noindex></script>',
        NOTHING,
    ),
    ("in a style", '<head><style>/* <meta name="robots" content="noindex"> */</style></head>', NOTHING),
    ("in a title", '<head><title><meta name="robots" content="noindex"></title></head>', NOTHING),
    ("in a textarea", '<body><textarea><meta name="robots" content="noindex"></textarea></body>', NOTHING),
    ("script in the body", '<body><script>"<meta name=robots content=noindex>"</script><p>x</p></body>', NOTHING),
    ("in noscript", '<head><noscript><meta name="robots" content="noindex"></noscript></head>', NOINDEX),
    ("quoted > in another attribute", '<head><link title="a>b" href="/x"><meta name=robots content=noindex>', NOINDEX),
    ("quoted > in the content", '<head><meta content="noindex" data-x=">" name="robots"></head>', NOINDEX),
    (
        "duplicate name attribute: first wins",
        '<head><meta name="description" name="robots" content="noindex">',
        NOTHING,
    ),
    ("other meta tags", '<head><meta charset="utf-8"><meta name="viewport" content="noindex"></head>', NOTHING),
    ("http-equiv is not a name", '<head><meta http-equiv="robots" content="noindex"></head>', NOTHING),
    ("character references", '<head><meta name="robots" content="noindex&#44; nofollow"></head>', BOTH),
    ("semicolon separated", '<head><meta name="robots" content="noindex; nofollow"></head>', BOTH),
    ("space separated", '<head><meta name="robots" content="noindex nofollow"></head>', BOTH),
    ("empty content", '<head><meta name="robots" content=""></head>', NOTHING),
    ("no content", '<head><meta name="robots"></head>', NOTHING),
    (
        "doctype and xml prolog",
        '<?xml version="1.0"?><!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0//EN">'
        '<html xmlns="http://www.w3.org/1999/xhtml"><head><meta name="robots" content="noarchive" /></head></html>',
        {Effect.NOARCHIVE},
    ),
    (
        "cdata in xhtml script",
        '<head><script>//<![CDATA[\nvar a = "<meta name=robots content=noindex>";\n//]]>'
        '</script><meta name="robots" content="nosnippet"/></head>',
        {Effect.NOSNIPPET},
    ),
    ("slash between attributes", '<head><meta/name="robots"/content="noindex"></head>', NOINDEX),
    ("unclosed tag at the end", '<head><meta name="robots" content="noindex"', NOTHING),
    ("unclosed quote", '<head><meta name="robots" content="noindex></head><body>', NOTHING),
    ("nocache is noarchive", '<head><meta name="robots" content="nocache"></head>', {Effect.NOARCHIVE}),
    ("noimageindex", '<head><meta name="robots" content="noimageindex"></head>', {Effect.NOIMAGEINDEX}),
    ("max-snippet 0 is nosnippet", '<head><meta name="robots" content="max-snippet:0"></head>', {Effect.NOSNIPPET}),
    ("iframe content is text", "<body><iframe><meta name=robots content=noindex></iframe></body>", NOTHING),
    (
        "microdata metas before a body robots tag",
        '<head></head><body><div itemscope><meta itemprop="name" '
        'content="x"><meta itemprop="price" content="3"></div><meta name="robots" content="nofollow"></body>',
        NOFOLLOW,
    ),
    (
        "body robots tag only inside a script",
        '<head></head><body><script>var m = \'<meta name="robots" '
        'content="noindex">\';</script><meta itemprop="x" content="robots"></body>',
        NOTHING,
    ),
    (
        "body robots tag inside a comment after a real one",
        "<head></head><body><meta name=robots content=nofollow><!-- <meta name=robots content=noindex> --></body>",
        NOFOLLOW,
    ),
    ("robots word elsewhere in a meta", '<head><meta name="description" content="we build robots"></head>', NOTHING),
    ("meta inside svg title", "<body><svg><title>t</title></svg><meta name=robots content=noindex></body>", NOINDEX),
]


@pytest.mark.parametrize(("markup", "expected"), [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_markup_variants(markup: str, expected: set[Effect]) -> None:
    assert effects(markup) == expected


LAZY_READING_CASES = [
    '<head><meta name="description" content="robots"><!-- <meta name=robots content=noindex> -->'
    "<meta name=robots content=nofollow></head>",
    "<head><script>'<meta name=robots content=noindex>'</script></head><body><meta name=robots content=nofollow>",
    '<head><meta content="<meta name=robots content=noindex>" name=x></head><body>',
    "<head><title>robots</title><meta name=ROBOTS content=NOINDEX></head><body><META NAME=ROBOTS CONTENT=NOFOLLOW>",
    "<head><plaintext><meta name=robots content=noindex>",
    "<head><style>x{}</style><!-- unclosed <meta name=robots content=noindex>",
    "<head></head><body>" + "<p>robots</p>" * 300 + "<meta name=mybot content=noarchive>",
    "<head>" + "<meta name=x content=y>" * 200 + "</head><body><meta name=robots content=noindex>",
    "<head><script>" + "x" * 3000 + "</script><meta name=robots content=noindex></head>",
]


@pytest.mark.parametrize("limit", [200, 1500, 4000, 512_000])
@pytest.mark.parametrize("markup", [case[1] for case in CASES] + LAZY_READING_CASES)
def test_reading_only_as_far_as_the_last_wanted_tag_finds_what_reading_everything_finds(
    markup: str, limit: int
) -> None:
    """Without links the document is read only up to the last wanted meta tag a quick search finds;
    asking for links reads all of it. Both must find the same directives, in the head or the body."""
    quick = PageDirectives.parse(markup, HTML, agent="mybot", limit=limit)
    whole = PageDirectives.parse(markup, HTML, agent="mybot", limit=limit, links=True)
    assert [(d.text, str(d.source)) for d in quick.directives] == [(d.text, str(d.source)) for d in whole.directives]


def test_bad_bytes_are_no_error() -> None:
    markup = b'\xff\xfe\x00<head>\x80\x81<meta name="robots" content="noindex\xff"><meta name=robots content=\x00>'
    page = PageDirectives.parse(markup, HTML, agent="mybot")
    assert isinstance(page.noindex, bool)


def test_invalid_utf8_around_a_tag() -> None:
    markup = b'<html><head><title>\xe9t\xe9</title>\xc3<meta name="robots" content="nofollow"></head>'
    assert effects(markup) == NOFOLLOW


def test_utf16_document() -> None:
    markup = '\ufeff<html><head><meta name="robots" content="noindex"></head></html>'.encode("utf-16-le")
    assert effects(b"\xff\xfe" + markup[2:]) == NOINDEX


def test_utf8_bom() -> None:
    assert effects(b'\xef\xbb\xbf<head><meta name="robots" content="noindex">', {}) == NOINDEX


def test_where_the_tag_was() -> None:
    page = PageDirectives.parse('<head></head><body><meta name="robots" content="noindex">', HTML, agent="mybot")
    assert page.why("noindex") == 'noindex (<meta name="robots" content="noindex"> in the body)'
    head = PageDirectives.parse('<head><meta name="robots" content="noindex">', HTML, agent="mybot")
    assert head.why("noindex") == 'noindex (<meta name="robots" content="noindex"> in the head)'


def test_the_body_is_searched_within_a_bound() -> None:
    late = "<head></head><body>" + "x" * 2000 + "<meta name=robots content=noindex></body>"
    assert PageDirectives.parse(late, HTML, agent="mybot", limit=1000).noindex is False
    assert PageDirectives.parse(late, HTML, agent="mybot", limit=4000).noindex is True


def test_the_bound_counts_from_where_the_head_ends() -> None:
    head = "<head>" + "<link rel=x href=y>" * 100 + "</head><body>"  # about 2,000 bytes
    markup = head + "x" * 2000 + "<meta name=robots content=noindex>"
    assert PageDirectives.parse(markup, HTML, agent="mybot", limit=2500).noindex is True
    assert PageDirectives.parse(markup, HTML, agent="mybot", limit=1500).noindex is False


class TestWhichResponsesAreScanned:
    TAG = b'<html><head><meta name="robots" content="noindex"></head></html>'

    @pytest.mark.parametrize("content_type", ["text/html", "TEXT/HTML; charset=ISO-8859-1", "application/xhtml+xml"])
    def test_html_types(self, content_type: str) -> None:
        assert effects(self.TAG, {"Content-Type": content_type}) == NOINDEX

    @pytest.mark.parametrize("content_type", ["text/plain", "application/json", "image/png", "application/pdf"])
    def test_other_types_are_not_scanned(self, content_type: str) -> None:
        page = PageDirectives.parse(self.TAG, {"Content-Type": content_type}, agent="mybot")
        assert page.noindex is False and page.html is False

    @pytest.mark.parametrize(
        "body",
        [
            b"<!DOCTYPE html>\n<html><head><meta name=robots content=noindex>",
            b"  \n<html><meta name=robots content=noindex>",
            b"<!-- generated --><head><meta name=robots content=noindex>",
        ],
    )
    def test_html_looking_body_without_a_content_type(self, body: bytes) -> None:
        assert effects(body, {}) == NOINDEX

    @pytest.mark.parametrize(
        "body",
        [
            b'<?xml version="1.0" encoding="UTF-8"?>\n'
            b'<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" '
            b'"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">\n'
            b'<html xmlns="http://www.w3.org/1999/xhtml"><head><meta name="robots" content="noindex" /></head></html>',
            b'<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><meta name="robots" content="noindex"/>',
            b'<?xml version="1.0"?>\n<?xml-stylesheet href="a.xsl"?>\n<!-- made by hand -->\n'
            b"<html><head><meta name=robots content=noindex /></head></html>",
        ],
        ids=["prolog-doctype-html", "prolog-html", "prolog-instruction-comment-html"],
    )
    def test_xhtml_body_without_a_content_type(self, body: bytes) -> None:
        """An XML prolog (then a DOCTYPE, instructions, comments) followed by an ``<html`` root is XHTML."""
        assert effects(body, {}) == NOINDEX

    @pytest.mark.parametrize(
        "body",
        [
            b'{"html": "<meta name=robots content=noindex>"}',
            b'<?xml version="1.0"?>\n<rss version="2.0"><meta name="robots" content="noindex"/></rss>',
            b'<?xml version="1.0"?><!DOCTYPE svg><svg><meta name="robots" content="noindex"/></svg>',
            b'<?xml version="1.0"?><htmlish><meta name="robots" content="noindex"/></htmlish>',
        ],
        ids=["json", "rss", "svg", "other-root"],
    )
    def test_other_body_without_a_content_type(self, body: bytes) -> None:
        assert effects(body, {}) == NOTHING

    def test_headers_are_read_for_any_type(self) -> None:
        page = PageDirectives.parse(
            b"%PDF-1.4", {"Content-Type": "application/pdf", "X-Robots-Tag": "noindex"}, agent="mybot"
        )
        assert page.noindex is True


class TestRelNofollowLinks:
    def test_collects_marked_links_and_base(self) -> None:
        markup = (
            '<head><base href="https://a.test/dir/"></head><body>'
            '<a href="one" rel="nofollow">1</a><a rel="ugc NoFollow" href="/two">2</a>'
            '<a href="three">3</a><area href="four" rel=nofollow><link rel=nofollow href=five>'
            '<!-- <a href="six" rel="nofollow"> --><script>"<a href=seven rel=nofollow>"</script>'
        )
        page = PageDirectives.parse(markup, HTML, agent="mybot", links=True)
        assert page.base_href == "https://a.test/dir/"
        assert page.nofollow_hrefs == ("one", "/two", "four")

    def test_not_collected_unless_asked(self) -> None:
        page = PageDirectives.parse('<a href="one" rel="nofollow">', HTML, agent="mybot")
        assert page.nofollow_hrefs == ()


def _metas(markup: bytes) -> list[tuple[str, str, str, int, bool]]:
    found = page_markup.scan(markup, (b"mybot", b"robots"), limit=10_000).metas
    return [(meta.name, meta.content, meta.markup, meta.offset, meta.in_head) for meta in found]


def test_a_remembered_meta_tag_is_read_anew_where_it_stands() -> None:
    """A tag's reading is remembered, not where it was: the same tag in the head and in the body of
    another page has its own offset and place, and other values are read as themselves."""
    tag = b'<meta name="robots" content="noindex">'
    assert _metas(b"<head>" + tag + b"</head>") == [("robots", "noindex", tag.decode(), 6, True)]
    assert _metas(b"<head><title>x</title></head><body>" + tag) == [("robots", "noindex", tag.decode(), 35, False)]
    other = b'<meta name="robots" content="nofollow">'
    assert _metas(b"<head>" + other + tag) == [
        ("robots", "nofollow", other.decode(), 6, True),
        ("robots", "noindex", tag.decode(), 6 + len(other), True),
    ]


def test_a_tag_read_on_past_its_quoted_end_is_read_in_place() -> None:
    """A stray quote: the quick search ends the tag at a ``>`` the tokeniser reads inside a value,
    so the tag's bytes up to there hold no reading of their own."""
    markup = b"<head><meta name=robots x'y content='nofollow>x'></head>"
    for _ in range(2):  # read, then looked up
        assert _metas(markup) == [("robots", "nofollow>x", "<meta name=robots x'y content='nofollow>x'>", 6, True)]
    stray = b'<head><meta name=robots content=noindex"x></head><p class=a">'
    assert _metas(stray)[0][1:3] == ('noindex"x', '<meta name=robots content=noindex"x>')


def test_the_remembered_readings_are_bounded() -> None:
    remembered = page_markup._meta_tag
    remembered.cache_clear()
    for number in range(remembered.cache_info().maxsize + 10):
        assert _metas(b'<meta name="robots" content="max-snippet: %d">' % number)[0][1] == f"max-snippet: {number}"
    assert remembered.cache_info().currsize == remembered.cache_info().maxsize
    long_tag = b'<meta name="robots" content="noindex" data-x="' + b"x" * 600 + b'">'
    assert _metas(long_tag)[0][1] == "noindex"
    assert remembered(long_tag) is not None  # read now: it was not remembered by the scan
    assert remembered.cache_info().hits == 0
