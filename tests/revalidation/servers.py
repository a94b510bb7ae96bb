"""robots.txt routes for the revalidation tests: versions with validators, 304 answers, raw replies.

A :class:`RobotsFile` is a route of ``tests.sites`` (a function of the request) that serves the
versions of a robots.txt in turn, one per request, and answers ``304`` when the request's
``If-None-Match`` or ``If-Modified-Since`` matches the version, as a real origin server would. It
keeps what it answered, so a test can tell full downloads from revalidations as the server saw them.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from email.utils import formatdate

from tests.sites import Hit, Reply

OLD_DATE = "Sat, 01 Jan 2000 00:00:00 GMT"
"""A ``Last-Modified`` value in the past."""


def http_date(offset: float = 0.0, *, now: float | None = None) -> str:
    """The HTTP date ``offset`` seconds from ``now`` (default: the current time)."""
    return formatdate((time.time() if now is None else now) + offset, usegmt=True)


@dataclass(frozen=True)
class Version:
    """One version of a robots.txt: its body, its validators and its freshness headers."""

    body: str
    etag: str | None = None
    last_modified: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)

    def validator_headers(self) -> dict[str, str]:
        headers = {}
        if self.etag is not None:
            headers["ETag"] = self.etag
        if self.last_modified is not None:
            headers["Last-Modified"] = self.last_modified
        return headers


@dataclass(frozen=True)
class Answer:
    """What the server answered to one robots.txt request."""

    hit: Hit
    status: int


class RobotsFile:
    """A robots.txt route: request number ``n`` (0-based) sees ``versions[n]``, the last one repeating.

    ``failing_from`` replaces every answer from that request number on with ``failing_status``
    (a server that fails on refresh).
    """

    def __init__(self, *versions: Version, failing_from: int | None = None, failing_status: int = 503) -> None:
        self._versions = versions
        self._failing_from = failing_from
        self._failing_status = failing_status
        self._lock = threading.Lock()
        self.answers: list[Answer] = []

    def __call__(self, hit: Hit) -> Reply:
        with self._lock:
            number = len(self.answers)
            version = self._versions[min(number, len(self._versions) - 1)]
            if self._failing_from is not None and number >= self._failing_from:
                status = self._failing_status
            else:
                status = 304 if _matches(hit.headers, version) else 200
            self.answers.append(Answer(hit, status))
        headers = {"Content-Type": "text/plain", **version.validator_headers(), **version.headers}
        if status == 200:
            return Reply(body=version.body.encode(), headers=headers)
        if status == 304:
            return Reply(status=304, headers={name: value for name, value in headers.items() if name != "Content-Type"})
        return Reply(status=status, body=b"unavailable", headers={"Content-Type": "text/plain"})

    def statuses(self) -> list[int]:
        with self._lock:
            return [answer.status for answer in self.answers]

    def request_headers(self, name: str) -> list[str | None]:
        """The value of the request header ``name`` on every robots.txt request, in order."""
        with self._lock:
            return [_header(answer.hit.headers, name) for answer in self.answers]

    def times(self) -> list[float]:
        with self._lock:
            return [answer.hit.time for answer in self.answers]


def raw_robots(body: str, headers: Callable[[], Mapping[str, str]]) -> Callable[[Hit], Reply]:
    """A robots.txt route answering 200 with ``headers()`` computed at each request, written byte for
    byte: no ``Date`` unless ``headers()`` has one (the test server adds none to such a reply)."""

    def reply(hit: Hit) -> Reply:
        fields = {"Content-Type": "text/plain", **headers(), "Content-Length": str(len(body)), "Connection": "close"}
        head = "\r\n".join(["HTTP/1.1 200 OK", *(f"{name}: {value}" for name, value in fields.items())])
        return Reply(raw=f"{head}\r\n\r\n{body}".encode("latin-1"))

    return reply


def _matches(request_headers: Mapping[str, str], version: Version) -> bool:
    """RFC 9110 §13.2.2: ``If-None-Match`` decides when present; else ``If-Modified-Since``."""
    if_none_match = _header(request_headers, "If-None-Match")
    if if_none_match is not None:
        return version.etag is not None and version.etag in [tag.strip() for tag in if_none_match.split(",")]
    if_modified_since = _header(request_headers, "If-Modified-Since")
    return if_modified_since is not None and if_modified_since == version.last_modified


def _header(headers: Mapping[str, str], name: str) -> str | None:
    for key, value in headers.items():
        if key.lower() == name.lower():
            return value
    return None
