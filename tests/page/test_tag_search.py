"""The search for ``<meta`` tags: its compiled form and the Python one find the same positions."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scrapy_robots_rep.core.page import tag_search
from scrapy_robots_rep.core.page.tag_search import find_meta_tag_in_python

compiled = pytest.importorskip(
    "scrapy_robots_rep.core.page._tag_search", reason="the compiled search was not built (no C compiler)"
)

FINDERS = [find_meta_tag_in_python, compiled.find_meta_tag]
PIECES = [
    "<",
    "<m",
    "<meta",
    "<META",
    "<Meta",
    "<mEtA",
    " ",
    "\t",
    "\n",
    "\f",
    "\v",
    "/",
    ">",
    "x",
    "<meta>",
    "\x1cm",
    "m",
]


@pytest.mark.parametrize("finder", FINDERS)
@pytest.mark.parametrize(
    ("data", "start", "end", "expected"),
    [
        (b"<meta name=x>", 0, 100, 0),
        (b"ab<META\tname=x>", 0, 100, 2),
        (b"<Meta/name=x>", 0, 100, 0),
        (b"<metadata><meta ", 0, 100, 10),
        (b"<meta>", 0, 100, -1),  # no attribute can follow: not a candidate
        (b"<meta", 0, 100, -1),
        (b"<meta ", 0, 5, -1),  # the byte after the name lies past the end
        (b"<meta ", 0, 6, 0),
        (b"<meta <meta ", 1, 100, 6),
        (b"\x1cmeta <meta ", 0, 100, 6),  # only "<" opens a tag, whatever its case bit
        (b"<\xcdeta ", 0, 100, -1),  # a non-ASCII byte is no letter of "meta"
        (b"", 0, 0, -1),
        (b"<meta ", -5, 100, 0),
    ],
)
def test_positions(finder, data: bytes, start: int, end: int, expected: int) -> None:
    assert finder(data, start, end) == expected


@given(
    st.lists(st.sampled_from(PIECES), max_size=30).map(lambda pieces: "".join(pieces).encode("latin-1")),
    st.integers(min_value=0, max_value=200),
    st.integers(min_value=0, max_value=200),
)
def test_both_forms_agree(data: bytes, start: int, end: int) -> None:
    assert compiled.find_meta_tag(data, start, end) == find_meta_tag_in_python(data, start, end)


def test_the_compiled_form_is_the_one_used_when_built() -> None:
    assert tag_search.COMPILED is True
    assert tag_search.find_meta_tag is compiled.find_meta_tag


@pytest.mark.parametrize("arguments", [(), (b"x", 0), ("<meta ", 0, 5), (b"x", "0", 5)])
def test_bad_arguments_raise(arguments: tuple[object, ...]) -> None:
    with pytest.raises(TypeError):
        compiled.find_meta_tag(*arguments)
