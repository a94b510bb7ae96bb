"""Regular expressions compiled at their first use instead of at import.

A crawl process pays for every expression its modules compile as they are imported (up to 2 M
instructions each, docs/performance.md, "Process start"); one that reads a kind of value a crawl
may never meet (a ``Request-rate``, a ``Cache-Control`` header, a usage preference) is compiled
when the first such value is read.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import AnyStr


def compiled_on_use(pattern: AnyStr, flags: int = 0) -> Callable[[], re.Pattern[AnyStr]]:
    """The expression ``pattern`` with ``flags``, compiled by the first call; the same object after."""

    @cache
    def compiled() -> re.Pattern[AnyStr]:
        return re.compile(pattern, flags)

    return compiled
