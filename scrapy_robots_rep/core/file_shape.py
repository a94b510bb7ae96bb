"""Whether a body is plainly a robots.txt, told without the lint (``core/lint.py``).

A crawl asks it of every robots.txt it fetches, to warn once about an origin that serves an HTML
page or a file over the size limit: most files are plainly robots.txt files (within the size, not
HTML, a line holding a known field as usually written), and for them the lint is never imported.
The expressions are the lint's too: one definition of what "plainly" means.
"""

from __future__ import annotations

import re

from scrapy_robots_rep.core.fields import KNOWN_FIELDS

HTML = re.compile(r"<\s*(?:!doctype\s+html|html|head|body)[\s>]", re.IGNORECASE)
HTML_LOOKS_AT = 4096
"""How far into the text ``HTML`` is looked for."""
USUAL_FIELD_LINE = re.compile(
    r"^[ \t\v\f]*(?:" + "|".join(map(re.escape, sorted(KNOWN_FIELDS))) + r")[ \t\v\f]*:",
    re.IGNORECASE | re.ASCII | re.MULTILINE,
)
"""A line holding a known field as usually written (``Disallow:``, ``user-agent :``, any ASCII case):
the parser reads it as that field, so a text with one such line is a robots.txt."""


def plainly_robots_txt(text: str, size: int, max_size: int) -> bool:
    """True if ``text`` (a body of ``size`` bytes, decoded) is within ``max_size``, not an HTML page
    and has a line holding a known field as usually written: nothing the lint's file-wide check warns of."""
    return size <= max_size and not HTML.search(text, 0, HTML_LOOKS_AT) and USUAL_FIELD_LINE.search(text) is not None
