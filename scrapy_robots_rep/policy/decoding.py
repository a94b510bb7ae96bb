"""The start of a compressed robots.txt, decoded without ever expanding the rest.

Only the first ``REP_MAX_SIZE`` bytes of a robots.txt count, so a compressed
body is decoded up to that many bytes and no further: a decompression bomb
costs no more than a plain file.
"""

from __future__ import annotations

import zlib

_WBITS = {"gzip": 16 + zlib.MAX_WBITS, "x-gzip": 16 + zlib.MAX_WBITS, "deflate": zlib.MAX_WBITS}


def decompressed_prefix(body: bytes, content_encoding: str, limit: int) -> bytes | None:
    """At most ``limit`` bytes of ``body`` decoded from ``content_encoding``.

    ``None`` when this cannot decode it: an encoding other than gzip or
    deflate, several encodings, or data that is not such a stream. A stream
    that stops early yields what it holds.
    """
    encoding = content_encoding.strip().lower()
    wbits = _WBITS.get(encoding)
    if wbits is None:
        return None
    attempts = (wbits, -zlib.MAX_WBITS) if encoding == "deflate" else (wbits,)  # raw deflate, as some servers send
    for attempt in attempts:
        try:
            return zlib.decompressobj(attempt).decompress(body, limit)
        except zlib.error:
            continue
    return None
