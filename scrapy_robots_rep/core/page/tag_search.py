"""Finding where the next ``<meta`` tag starts: the one search the page scanner runs over whole
documents, so the only one with a compiled form.

The compiled form (``_tag_search``, built at install time when a C compiler is there) and the
regular expression here find the same positions; :data:`COMPILED` says which one is in use.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_META_START = re.compile(rb"<meta[\s/]", re.IGNORECASE)


def find_meta_tag_in_python(data: bytes, start: int, end: int) -> int:
    """Where the next ``<meta`` (any case, then a space or ``/``) starts in ``data[start:end]``, or -1."""
    match = _META_START.search(data, start, end)
    return -1 if match is None else match.start()


find_meta_tag: Callable[[bytes, int, int], int]
try:
    from scrapy_robots_rep.core.page._tag_search import find_meta_tag
except ImportError:  # installed without a C compiler
    find_meta_tag = find_meta_tag_in_python

COMPILED = find_meta_tag is not find_meta_tag_in_python
"""Whether the compiled search is in use."""
