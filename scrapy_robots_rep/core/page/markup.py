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

from scrapy_robots_rep.core.page.tag_search import find_meta_tag

_RAW_TEXT = frozenset(b"script style title textarea xmp iframe noembed noframes".split())
_LINK_TAGS = frozenset((b"a", b"area"))
_HEAD_END = frozenset((b"/head", b"body"))

_TAG_REST = rb"""[^>"']*(?:(?:"[^"]*"|'[^']*')[^>"']*)*>"""
"""The rest of a tag after its name, through its ``>`` (a ``>`` inside quotes does not end it)."""
_STOPS = rb"/head|body|meta|base|script|style|title|textarea|xmp|iframe|noembed|noframes|plaintext"
_STOP = re.compile(rb"<(?:(!--)|(" + _STOPS + rb")(?=[\s/>])" + _TAG_REST + rb")", re.IGNORECASE)
_STOP_WITH_LINKS = re.compile(rb"<(?:(!--)|(" + _STOPS + rb"|a|area)(?=[\s/>])" + _TAG_REST + rb")", re.IGNORECASE)
_META_TAG = re.compile(rb"<meta[\s/]" + _TAG_REST, re.IGNORECASE)
_SKIP = re.compile(rb"[\s/]*")
_ATTRIBUTE_NAME = re.compile(rb"=?[^\s/>=]*")
_EQUALS = re.compile(rb"\s*=\s*")
_BARE_VALUE = re.compile(rb"[^\s>]*")
_COMMENT_END = re.compile(rb"--!?>")
_RAW_TEXT_END: dict[bytes, re.Pattern[bytes]] = {
    name: re.compile(rb"</" + name + rb"[\s/>]", re.IGNORECASE) for name in _RAW_TEXT
}
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
_HTML_START = re.compile(rb"\s*<(?:!doctype\s+html|html|head|meta|title|body|!--)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class MetaTag:
    """One ``<meta name=... content=...>`` whose name was wanted."""

    name: str
    content: str
    markup: str
    offset: int
    in_head: bool


@dataclass(slots=True)
class Markup:
    """What a scan found."""

    metas: list[MetaTag] = field(default_factory=list)
    base_href: str | None = None
    nofollow_hrefs: list[str] = field(default_factory=list)


def looks_like_html(body: bytes) -> bool:
    """Whether a body without a Content-Type starts the way an HTML document does."""
    if body.startswith(b"\xef\xbb\xbf"):
        body = body[3:]
    elif body.startswith(_UTF16_BOMS):
        return True
    return _HTML_START.match(body, 0, 1024) is not None


def scan(body: bytes, names: frozenset[str], *, limit: int, links: bool = False) -> Markup:
    """Meta tags whose lower-cased name is in ``names``, the first ``<base href>`` and, with
    ``links``, the hrefs of ``<a>``/``<area>`` marked ``rel="nofollow"``."""
    if body.startswith(_UTF16_BOMS):
        body = body[: 2 * limit].decode("utf-16", "replace").encode("utf-8")
    return _Scanner(body, _wanted(names), limit, links).run()


@lru_cache(maxsize=64)
def _wanted(names: frozenset[str]) -> tuple[frozenset[bytes], re.Pattern[bytes]]:
    """The wanted names as lower-cased bytes, and a pattern finding any of them in lower-cased bytes."""
    encoded = frozenset(name.lower().encode() for name in names if name)
    return encoded, re.compile(b"|".join(re.escape(name) for name in sorted(encoded)) or b"(?!)")


class _Scanner:
    def __init__(
        self, data: bytes, wanted: tuple[frozenset[bytes], re.Pattern[bytes]], limit: int, links: bool
    ) -> None:
        self.data = data
        self.names, self.names_pattern = wanted
        self.limit = limit
        self.links = links
        self.stop = _STOP_WITH_LINKS if links else _STOP
        self.found = Markup()
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
        """Read from ``pos`` through the tag at ``until`` (or to the end); return where reading
        goes on (None: the scan is over)."""
        data = self.data
        while until is None or pos <= until:
            match = self.stop.search(data, pos, self.end)
            if match is None:
                return None
            start = match.start()
            if match.group(1):
                next_pos = self._after_comment(start, self.end)
            else:
                name = match.group(2).lower()
                next_pos = match.end()
                if name in _HEAD_END:
                    if self.in_head:
                        self.in_head = False
                        self.end = min(len(data), start + self.limit)
                elif name in _RAW_TEXT:
                    closing = _RAW_TEXT_END[name].search(data, next_pos, self.end)
                    next_pos = None if closing is None else self._after(b">", closing.end() - 1, self.end)
                elif name == b"meta":
                    # Before ``until`` a meta tag is known not to be wanted: the quick search said so.
                    if start == until or (until is None and self._names_a_wanted(start, next_pos)):
                        next_pos = self._meta(start, self.end, self.in_head)
                elif name == b"base":
                    if self.found.base_href is None:
                        next_pos = self._base(start, self.end)
                elif name == b"plaintext":
                    next_pos = None
                elif b"nofollow" in data[start:next_pos].lower():
                    next_pos = self._link(name, start, self.end)
            if next_pos is None:
                return None
            pos = next_pos
        return pos

    def _wanted_meta(self, pos: int, end: int) -> int | None:
        """Where the next ``<meta>`` tag naming a wanted name starts (most pages have one or none),
        found by a quick search that does not track comments or raw text: the walk does that."""
        data = self.data
        while (start := find_meta_tag(data, pos, end)) >= 0:
            match = _META_TAG.match(data, start, end)
            if match is None:  # not closed before ``end``
                pos = start + 1
            elif self._names_a_wanted(start, match.end()):
                return start
            else:
                pos = match.end()
        return None

    def _names_a_wanted(self, start: int, end: int) -> bool:
        """Whether the tag between ``start`` and ``end`` mentions a wanted name anywhere (its
        attributes are read only when it does)."""
        return self.names_pattern.search(self.data[start:end].lower()) is not None

    def _meta(self, start: int, end: int, in_head: bool) -> int | None:
        parsed = _attributes(self.data, start + 5, end)
        if parsed is None:
            return None
        attributes, tag_end = parsed
        name = attributes.get(b"name", b"").strip().lower()
        if name in self.names:
            content = _text(attributes.get(b"content", b""))
            markup = self.data[start:tag_end].decode("utf-8", "replace")
            self.found.metas.append(MetaTag(name.decode("ascii", "replace"), content, markup, start, in_head))
        return tag_end

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


def _attributes(data: bytes, pos: int, end: int) -> tuple[dict[bytes, bytes], int] | None:
    """A tag's attributes (first of each name wins) and the position after its ``>``; None if
    the tag does not end before ``end``."""
    attributes: dict[bytes, bytes] = {}
    while True:
        pos = _SKIP.match(data, pos, end).end()  # type: ignore[union-attr]
        if pos >= end:
            return None
        if data[pos] == 0x3E:  # ">"
            return attributes, pos + 1
        name_match = _ATTRIBUTE_NAME.match(data, pos, end)
        name = name_match.group().lower()  # type: ignore[union-attr]
        pos = name_match.end()  # type: ignore[union-attr]
        value = b""
        equals = _EQUALS.match(data, pos, end)
        if equals is not None:
            pos = equals.end()
            if pos >= end:
                return None
            quote = data[pos : pos + 1]
            if quote in (b'"', b"'"):
                closing = data.find(quote, pos + 1, end)
                if closing < 0:
                    return None
                value, pos = data[pos + 1 : closing], closing + 1
            else:
                bare = _BARE_VALUE.match(data, pos, end)
                value, pos = bare.group(), bare.end()  # type: ignore[union-attr]
                if value.endswith(b"/") and data[pos : pos + 1] == b">":
                    value = value[:-1]  # <meta content=noindex/>: the author meant a self-closing tag
        attributes.setdefault(name, value)


def _text(value: bytes) -> str:
    text = value.decode("utf-8", "replace")
    return html.unescape(text) if "&" in text else text
