"""The embedded demo site: several origins on 127.0.0.x, each showing one robots.txt behaviour,
and one whose pages show the page-level directives (robots meta tags, X-Robots-Tag).

Every origin is its own HTTP server (a thread) on its own loopback address, so each is a
separate origin and a separate Scrapy downloader slot, as distinct hosts would be. The demo
spider starts the site when it opens and stops it when it closes.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PAGE = "<html><body><p>A page of the demo site.</p></body></html>"


@dataclass(frozen=True)
class Answer:
    """One HTTP answer; ``{name}`` in the body or location becomes that origin's URL."""

    status: int = 200
    body: str = ""
    content_type: str = "text/plain"
    location: str | None = None
    headers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class DemoOrigin:
    """One origin of the demo site and the behaviour it shows.

    ``routes`` maps a path to the answers served in turn (the last one repeats); other paths
    answer with a small HTML page. ``paths`` are the pages the demo spider requests.
    """

    name: str
    shows: str
    paths: tuple[str, ...]
    routes: Mapping[str, tuple[Answer, ...]] = field(default_factory=dict)


def robots(text: str) -> dict[str, tuple[Answer, ...]]:
    """Routes serving ``text`` as robots.txt."""
    return {"/robots.txt": (Answer(body=text),)}


def page(
    *, head: str = "", body: str = "", robots_header: str | None = None, usage_header: str | None = None
) -> tuple[Answer, ...]:
    """An HTML page with ``head`` in its head and ``body`` in its body, served with an
    ``X-Robots-Tag: <robots_header>`` and a ``Content-Usage: <usage_header>`` header if given."""
    html = f"<html><head><title>A demo page</title>{head}</head><body><p>A demo page.</p>{body}</body></html>"
    named = (("X-Robots-Tag", robots_header), ("Content-Usage", usage_header))
    headers = tuple((name, value) for name, value in named if value is not None)
    return (Answer(body=html, content_type="text/html", headers=headers),)


def links(*paths: str) -> str:
    """Plain links to ``paths``."""
    return " ".join(f'<a href="{path}">{path}</a>' for path in paths)


SITEMAP = """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>{sitemaps}/posts/hello.html</loc></url>
  <url><loc>{sitemaps}/posts/robots.html</loc></url>
  <url><loc>{sitemaps}/drafts/next.html</loc></url>
</urlset>
"""

ORIGINS: tuple[DemoOrigin, ...] = (
    DemoOrigin(
        name="plain",
        shows="plain Allow/Disallow rules; the longest match decides (legacy: the first)",
        paths=("/", "/about.html", "/private/notes.html", "/shop/checkout", "/shop/catalog/books"),
        routes=robots("User-agent: *\nDisallow: /shop\nAllow: /shop/catalog\nDisallow: /private\n"),
    ),
    DemoOrigin(
        name="agent",
        shows="a group for this robot; everyone else is shut out",
        paths=("/", "/news.html", "/admin/users"),
        routes=robots(
            "# Everyone else: stay out.\n"
            "User-agent: *\n"
            "Disallow: /\n"
            "\n"
            "# Our demo robot may crawl, except the admin pages.\n"
            "User-agent: demobot\n"
            "Disallow: /admin\n"
        ),
    ),
    DemoOrigin(
        name="wildcards",
        shows="'*' and '$' in rules (legacy: plain characters)",
        paths=(
            "/docs/guide.html",
            "/docs/guide.pdf",
            "/docs/guide.pdf?download=1",
            "/cart?sessionid=42",
        ),
        routes=robots("User-agent: *\nDisallow: /*.pdf$\nDisallow: /*?sessionid=\n"),
    ),
    DemoOrigin(
        name="missing",
        shows="robots.txt answers 404: everything is allowed",
        paths=("/", "/anything.html"),
        routes={"/robots.txt": (Answer(status=404, body="Not Found"),)},
    ),
    DemoOrigin(
        name="forbidden",
        shows="robots.txt answers 403: allowed (rfc9309) or site closed (legacy)",
        paths=("/", "/page.html"),
        routes={"/robots.txt": (Answer(status=403, body="Forbidden"),)},
    ),
    DemoOrigin(
        name="flaky",
        shows="robots.txt answers 503 once, then recovers: requests wait, then are decided",
        paths=("/", "/tmp/cache.html"),
        routes={
            "/robots.txt": (
                Answer(status=503, body="Service Unavailable"),
                Answer(body="User-agent: *\nDisallow: /tmp\n"),
            )
        },
    ),
    DemoOrigin(
        name="moved",
        shows="robots.txt redirects to another origin, whose file applies here",
        paths=("/", "/old/page.html"),
        routes={"/robots.txt": (Answer(status=301, location="{cdn}/moved/robots.txt"),)},
    ),
    DemoOrigin(
        name="cdn",
        shows="serves the robots.txt that 'moved' redirects to (not crawled)",
        paths=(),
        routes={"/moved/robots.txt": (Answer(body="User-agent: *\nDisallow: /old\n"),)},
    ),
    DemoOrigin(
        name="slow",
        shows="Crawl-delay: 1 spaces out the requests to this origin",
        paths=("/", "/a.html", "/b.html"),
        routes=robots("User-agent: *\nCrawl-delay: 1\n"),
    ),
    DemoOrigin(
        name="sitemaps",
        shows="Sitemap lines; the spider follows the sitemap, and its drafts are disallowed",
        paths=("/sitemap.xml",),
        routes={
            **robots("User-agent: *\nDisallow: /drafts\n\nSitemap: {sitemaps}/sitemap.xml\n"),
            "/sitemap.xml": (Answer(body=SITEMAP, content_type="application/xml"),),
        },
    ),
    DemoOrigin(
        name="pages",
        shows="page-level directives: each page yields an item and links; the page says what may be done",
        paths=(
            "/nofollow.html",
            "/noindex.html",
            "/scoped.html",
            "/other-bot.html",
            "/noarchive.html",
            "/sponsored.html",
        ),
        routes={
            **robots("User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n"),
            "/nofollow.html": page(
                head='<meta name="robots" content="nofollow">', body=links("/hidden/a.html", "/hidden/b.html")
            ),
            "/noindex.html": page(head='<meta name="robots" content="noindex">', body=links("/from-noindex.html")),
            "/scoped.html": page(robots_header="demobot: noindex"),
            "/other-bot.html": page(body=links("/from-other-bot.html"), robots_header="otherbot: noindex, nofollow"),
            "/noarchive.html": page(robots_header="noarchive"),
            "/sponsored.html": page(body=links("/related.html") + ' <a href="/ad.html" rel="nofollow">ad</a>'),
        },
    ),
    DemoOrigin(
        name="usage",
        shows="AIPREF Content-Usage (robots.txt by path, and a header) for REP_PURPOSES; an RSL License line",
        paths=("/articles/one.html", "/articles/free/two.html", "/photos/three.html"),
        routes={
            **robots(
                "License: {usage}/license.xml\n"
                "User-agent: *\n"
                "Allow: /\n"
                "Content-Usage: /articles/ ai-use=n\n"
                "Content-Usage: /articles/free/ ai-use=y\n"
            ),
            "/photos/three.html": page(usage_header="ai-use=n, search=y"),
        },
    ),
)


