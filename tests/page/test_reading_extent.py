"""Reading a page only as far as its last wanted meta tag finds what reading all of it finds.

Without ``links`` the scanner searches for ``<meta`` tags naming a wanted name first and reads the
markup with care (comments, raw text, the head's end) only up to them; asking for links reads the
whole document. On any markup, with either form of the ``<meta`` search, both must agree.
"""

from __future__ import annotations

from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_robots_rep.core.page import PageDirectives, tag_search
from scrapy_robots_rep.core.page import markup as page_markup

HTML = {"Content-Type": "text/html; charset=utf-8"}
PIECES = [
    *("<head>", "</head>", "<body>", "<title>robots</title>", "<title>", "</title>", "<script>", "</script>"),
    *("<style>", "</style>", "<!--", "-->", "<!-->", "<textarea>", "</TEXTAREA>", "<plaintext>", "<p>text</p>"),
    *("<meta name=robots content=noindex>", '<META NAME="ROBOTS" CONTENT="NOFOLLOW">', "<meta name=x content=y>"),
    *('<meta content="<!--" name=x>', '<meta content="a>b" name="mybot" data-x="noarchive">', "<meta name=robots"),
    *('<meta content="<script>">', "<base href=/x/>", '"', "'", ">", "<", "x" * 40),
]
FINDERS = [tag_search.find_wanted_meta, tag_search.find_wanted_meta_in_python]


def directives(markup: str, limit: int, links: bool) -> list[tuple[str, str]]:
    page = PageDirectives.parse(markup, HTML, agent="mybot", limit=limit, links=links)
    return [(directive.text, str(directive.source)) for directive in page.directives]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=25).map("".join), st.integers(min_value=10, max_value=600))
def test_both_ways_of_reading_agree(markup: str, limit: int) -> None:
    whole = directives(markup, limit, links=True)
    for finder in FINDERS:
        with mock.patch.object(page_markup, "find_wanted_meta", finder):
            assert directives(markup, limit, links=False) == whole
