"""Loopback HTTP sites for tests: each site is one origin on its own 127.0.0.x address.

A site answers from a route table (path -> reply) and logs every request it sees, so a test
can check from the server's side what a crawl really fetched. Distinct addresses give every
site its own Scrapy downloader slot, as distinct hosts would have.
"""

from __future__ import annotations

import itertools
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

from scrapy import exceptions as scrapy_exceptions
from twisted.internet import defer
from twisted.internet.interfaces import IResolverSimple
from zope.interface import implementer

PAGE = b"<html><body>ok</body></html>"


@dataclass(frozen=True)
class Reply:
    """One HTTP answer.

    ``body`` may be bytes or a zero-argument callable returning an iterable of chunks, for
    bodies too large to hold (a streamed 1 GB robots.txt). ``delay`` waits before the status
    line; ``hang`` holds the connection open, silent, until the site stops; ``trickle`` sends
    the body one byte at a time with that many seconds between bytes; ``raw`` replaces the
    whole response with these bytes, written as they are (garbage status lines).
    """

    status: int = 200
    body: bytes | Callable[[], Iterable[bytes]] = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    hang: bool = False
    trickle: float = 0.0
    raw: bytes | None = None

    def chunks(self) -> Iterable[bytes]:
        return [self.body] if isinstance(self.body, bytes) else self.body()


class HeldReply:
    """A route answering ``reply`` once the test opens it (say, from a crawl's signal), or
    after ``timeout`` seconds: what happens before the answer happens while the request waits."""

    def __init__(self, reply: Reply, timeout: float = 60.0) -> None:
        self.reply = reply
        self.timeout = timeout
        self._opened = threading.Event()

    def open(self) -> None:
        self._opened.set()

    def __call__(self, hit: Hit) -> Reply:
        self._opened.wait(self.timeout)
        return self.reply


def redirect(location: str, status: int = 301) -> Reply:
    """A redirect to ``location`` (absolute or relative)."""
    return Reply(status=status, headers={"Location": location})


def text(body: str | bytes, status: int = 200, **headers: str) -> Reply:
    """A plain-text answer, such as a robots.txt body."""
    data = body.encode() if isinstance(body, str) else body
    return Reply(status=status, body=data, headers={"Content-Type": "text/plain", **headers})


Answer = Reply | Callable[["Hit"], Reply]
"""A fixed reply, or a function of the request (it runs in the server's thread and may block)."""

Route = Answer | list[Answer]
"""An answer, or a list of answers served in turn, its last one repeating."""


@dataclass(frozen=True)
class Hit:
    """One request as the server saw it."""

    method: str
    path: str
    headers: dict[str, str]
    time: float


class Site:
    """One origin served on ``host`` at a free port; pages not in ``routes`` answer 200 HTML."""

    def __init__(self, host: str, routes: dict[str, Route] | None = None) -> None:
        self.routes: dict[str, Route] = dict(routes or {})
        self.log: list[Hit] = []
        self._turns: dict[str, int] = {}
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server = _Server((host, 0), _Handler)
        self._server.site = self
        self.host, self.port = self._server.server_address[:2]
        self.url = f"http://{self.host}:{self.port}"
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)
        self._thread.start()

    def __repr__(self) -> str:
        return f"<Site {self.url}>"

    def hits(self, path: str | None = None) -> list[Hit]:
        """Requests seen so far, all or those for one path (path plus query)."""
        with self._lock:
            return [hit for hit in self.log if path is None or hit.path == path]

    def paths(self) -> list[str]:
        return [hit.path for hit in self.hits()]

    def stop(self) -> None:
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def _reply_for(self, hit: Hit) -> Reply:
        with self._lock:
            self.log.append(hit)
            route = self.routes.get(hit.path)
            if isinstance(route, list):
                turn = self._turns.get(hit.path, 0)
                self._turns[hit.path] = turn + 1
                route = route[min(turn, len(route) - 1)]
        if route is None:
            return Reply(body=PAGE, headers={"Content-Type": "text/html"})
        return route(hit) if callable(route) else route


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True
    request_queue_size = 128
    site: Site

    def handle_error(self, request: object, client_address: object) -> None:
        """Stay quiet when a client drops its connection (a crawl does, at every close)."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def do_GET(self) -> None:
        site = self.server.site
        hit = Hit(self.command, self.path, dict(self.headers.items()), time.monotonic())
        reply = site._reply_for(hit)
        if reply.delay and site._stopping.wait(reply.delay):
            return
        if reply.hang:
            site._stopping.wait()
            return
        if reply.raw is not None:
            self.wfile.write(reply.raw)
            self.close_connection = True
            return
        self._send(reply, site)

    do_HEAD = do_GET

    def _send(self, reply: Reply, site: Site) -> None:
        self.send_response(reply.status)
        body = reply.body if isinstance(reply.body, bytes) else None
        for name, value in reply.headers.items():
            self.send_header(name, value)
        if body is not None and not reply.trickle:
            self.send_header("Content-Length", str(len(body)))
        else:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        if self.command == "HEAD":
            return
        try:
            for chunk in _paced(reply.chunks(), reply.trickle, site._stopping):
                self.wfile.write(chunk)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def log_message(self, format: str, *args: object) -> None:
        """Keep test output quiet; the site's own log records every request."""


def _paced(chunks: Iterable[bytes], pause: float, stopping: threading.Event) -> Iterator[bytes]:
    if not pause:
        yield from chunks
        return
    for chunk in chunks:
        for index in range(len(chunk)):
            if stopping.wait(pause):
                return
            yield chunk[index : index + 1]


