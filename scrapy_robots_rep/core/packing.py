"""Keep long texts compressed while nobody reads them.

A per-origin cache holds many robots.txt groups that are rarely read again once
their rules are compiled: a text of ``PACKED_FROM`` characters or more is kept
deflated (fast level; robots.txt shrinks about fourfold), a shorter one as it is.
"""

from __future__ import annotations

import zlib

PACKED_FROM = 1024
"""Texts at least this long are kept compressed."""

Packed = str | bytes
"""A text as kept: itself, or its UTF-8 deflated."""


def pack(text: str) -> Packed:
    """``text`` as kept: compressed when it is long."""
    if len(text) < PACKED_FROM:
        return text
    return zlib.compress(text.encode("utf-8", "surrogatepass"), 1)


def unpack(packed: Packed) -> str:
    """The text ``pack`` was given."""
    if isinstance(packed, str):
        return packed
    return zlib.decompress(packed).decode("utf-8", "surrogatepass")
