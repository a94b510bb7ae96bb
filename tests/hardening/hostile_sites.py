"""Hostile robots.txt answers for the loopback sites of ``tests.sites``.

Each builder returns a :class:`tests.sites.Reply` (or the body it streams); what a careful
crawler must make of it is asserted by the tests.
"""

from __future__ import annotations

import gzip
import random
import threading
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field

import brotli

from tests.sites import Reply

GB = 1 << 30
CHUNK = 1 << 16


@dataclass
class StreamMeter:
    """Counts what a streamed body really handed to the server, and whether the stream ended."""

    sent: int = 0
    closed: threading.Event = field(default_factory=threading.Event)

    def stream(self, head: bytes, filler: bytes, total: int) -> Iterator[bytes]:
        """``head``, then ``filler`` repeated, up to ``total`` bytes, in 64 KiB chunks."""
        try:
            self.sent += len(head)
            yield head
            block = filler * (CHUNK // len(filler))
            while self.sent < total:
                self.sent += len(block)
                yield block
        finally:
            self.closed.set()


def cut_line_body(max_size: int) -> bytes:
    """Rules, then padding so that an ``Allow`` line straddles byte ``max_size``.

    Kept whole the line allows nothing requested here; cut at the limit and kept, its prefix
    ``Allow: /p`` + 21 ``a`` would allow ``/p`` + 40 ``a`` (which ``Disallow: /p`` forbids).
    """
    head = b"User-agent: *\nDisallow: /p\n"
    cut_line_at = max_size - len(b"Allow: /p") - 21
    padding = b"#" * 79 + b"\n"
    body = head + padding * ((cut_line_at - len(head) - 1) // len(padding))
    body += b"#" * (cut_line_at - len(body) - 1) + b"\n"
    assert len(body) == cut_line_at
    return body + b"Allow: /p" + b"a" * 100 + b"\n"


def compressed_bomb(encoding: str, rules: bytes, expanded: int) -> Reply:
    """A ``Content-Encoding`` bomb: ``rules`` followed by ``expanded`` bytes of blank lines."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS if encoding == "gzip" else zlib.MAX_WBITS)
    parts = [compressor.compress(rules)]
    blank = b"\n" * (1 << 20)
    parts.extend(compressor.compress(blank) for _ in range(expanded // len(blank)))
    parts.append(compressor.flush())
    return Reply(body=b"".join(parts), headers={"Content-Type": "text/plain", "Content-Encoding": encoding})


def double_gzip_bomb(rules: bytes, expanded: int) -> Reply:
    """A gzip bomb gzipped again (``Content-Encoding: gzip, gzip``): a few hundred bytes on the wire."""
    inner = compressed_bomb("gzip", rules, expanded).body
    return Reply(body=gzip.compress(inner), headers={"Content-Type": "text/plain", "Content-Encoding": "gzip, gzip"})


def brotli_bomb(rules: bytes, expanded: int) -> Reply:
    """A ``Content-Encoding: br`` bomb (Scrapy decodes brotli, a dependency of Scrapy)."""
    compressor = brotli.Compressor(quality=1)
    parts = [compressor.process(rules)]
    blank = b"\n" * (1 << 20)
    parts.extend(compressor.process(blank) for _ in range(expanded // len(blank)))
    parts.append(compressor.finish())
    return Reply(body=b"".join(parts), headers={"Content-Type": "text/plain", "Content-Encoding": "br"})


def large_gzip(rules: bytes, lines: int) -> Reply:
    """An honest gzip robots.txt whose compressed size alone passes the size limit (random rules)."""
    noise = random.Random(8)
    body = rules + b"".join(b"Disallow: /%016x\n" % noise.getrandbits(64) for _ in range(lines))
    return Reply(body=gzip.compress(body), headers={"Content-Type": "text/plain", "Content-Encoding": "gzip"})


def random_png(size: int) -> Reply:
    """An image served where robots.txt was expected: a PNG signature and random bytes."""
    noise = random.Random(6).randbytes(size)
    return Reply(body=b"\x89PNG\r\n\x1a\n" + noise, headers={"Content-Type": "image/png"})
