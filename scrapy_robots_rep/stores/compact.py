"""Records as a fleet's Redis keeps them: the record's JSON, deflated with a preset dictionary.

A record is small JSON made mostly of the same words (field names, ``Disallow: /``, common
paths), so a preset dictionary of them lets even a short record shrink about fivefold: on the
real-file corpus a record takes about 620 bytes instead of 3,100 (``benchmarks/bench_redis_records.py``).
"""

from __future__ import annotations

import zlib

MARKER = b"\x01"
"""First byte of a packed record: data without it is not one (plain JSON starts with ``{``)."""

_WINDOW = -15
"""Raw deflate, no header or checksum (the record's own JSON checks itself)."""

DICTIONARY = (
    b"Disallow: /wp-admin/Allow: /wp-admin/admin-ajax.phpDisallow: /search?Disallow: /*?"
    b"Disallow: /cgi-bin/Disallow: /*.pdf$Disallow: /api/Disallow: /admin/Disallow: /cart"
    b'"]],"fixed":null,"reason":null,"rules":[[false,"/'
    b'{"v":2,"rules":{"v":2,"matching":"rfc9309","group":["*"],"crawl_delay":null,"sitemaps":["https://www.'
    b'/sitemap.xml"],"content_signals":[],"fixed":null,"reason":null,"rules":[[false,"/'
    b'"outcome":"rules","status":200,"fetched_at":17,"expires_at":17,"unreachable_since":null,'
    b'"last_good":"rules","validators":{"etag":null,"last_modified":null},"lifetime_source":"default"}'
)
"""Text records usually contain, latest-most-likely last (deflate finds recent matches cheapest).
Changing it changes the packed form: a record packed with another dictionary reads as unreadable."""


def pack(text: str) -> bytes:
    """``text`` (a record's JSON) as stored."""
    deflate = zlib.compressobj(9, zlib.DEFLATED, _WINDOW, 9, zdict=DICTIONARY)
    return MARKER + deflate.compress(text.encode()) + deflate.flush()


def unpack(data: bytes) -> str:
    """The JSON text of a stored record; ``ValueError`` when ``data`` is not a packed record."""
    if not data.startswith(MARKER):
        raise ValueError("not a packed record")
    inflate = zlib.decompressobj(_WINDOW, zdict=DICTIONARY)
    try:
        return (inflate.decompress(data[1:]) + inflate.flush()).decode()
    except (zlib.error, UnicodeDecodeError) as error:
        raise ValueError(f"unreadable packed record: {error}") from None
