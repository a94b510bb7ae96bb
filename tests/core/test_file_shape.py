"""``plainly_robots_txt``: the crawl's check that spares it the lint must never hide a file-wide warning."""

from __future__ import annotations

import pytest

from scrapy_robots_rep.core.file_shape import plainly_robots_txt
from scrapy_robots_rep.core.lines import decode
from scrapy_robots_rep.core.lint import file_warnings
from tests.corpus import corpus_dir

CASES = [
    b"User-agent: *\nDisallow: /private\n",
    b"user-agent :*\nallow: /\n",
    b"<!DOCTYPE html><html><body>User-agent: *\nDisallow: /</body></html>",
    b"Just some prose.\nNothing here.\n",
    b"Useragent *\nDisalow /x\n",
    b"",
    b"# only a comment\n",
    b"User-agent: *\nDisallow: /" + b"x" * 600 + b"\n",
]


@pytest.mark.parametrize("body", CASES)
def test_only_plain_files_are_called_plain_and_they_have_no_file_wide_warning(body: bytes) -> None:
    plain = plainly_robots_txt(decode(body, 500), len(body), 500)

    assert plain == (body in (CASES[0], CASES[1]))
    if plain:
        assert file_warnings(body, max_size=500) == []


def test_no_corpus_file_called_plain_has_a_file_wide_warning() -> None:
    plain = 0
    for path in sorted((corpus_dir() / "robots").glob("*.txt")):
        body = path.read_bytes()
        if plainly_robots_txt(decode(body, 500_000), len(body), 500_000):
            plain += 1
            assert file_warnings(body, max_size=500_000) == [], path.name

    assert plain > 0
