"""``WarcWriter``: every robots.txt request and response of a process as WARC/1.1 records.

Each HTTP exchange of a fetch (every redirect hop, and fetches answered 404 or 503) becomes a
``request`` record and, when an answer came, a ``response`` record referring to it, with
``WARC-Block-Digest`` and ``WARC-Payload-Digest`` computed by warcio. The body is the one the
crawl obtained: Scrapy has already undone any ``Content-Encoding``, so that header is left out
and ``Content-Length`` is the length of the body written.
"""

from __future__ import annotations

from io import BytesIO
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from scrapy_robots_rep.audit.times import rfc3339

if TYPE_CHECKING:
    from scrapy_robots_rep.policy.records import Exchange

_DROPPED_HEADERS = frozenset({"content-encoding", "transfer-encoding", "content-length"})


def warc_path(directory: Path, tag: str) -> Path:
    return directory / f"robots.{tag}.warc.gz"


def _reasons() -> dict[int, str]:
    from http import HTTPStatus

    return {status.value: status.phrase for status in HTTPStatus}


class WarcWriter:
    """Appends the records of one process to ``robots.<host>-<pid>.warc.gz`` (one gzip member per record)."""

    def __init__(self, path: Path) -> None:
        try:
            from warcio.warcwriter import WARCWriter
        except ImportError:
            raise ImportError("REP_AUDIT_WARC = True needs warcio: pip install 'scrapy-robots-rep[warc]'") from None
        self.path = path
        self._file = open(path, "ab")  # noqa: SIM115 - closed by close()
        self._writer: Any = WARCWriter(self._file, gzip=True, warc_version="1.1")
        self._reasons = _reasons()

    def write(self, exchange: Exchange) -> None:
        """The request record of ``exchange`` and, if an answer came, its response record."""
        from warcio.statusandheaders import StatusAndHeaders

        writer = self._writer
        date = rfc3339(exchange.time).replace(".000Z", "Z")
        parts = urlsplit(exchange.url)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        host = [("Host", parts.netloc)] if not any(n.lower() == "host" for n, _ in exchange.request_headers) else []
        request_headers = StatusAndHeaders(
            f"GET {target} HTTP/1.1", host + list(exchange.request_headers), is_http_request=True
        )
        common = {"WARC-Date": date}
        if exchange.address:
            common["WARC-IP-Address"] = exchange.address
        request = writer.create_warc_record(
            exchange.url,
            "request",
            payload=BytesIO(b""),
            length=0,
            http_headers=request_headers,
            warc_headers_dict=dict(common),
        )
        if exchange.status is None:
            writer.write_record(request)
            self._file.flush()
            return
        headers = [(name, value) for name, value in exchange.response_headers if name.lower() not in _DROPPED_HEADERS]
        headers.append(("Content-Length", str(len(exchange.body))))
        status_line = f"{exchange.status} {self._reasons.get(exchange.status, 'Unknown')}"
        response = writer.create_warc_record(
            exchange.url,
            "response",
            payload=BytesIO(exchange.body),
            length=len(exchange.body),
            http_headers=StatusAndHeaders(status_line, headers, protocol="HTTP/1.1"),
            warc_headers_dict=dict(common),
        )
        request.rec_headers.add_header("WARC-Concurrent-To", response.rec_headers.get_header("WARC-Record-ID"))
        writer.write_record(response)
        writer.write_record(request)
        self._file.flush()

    def close(self) -> None:
        self._file.close()
