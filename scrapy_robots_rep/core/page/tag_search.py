"""Finding the ``<meta>`` tags that mention a wanted name: the one search the page scanner runs
over whole documents, so the only one with a compiled form.

The compiled form (``_tag_search``, built at install time when a C compiler is there) and the
Python one here find the same tags; :data:`COMPILED` says which one is in use.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

TAG_REST = rb"""[^>"']*(?:(?:"[^"]*"|'[^']*')[^>"']*)*>"""
"""The rest of a tag after its name, through its ``>`` (a ``>`` inside quotes does not end it)."""
_META_TAG = re.compile(rb"<meta[\s/]" + TAG_REST, re.IGNORECASE)

Span = tuple[int, int]


def mentions_a_name(tag: bytes, names: tuple[bytes, ...]) -> bool:
    """Whether a tag's bytes mention one of the lower-cased ``names``, letters in any case."""
    return _names_pattern(names).search(tag.lower()) is not None


@lru_cache(maxsize=64)
def _names_pattern(names: tuple[bytes, ...]) -> re.Pattern[bytes]:
    return re.compile(b"|".join(re.escape(name) for name in names) or b"(?!)")


def find_wanted_meta_in_python(data: bytes, start: int, end: int, names: tuple[bytes, ...]) -> tuple[int, list[Span]]:
    """Where the next ``<meta>`` tag (closed before ``end``) that mentions one of ``names`` starts
    in ``data[start:end]`` (-1: none), and where the meta tags passed on the way start and end."""
    passed: list[Span] = []
    while (match := _META_TAG.search(data, start, end)) is not None:
        if mentions_a_name(match.group(), names):
            return match.start(), passed
        passed.append(match.span())
        start = match.end()
    return -1, passed


find_wanted_meta: Callable[[bytes, int, int, tuple[bytes, ...]], tuple[int, list[Span]]]
try:
    from scrapy_robots_rep.core.page._tag_search import find_wanted_meta
except ImportError:  # installed without a C compiler
    find_wanted_meta = find_wanted_meta_in_python

COMPILED = find_wanted_meta is not find_wanted_meta_in_python
"""Whether the compiled search is in use."""