class DemoSite:
    """All demo origins, served on 127.0.0.11 upwards at free ports."""

    def __init__(self, origins: tuple[DemoOrigin, ...] = ORIGINS) -> None:
        self.origins = origins
        self._servers = {
            origin.name: _OriginServer((f"127.0.0.{11 + index}", 0), origin) for index, origin in enumerate(origins)
        }
        self.urls: dict[str, str] = {
            name: f"http://{server.server_address[0]}:{server.server_address[1]}"
            for name, server in self._servers.items()
        }
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        for server in self._servers.values():
            server.urls = self.urls
            thread = threading.Thread(target=server.serve_forever, daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        for server in self._servers.values():
            server.shutdown()
            server.server_close()
        for thread in self._threads:
            thread.join(timeout=5)

    def robots_statuses(self, name: str) -> tuple[int, ...]:
        """The statuses an origin's ``/robots.txt`` requests were answered with, in turn."""
        return tuple(self._servers[name].robots_statuses)

    def page_gaps(self, name: str) -> tuple[float, ...]:
        """Seconds between consecutive page (not robots.txt) requests to an origin."""
        times = self._servers[name].page_times
        return tuple(later - earlier for earlier, later in itertools.pairwise(times))

    def start_urls(self) -> list[str]:
        """The pages the demo spider requests, origin by origin."""
        return [self.urls[origin.name] + path for origin in self.origins for path in origin.paths]


_PAGE_ANSWERS = (Answer(body=PAGE, content_type="text/html"),)


class _OriginServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self, address: tuple[str, int], origin: DemoOrigin) -> None:
        super().__init__(address, _Handler)
        self.origin = origin
        self.urls: Mapping[str, str] = {}
        self.robots_statuses: list[int] = []
        self.page_times: list[float] = []
        self._turns: dict[str, int] = {}
        self._lock = threading.Lock()

    def answer(self, path: str) -> Answer:
        answers = self.origin.routes.get(path, _PAGE_ANSWERS)
        with self._lock:
            turn = self._turns.get(path, 0)
            self._turns[path] = turn + 1
            answer = answers[min(turn, len(answers) - 1)]
            if path == "/robots.txt":
                self.robots_statuses.append(answer.status)
            else:
                self.page_times.append(time.monotonic())
        return answer


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _OriginServer

    def do_GET(self) -> None:
        answer = self.server.answer(self.path)
        body = answer.body.format_map(self.server.urls).encode()
        self.send_response(answer.status)
        self.send_header("Content-Type", answer.content_type)
        self.send_header("Content-Length", str(len(body)))
        if answer.location is not None:
            self.send_header("Location", answer.location.format_map(self.server.urls))
        for name, value in answer.headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the crawl's report says what happened."""