class Gate:
    """Holds answers back until enough requests have reached the routes that open it.

    Tests judge an order of events the servers saw with it, not durations: "the healthy origin's
    pages were all served while robots.txt was still unanswered" holds when robots.txt is a
    :meth:`hold` route, the pages are :meth:`opening` routes and :attr:`kept_order` is true. A held
    request that waits :attr:`timeout` seconds is answered anyway (the crawl then ends), and the
    gate no longer keeps its order.
    """

    def __init__(self, needed: int = 1, timeout: float = 10.0) -> None:
        self.needed = needed
        self.timeout = timeout
        self._arrived = 0
        self._timeouts = 0
        self._lock = threading.Lock()
        self._open = threading.Event()

    @property
    def opened(self) -> bool:
        return self._open.is_set()

    @property
    def kept_order(self) -> bool:
        """The gate opened, and every request it held was answered only then."""
        with self._lock:
            return self.opened and self._timeouts == 0

    def hold(self, answer: Answer) -> Callable[[Hit], Reply]:
        """A route answering ``answer`` once the gate is open (at once if it already is)."""

        def held(hit: Hit) -> Reply:
            if not self._open.wait(self.timeout):
                with self._lock:
                    self._timeouts += 1
            return answer(hit) if callable(answer) else answer

        return held

    def opening(self, answer: Answer | None = None) -> Callable[[Hit], Reply]:
        """A route answering ``answer`` (an HTML page by default) that counts towards opening the gate."""

        def opens(hit: Hit) -> Reply:
            with self._lock:
                self._arrived += 1
                if self._arrived >= self.needed:
                    self._open.set()
            if answer is None:
                return Reply(body=PAGE, headers={"Content-Type": "text/html"})
            return answer(hit) if callable(answer) else answer

        return opens


_next_address = itertools.count()


def free_loopback_host() -> str:
    """A loopback address not used by an earlier site of this process (127.0.0.2 upwards)."""
    while True:
        number = next(_next_address)
        host = f"127.0.{number // 250}.{number % 250 + 2}"
        with socket.socket() as probe:
            try:
                probe.bind((host, 0))
            except OSError:
                continue
        return host


class Sites:
    """Starts sites on demand and stops them all at the end (a context manager)."""

    def __init__(self) -> None:
        self._sites: list[Site] = []

    def __enter__(self) -> Sites:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def start(self, routes: dict[str, Route] | None = None, host: str | None = None) -> Site:
        site = Site(host or free_loopback_host(), routes)
        self._sites.append(site)
        return site

    def stop(self) -> None:
        while self._sites:
            self._sites.pop().stop()


REFUSED_ERROR = (
    "DownloadConnectionRefusedError"
    if hasattr(scrapy_exceptions, "DownloadConnectionRefusedError")
    else "ConnectionRefusedError"
)
"""The class name of the error a refused connection raises: Scrapy's own from 2.15 on, Twisted's before."""


def closed_port_url(host: str = "127.0.0.1") -> str:
    """An http URL on a port nothing listens on (connection refused)."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        port = probe.getsockname()[1]
    return f"http://{host}:{port}"


def streamed(head: bytes, filler: bytes, total: int, produced: list[int]) -> Callable[[], Iterator[bytes]]:
    """A huge body: ``head`` then ``filler`` repeated up to ``total`` bytes.

    ``produced`` receives the number of bytes handed to the server, which stops
    early when the client cuts the connection.
    """

    def chunks() -> Iterator[bytes]:
        produced.append(len(head))
        yield head
        while produced[-1] < total:
            produced.append(produced[-1] + len(filler))
            yield filler

    return chunks


@implementer(IResolverSimple)
class _LoopbackNames:
    """Resolves every host name under ``.test`` to 127.0.0.1; other names as before."""

    def __init__(self, fallback: IResolverSimple) -> None:
        self._fallback = fallback

    def getHostByName(self, name: str, timeout: Any = ()) -> defer.Deferred[str]:
        if name.endswith(".test"):
            return defer.succeed("127.0.0.1")
        return self._fallback.getHostByName(name, timeout)


@contextmanager
def loopback_test_names() -> Iterator[None]:
    """Let ``http://<anything>.test:<port>`` reach a site on 127.0.0.1: many origins, one server."""
    from twisted.internet import reactor

    previous = reactor.installResolver(_LoopbackNames(reactor.resolver))
    try:
        yield
    finally:
        reactor.installResolver(previous)


NAMES_SETTING = "TEST_RESOLVER_NAMES"
"""The setting :class:`MappedNames` reads: host name -> the addresses it answers, in turn, round and round."""


@implementer(IResolverSimple)
class MappedNames:
    """A crawl's resolver for tests, set through Scrapy's resolver setting (``tests.crawling.RESOLVER_SETTING``).

    It answers the names of :data:`NAMES_SETTING` from that table, each lookup with the next address
    of its list (one address: always that one; two: a name that changes its answer, DNS rebinding),
    and every other name as the resolver it replaced. ``lookups`` lists the names asked, in order.
    """

    lookups: ClassVar[list[str]] = []

    def __init__(self, reactor: Any, names: dict[str, list[str]]) -> None:
        self.reactor = reactor
        self._fallback: IResolverSimple = reactor.resolver
        self._answers = {name: itertools.cycle(addresses) for name, addresses in names.items()}
        MappedNames.lookups = []

    @classmethod
    def from_crawler(cls, crawler: Any, reactor: Any) -> MappedNames:
        return cls(reactor, dict(crawler.settings.getdict(NAMES_SETTING)))

    def install_on_reactor(self) -> None:
        self.reactor.installResolver(self)

    def getHostByName(self, name: str, timeout: Any = ()) -> defer.Deferred[str]:
        MappedNames.lookups.append(name)
        answers = self._answers.get(name)
        if answers is None:
            return self._fallback.getHostByName(name, timeout)
        return defer.succeed(next(answers))
