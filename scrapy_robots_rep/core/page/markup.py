"""Finding robots meta tags (and, on request, ``rel="nofollow"`` links) in HTML bytes, without a DOM.

A forward search over bytes with a few regular expressions, stopping only where the reading
context changes or a wanted tag may start: comments, the raw-text elements (``script``,
``style``, ``title``, ``textarea``, ...) whose content is skipped, ``meta``/``base`` (and
``a``/``area`` for links), and the end of the head. Tags are read as an HTML tokeniser reads
them: names case-insensitive, attribute values double-quoted, single-quoted or bare. The head
must end (``</head>`` or ``<body>``) within ``limit`` bytes, and the rest is read up to ``limit``
bytes past it. Unless links are wanted, a quick search first finds the ``<meta>`` tags carrying a
wanted name, and the document is read with that care only as far as the last of them (most pages
have one or none). Nothing here raises on bad bytes.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from scrapy_robots_rep.core.lazy_patterns import compiled_on_use
from scrapy_robots_rep.core.page.tag_search import TAG_REST, Span, find_wanted_meta, mentions_a_name

_RAW_TEXT = frozenset(b"script style title textarea xmp iframe noembed noframes".split())
_HEAD_END = frozenset((b"/head", b"body"))

_CONTEXT_TAGS = rb"/head|b(?:ody|ase)|s(?:cript|tyle)|t(?:itle|extarea)|xmp|iframe|no(?:embed|frames)|plaintext"
"""Tags that change how what follows is read (the head's end, raw text), and ``<base>``."""
_CONTEXT = re.compile(rb"<(?:(!--)|(" + _CONTEXT_TAGS + rb")(?=[\s/>])" + TAG_REST + rb")", re.IGNORECASE)
_STOP_WITH_LINKS = re.compile(
    rb"<(?:(!--)|(" + _CONTEXT_TAGS + rb"|meta|a|area)(?=[\s/>])" + TAG_REST + rb")", re.IGNORECASE
)
_ATTRIBUTE = re.compile(rb"""[\s/]*(?:(>)|(=?[^\s/>=]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|(["'])|([^\s>]*)))?)""")
"""One attribute as an HTML tokeniser reads it, or the tag's end: ``>`` (1), the name (2), its value
double-quoted (3), single-quoted (4), an opening quote never closed (5), or bare (6)."""
_COMMENT_END = re.compile(rb"--!?>")
_META_TAG = re.compile(rb"<meta[\s/]" + TAG_REST, re.IGNORECASE)
_REMEMBERED = 512
"""The longest meta tag whose reading is remembered (bytes)."""
_RAW_TEXT_END: dict[bytes, re.Pattern[bytes]] = {
    name: re.compile(rb"</" + name + rb"[\s/>]", re.IGNORECASE) for name in _RAW_TEXT
}
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
_HTML_START = re.compile(rb"\s*<(?:!doctype\s+html|html|head|meta|title|body|!--)", re.IGNORECASE)
_XHTML_START = compiled_on_use(
    rb"\s*<\?xml[\s?][^>]*>(?:\s*<\?[^>]*>|\s*<!--.*?-->|\s*<!doctype\s[^>]*>)*\s*<html[\s/>]",
    re.IGNORECASE | re.DOTALL,
)
"""An XHTML document: an XML prolog (then processing instructions, comments, a DOCTYPE), an ``<html`` root."""


class MetaTag(NamedTuple):
    """One ``<meta name=... content=...>`` whose name was wanted (a named tuple: one is made per
    page that has one, and a frozen dataclass costs an ``object.__setattr__`` per field)."""

    name: str
    content: str
    markup: str
    offset: int
    in_head: bool


@dataclass(slots=True, eq=False)
class Markup:
    """What a scan found."""

    metas: list[MetaTag] = field(default_factory=list)
    base_href: str | None = None
    nofollow_hrefs: list[str] = field(default_factory=list)


def looks_like_html(body: bytes) -> bool:
    """Whether a body without a Content-Type starts the way an HTML or XHTML document does."""
    if body.startswith(b"\xef\xbb\xbf"):
        body = body[3:]
    elif body.startswith(_UTF16_BOMS):
        return True
    return _HTML_START.match(body, 0, 1024) is not None or _XHTML_START().match(body, 0, 1024) is not None


def scan(body: bytes, names: tuple[bytes, ...], *, limit: int, links: bool = False) -> Markup:
    """Meta tags whose lower-cased name is one of ``names`` (lower-cased bytes), the first
    ``<base href>`` and, with ``links``, the hrefs of ``<a>``/``<area>`` marked ``rel="nofollow"``."""
    if body.startswith(_UTF16_BOMS):
        body = body[: 2 * limit].decode("utf-16", "replace").encode("utf-8")
    return _Scanner(body, names, limit, links).run()


class _Scanner:
    def __init__(self, data: bytes, names: tuple[bytes, ...], limit: int, links: bool) -> None:
        self.data = data
        self.names = names
        self.limit = limit
        self.links = links
        self.stop = _STOP_WITH_LINKS if links else _CONTEXT
        self.found = Markup()
        self.passed: list[Span] = []
        """Where the meta tags the quick search passed on its way to a wanted one start and end."""
        self.in_head = True
        self.end = min(len(data), limit)
        """Where reading stops: ``limit`` bytes from the start while in the head, then past its end."""

    def run(self) -> Markup:
        if self.links:
            self._walk(0)
            return self.found
        pos: int | None = 0
        reach = min(len(self.data), 2 * self.limit)
        while pos is not None and (candidate := self._wanted_meta(pos, reach)) is not None:
            pos = self._walk(pos, until=candidate)
        return self.found

    def _walk(self, pos: int, until: int | None = None) -> int | None:
        """Read from ``pos`` to the end, or, given ``until`` (a wanted meta tag the quick search
        found), through that tag only; return where reading goes on (None: the scan is over).

        Up to ``until`` only what changes how the rest is read stops the walk (comments, raw text,
        the head's end); the meta tags passed on the way are skipped whole, as a tag is read."""
        data = self.data
        while until is None or pos <= until:
            match = self.stop.search(data, pos, self.end)
            if until is not None and (match is None or match.start() > until):
                return self._meta(until, self.end, self.in_head) if until < self.end else None
            if match is None:
                return None
            if until is not None and (passed_end := self._passed_meta_around(match.start())) is not None:
                pos = passed_end
                continue
            next_pos = self._read(match)
            if next_pos is None:
                return None
            pos = next_pos
        return pos

    def _read(self, match: re.Match[bytes]) -> int | None:
        """Read the tag or comment ``match`` found; return where reading goes on (None: the scan is over)."""
        data, start = self.data, match.start()
        if match.group(1):
            return self._after_comment(start, self.end)
        name = match.group(2).lower()
        next_pos: int | None = match.end()
        if name in _HEAD_END:
            if self.in_head:
                self.in_head = False
                self.end = min(len(data), start + self.limit)
        elif name in _RAW_TEXT:
            closing = _RAW_TEXT_END[name].search(data, match.end(), self.end)
            next_pos = None if closing is None else self._after(b">", closing.end() - 1, self.end)
        elif name == b"meta":
            if mentions_a_name(data[start : match.end()], self.names):
                next_pos = self._meta(start, self.end, self.in_head)
        elif name == b"base":
            if self.found.base_href is None:
                next_pos = self._base(start, self.end)
        elif name == b"plaintext":
            next_pos = None
        elif b"nofollow" in data[start : match.end()].lower():
            next_pos = self._link(name, start, self.end)
        return next_pos

    def _passed_meta_around(self, position: int) -> int | None:
        """The end of the passed meta tag ``position`` lies in, if any (a ``<!--`` in an attribute
        value is no comment)."""
        for start, end in self.passed:
            if start < position < end:
                return end
        return None

    def _wanted_meta(self, pos: int, end: int) -> int | None:
        """Where the next ``<meta>`` tag naming a wanted name starts (most pages have one or none),
        found by a quick search that does not track comments or raw text: the walk does that."""
        start, self.passed = find_wanted_meta(self.data, pos, end, self.names)
        return None if start < 0 else start

    def _meta(self, start: int, end: int, in_head: bool) -> int | None:
        data = self.data
        whole = _META_TAG.match(data, start, end)
        read = (
            _meta_tag(data[start : whole.end()]) if whole is not None and whole.end() - start <= _REMEMBERED else None
        )
        if read is None:
            read = _read_meta(data, start, end)
            if read is None:
                return None
        name, content, markup, length = read
        if name in self.names:
            self.found.metas.append(MetaTag(name.decode("ascii", "replace"), content, markup, start, in_head))
        return start + length

    def _base(self, start: int, end: int) -> int | None:
        parsed = _attributes(self.data, start + 5, end)
        if parsed is None:
            return None
        attributes, tag_end = parsed
        if b"href" in attributes:
            self.found.base_href = _text(attributes[b"href"]).strip()
        return tag_end

    def _link(self, name: bytes, start: int, end: int) -> int | None:
        parsed = _attributes(self.data, start + 1 + len(name), end)
        if parsed is None:
            return None
        attributes, tag_end = parsed
        if b"nofollow" in attributes.get(b"rel", b"").lower().split() and b"href" in attributes:
            self.found.nofollow_hrefs.append(_text(attributes[b"href"]).strip())
        return tag_end

    def _after(self, char: bytes, start: int, end: int) -> int | None:
        found = self.data.find(char, start, end)
        return None if found < 0 else found + 1

    def _after_comment(self, start: int, end: int) -> int | None:
        data = self.data
        if data.startswith(b">", start + 4):  # "<!-->"
            return start + 5
        if data.startswith(b"->", start + 4):  # "<!--->"
            return start + 6
        closing = _COMMENT_END.search(data, start + 4, end)
        return None if closing is None else closing.end()


_MetaRead = tuple[bytes, str, str, int]
"""A meta tag as read: its name (stripped, lower-cased), content and markup, and its length."""


def _read_meta(data: bytes, start: int, end: int) -> _MetaRead | None:
    """The meta tag starting at ``start`` as an HTML tokeniser reads it; None if it does not end before ``end``."""
    parsed = _attributes(data, start + 5, end)
    if parsed is None:
        return None
    attributes, tag_end = parsed
    name = attributes.get(b"name", b"").strip().lower()
    content = _text(attributes.get(b"content", b""))
    return name, content, data[start:tag_end].decode("utf-8", "replace"), tag_end - start


@lru_cache(maxsize=1024)
def _meta_tag(tag: bytes) -> _MetaRead | None:
    """:func:`_read_meta` of a whole tag's bytes (``<meta`` through the ``>`` a quote-aware search
    found), remembered: a site repeats the same meta tags on every page. A reading that ends within
    these bytes is the reading of the same bytes within any page (nothing past them is looked at);
    None when the tokeniser reads the tag on past them (a stray quote), for the caller to read in place."""
    return _read_meta(tag, 0, len(tag))


def _attributes(data: bytes, pos: int, end: int) -> tuple[dict[bytes, bytes], int] | None:
    """A tag's attributes (first of each name wins) and the position after its ``>``; None if
    the tag does not end before ``end``."""
    attributes: dict[bytes, bytes] = {}
    while True:
        match = _ATTRIBUTE.match(data, pos, end)
        if match is None or match.start(2) >= end or match.group(5):  # the tag or a quoted value is not closed
            return None
        if match.group(1):
            return attributes, match.end()
        pos = match.end()
        value = match.group(3) or match.group(4) or match.group(6) or b""
        if match.group(6) and value.endswith(b"/") and data[pos : pos + 1] == b">":
            value = value[:-1]  # <meta content=noindex/>: the author meant a self-closing tag
        attributes.setdefault(match.group(2).lower(), value)


def _text(value: bytes) -> str:
    text = value.decode("utf-8", "replace")
    return html.unescape(text) if "&" in text else text
