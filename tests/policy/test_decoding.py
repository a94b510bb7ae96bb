"""Decoding only the start of compressed robots.txt bodies."""

from __future__ import annotations

import gzip
import zlib

import brotli
import pytest

from scrapy_robots_rep.policy.decoding import decompressed_prefix

TEXT = b"User-agent: *\nDisallow: /private\n" + b"\n" * 5_000_000


def raw_deflate(data: bytes) -> bytes:
    """Deflate without the zlib header (``zlib.compress`` takes ``wbits`` from Python 3.11 on)."""
    compressor = zlib.compressobj(wbits=-zlib.MAX_WBITS)
    return compressor.compress(data) + compressor.flush()


@pytest.mark.parametrize(
    ("encoding", "body"),
    [
        ("gzip", gzip.compress(TEXT)),
        ("x-gzip", gzip.compress(TEXT)),
        ("GZIP ", gzip.compress(TEXT)),
        ("deflate", zlib.compress(TEXT)),
        ("deflate", raw_deflate(TEXT)),
        ("br", brotli.compress(TEXT)),
        ("gzip, gzip", gzip.compress(gzip.compress(TEXT))),
        ("deflate, br", brotli.compress(zlib.compress(TEXT))),
        ("identity", TEXT),
    ],
)
def test_only_the_first_bytes_are_decoded(encoding: str, body: bytes) -> None:
    assert decompressed_prefix(body, encoding, 1000) == TEXT[:1000]


def test_a_cut_stream_yields_what_it_holds() -> None:
    body = gzip.compress(b"User-agent: *\nDisallow: /x\n" * 1000)
    prefix = decompressed_prefix(body[: len(body) // 2], "gzip", 10**6)
    assert prefix is not None and prefix.startswith(b"User-agent: *\nDisallow: /x\n")


@pytest.mark.parametrize(
    ("encoding", "body"),
    [
        ("zstd", b"(\xb5/\xfd"),
        ("br", b"not brotli at all"),
        ("gzip", b"not gzip"),
        ("gzip, br", brotli.compress(b"plain")),
    ],
)
def test_what_cannot_be_decoded(encoding: str, body: bytes) -> None:
    assert decompressed_prefix(body, encoding, 100) is None
