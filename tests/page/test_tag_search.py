"""The search for wanted ``<meta>`` tags: its compiled form and the Python one find the same."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scrapy_robots_rep.core.page import tag_search
from scrapy_robots_rep.core.page.tag_search import find_wanted_meta_in_python

compiled = pytest.importorskip(
    "scrapy_robots_rep.core.page._tag_search", reason="the compiled search was not built (no C compiler)"
)

FINDERS = [find_wanted_meta_in_python, compiled.find_wanted_meta]
NAMES = (b"my_bot", b"robots")
PIECES = [
    *("<", "<m", "<meta", "<META", "<Meta", "<mEtA", " ", "\t", "\n", "\f", "\v", "/", ">", "x", "<meta>", "\x1cm"),
    *("m", '"', "'", "=", "name=", "robots", "ROBOTS", "My_Bot", "my_", "\xcd", "content=noindex", "_"),
]


@pytest.mark.parametrize("finder", FINDERS)
@pytest.mark.parametrize(
    ("data", "start", "end", "expected"),
    [
        (b"<meta name=robots>", 0, 100, (0, [])),
        (b"ab<META\tNAME=ROBOTS>", 0, 100, (2, [])),
        (b"<Meta/name=My_Bot>", 0, 100, (0, [])),
        (b"<meta charset=x><metadata><meta name='robots'>", 0, 100, (26, [(0, 16)])),
        (b"<meta name=x><meta name=y>", 0, 100, (-1, [(0, 13), (13, 26)])),
        (b"<meta name=robots", 0, 100, (-1, [])),  # never closed
        (b"<meta content='>' name=robots>", 0, 100, (0, [])),  # a quoted > does not end the tag
        (b'<meta content="x name=robots>', 0, 100, (-1, [])),  # an unclosed quote: no tag
        (b"<meta name=robots>", 0, 17, (-1, [])),  # its > lies past the end
        (b"<meta name=robots>", 1, 100, (-1, [])),
        (b"<meta name=rob\xcdots>", 0, 100, (-1, [(0, 19)])),
        (b"<meta name=my-bot>", 0, 100, (-1, [(0, 18)])),  # "_" is not "-"
        (b"\x1cmeta name=robots>", 0, 100, (-1, [])),  # only "<" opens a tag
        (b"", 0, 0, (-1, [])),
        (b"<meta name=robots>", -5, 100, (0, [])),
    ],
)
def test_what_is_found(finder, data: bytes, start: int, end: int, expected: tuple[int, list[tuple[int, int]]]) -> None:
    assert finder(data, start, end, NAMES) == expected


@given(
    st.lists(st.sampled_from(PIECES), max_size=40).map(lambda pieces: "".join(pieces).encode("latin-1")),
    st.integers(min_value=0, max_value=300),
    st.integers(min_value=0, max_value=300),
)
def test_both_forms_agree(data: bytes, start: int, end: int) -> None:
    assert compiled.find_wanted_meta(data, start, end, NAMES) == find_wanted_meta_in_python(data, start, end, NAMES)


@pytest.mark.parametrize("offset", range(150))
def test_both_forms_agree_wherever_a_tag_starts(offset: int) -> None:
    """The compiled search reads sixty-four bytes at a time, then sixteen: a tag at any offset, and
    ends around it."""
    data = b"<p>" * 50
    data = data[:offset] + b"<mEtA name=robots>" + data[offset:]
    for end in range(offset, len(data) + 1):
        assert compiled.find_wanted_meta(data, 0, end, NAMES) == find_wanted_meta_in_python(data, 0, end, NAMES)


@pytest.mark.parametrize("names", [(b"_bot", b"@x"), (b"zz",), (b"z", b"zz"), ()])
@pytest.mark.parametrize(
    "data", [b"<meta name=_BOT>", b"<meta name=@X><meta Zz>", b"<meta name=robots>", b"<meta z><meta \xfaz>"]
)
def test_both_forms_agree_on_other_names(names: tuple[bytes, ...], data: bytes) -> None:
    """The compiled search passes over positions no name starts at: names starting with a
    non-letter, names sharing a first letter, none at all."""
    assert compiled.find_wanted_meta(data, 0, len(data), names) == find_wanted_meta_in_python(data, 0, len(data), names)


def test_the_compiled_form_is_the_one_used_when_built() -> None:
    assert tag_search.COMPILED is True
    assert tag_search.find_wanted_meta is compiled.find_wanted_meta


@pytest.mark.parametrize(
    "arguments",
    [(), (b"x", 0, 1), ("<meta ", 0, 5, NAMES), (b"x", "0", 5, NAMES), (b"x", 0, 5, [b"robots"]), (b"x", 0, 5, ("r",))],
)
def test_bad_arguments_raise(arguments: tuple[object, ...]) -> None:
    with pytest.raises(TypeError):
        compiled.find_wanted_meta(*arguments)
