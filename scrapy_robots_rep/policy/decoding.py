"""The start of a compressed robots.txt, decoded without ever expanding the rest.

Only the first ``REP_MAX_SIZE`` bytes of a robots.txt count, so a compressed
body is decoded up to that many bytes and no further: a decompression bomb
costs no more than a plain file.
"""

from __future__ import annotations

import importlib
import zlib
from collections.abc import Callable

_GZIP_WBITS = 16 + zlib.MAX_WBITS

# An inner layer of a multiply encoded body is itself compressed data; it may be
# slightly longer than the text it encodes, so it gets this much room.
_INNER_LAYER_ROOM = 2


def decompressed_prefix(body: bytes, content_encoding: str, limit: int) -> bytes | None:
    """At most ``limit`` bytes of ``body`` decoded from ``content_encoding``.

    ``content_encoding`` lists the codings in the order the server applied
    them (``"gzip"``, ``"gzip, br"``); they are undone last first. ``None``
    when this cannot decode it: a coding other than gzip, deflate, br and
    identity, or data that is not such a stream. A stream that stops early
    yields what it holds.
    """
    codings = [coding.strip().lower() for coding in content_encoding.split(",") if coding.strip()]
    data: bytes | None = body
    for remaining, coding in enumerate(reversed(codings)):
        decode = _DECODERS.get(coding)
        if decode is None or data is None:
            return None
        bound = limit if remaining == len(codings) - 1 else limit * _INNER_LAYER_ROOM + 65_536
        data = decode(data, bound)
    return data


def _gzip(data: bytes, limit: int) -> bytes | None:
    return _inflate(data, limit, (_GZIP_WBITS,))


def _deflate(data: bytes, limit: int) -> bytes | None:
    return _inflate(data, limit, (zlib.MAX_WBITS, -zlib.MAX_WBITS))  # raw deflate, as some servers send


def _inflate(data: bytes, limit: int, attempts: tuple[int, ...]) -> bytes | None:
    for wbits in attempts:
        try:
            return zlib.decompressobj(wbits).decompress(data, limit)
        except zlib.error:
            continue
    return None


def _brotli(data: bytes, limit: int) -> bytes | None:
    try:
        brotli = importlib.import_module("brotli")  # optional, and untyped
    except ImportError:
        return None
    try:
        return bytes(brotli.Decompressor().process(data, output_buffer_limit=limit)[:limit])
    except brotli.error:
        return None


def _identity(data: bytes, limit: int) -> bytes:
    return data[:limit]


_DECODERS: dict[str, Callable[[bytes, int], bytes | None]] = {
    "gzip": _gzip,
    "x-gzip": _gzip,
    "deflate": _deflate,
    "br": _brotli,
    "identity": _identity,
}
