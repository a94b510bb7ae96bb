"""``RobotsFetcher``: one origin's robots.txt, fetched through Scrapy's downloader.

The middleware and the command-line tools share it, so both see the same
requests, redirect decisions, size limit, timeout and status policy.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
import socket
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from scrapy import signals as scrapy_signals
from scrapy.exceptions import IgnoreRequest, StopDownload
from scrapy.http import Request, Response
from scrapy.http.request import NO_CALLBACK
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.httpobj import urlparse_cached
from scrapy.utils.reactor import is_reactor_installed
from twisted.internet.defer import CancelledError, Deferred, DeferredSemaphore

from scrapy_robots_rep.crawl.meta_keys import DONT_OBEY, ROBOTS_FETCH
from scrapy_robots_rep.crawl.outcomes import Outcomes
from scrapy_robots_rep.crawl.scrapy_compat import no_server_answered
from scrapy_robots_rep.downloader.concurrency import beside_pages
from scrapy_robots_rep.policy.decoding import decompressed_prefix
from scrapy_robots_rep.policy.freshness import Validators, http_date
from scrapy_robots_rep.policy.origin import robots_url
from scrapy_robots_rep.policy.records import Exchange, FetchResult
from scrapy_robots_rep.policy.settings import RepSettings
from scrapy_robots_rep.policy.stat_names import Stat
from scrapy_robots_rep.policy.status import Hop, status_policy

if TYPE_CHECKING:
    from scrapy.core.downloader import Downloader
    from scrapy.crawler import Crawler
    from scrapy.http import Headers

    from scrapy_robots_rep.policy.addresses import AddressRule

logger = logging.getLogger(__name__)


def _fetch_takes_spider() -> bool:
    """Whether ``Downloader.fetch`` still requires the spider (Scrapy before 2.14)."""
    from scrapy.core.downloader import Downloader

    parameter = inspect.signature(Downloader.fetch).parameters.get("spider")
    return parameter is not None and parameter.default is inspect.Parameter.empty


_FETCH_TAKES_SPIDER = _fetch_takes_spider()


@dataclass(slots=True, eq=False)
class _Transfer:
    """What has arrived so far for one robots.txt request."""

    received: int = 0
    raw: Response | None = None


FETCHES_PER_CONCURRENT_REQUEST = 4
"""robots.txt fetches in flight at once, per ``CONCURRENT_REQUESTS``: enough that hanging
origins do not hold back the fetches of healthy ones, few enough to bound sockets and memory."""


class RobotsFetcher:
    """Fetches ``<origin>/robots.txt`` through the downloader, making its own redirect decisions.

    The request bypasses Scrapy's redirect and retry middlewares and has its
    own timeout; its body is cut after ``REP_MAX_SIZE`` bytes, and a
    compressed body is decoded only that far. A fetch in flight does not count
    against ``CONCURRENT_REQUESTS``, so hanging robots.txt never take the
    download capacity pages need (``docs/behaviour.md`` §5).

    A redirect from a public origin into an internal address is refused by the address rule
    (:mod:`scrapy_robots_rep.policy.addresses`), before its request when the address is known.
    """

    address_rule: AddressRule | None = None
    """How addresses are judged (None: the address rule itself, :func:`_address_rule`); tests replace
    it to let one loopback address play a public origin."""

    def __init__(self, crawler: Crawler, outcomes: Outcomes, settings: RepSettings) -> None:
        self._crawler = crawler
        self._outcomes = outcomes
        self._settings = settings
        self._policy = status_policy(settings.status_policy)
        self._transfers: dict[Request, _Transfer] = {}
        # Each handler one object, connected strongly (disconnected as soon as it is not needed): a
        # weak receiver is looked up through pydispatch's Python weak reference at every dispatch,
        # and in a broad crawl every page's chunks are dispatched to these while fetches are in flight.
        self._bytes_handler = self._on_bytes_received
        self._downloaded_handler = self._on_response_downloaded
        concurrency = crawler.settings.getint("CONCURRENT_REQUESTS")
        self._slots = DeferredSemaphore(concurrency * FETCHES_PER_CONCURRENT_REQUEST) if concurrency > 0 else None

    async def fetch(self, origin: str, validators: Validators | None = None) -> FetchResult:
        """Fetch ``origin``'s robots.txt; conditional when ``validators`` are given."""
        if self._slots is None:
            return await self._fetch(origin, validators)
        acquired = self._slots.acquire()
        if not acquired.called:  # a free slot is taken at once, without a turn of the event loop
            await maybe_deferred_to_future(acquired)
        try:
            return await self._fetch(origin, validators)
        finally:
            self._slots.release()

    async def _fetch(self, origin: str, validators: Validators | None) -> FetchResult:
        url = robots_url(origin)
        outcomes = self._outcomes
        outcomes.count(Stat.ROBOTS_FETCHES)
        hops = 0
        exchanges: list[Exchange] = []
        origin_address: str | None = None
        while True:
            request = self._request(url, validators)
            outcomes.count(Stat.SCRAPY_REQUEST_COUNT)
            started = time.time()
            try:
                response = await self._download(request)
            except CancelledError:
                raise
            except Exception as error:  # any download failure is a judgement, not a crash
                outcomes.count(Stat.ROBOTS_ERROR, type(error).__name__)
                reason = f"robots.txt fetch failed: {type(error).__name__}: {error}"
                exchanges.append(Exchange(url, started, _pairs(request.headers), error=reason))
                hop = self._policy.judge_failure(reason)
                no_server = no_server_answered(error)
                return FetchResult(origin, hop, exchanges=tuple(exchanges), no_server=no_server)
            outcomes.count(Stat.SCRAPY_RESPONSE_COUNT)
            outcomes.count(Stat.SCRAPY_RESPONSE_STATUS, response.status)
            outcomes.count(Stat.ROBOTS_STATUS, response.status)
            proxied = _proxied(request, response)
            address = _address(response, proxied)
            sent = _pairs(response.request.headers if response.request is not None else request.headers)
            if origin_address is None:
                origin_address = address
            elif (refused := self._answered_from_internal(origin_address, url, address)) is not None:
                exchanges.append(Exchange(url, started, sent, address=address, error=refused.reason))
                return FetchResult(origin, refused, exchanges=tuple(exchanges))
            exchanges.append(
                Exchange(url, started, sent, response.status, _pairs(response.headers), response.body, address)
            )
            location = response.headers.get(b"Location")
            hop = self._policy.judge_response(
                response.status,
                url,
                location.decode("latin-1") if location else None,
                hops,
                max_redirects=self._settings.max_redirects,
                conditional=validators is not None,
            )
            if hop.follow is not None and (refused := await self._refused(origin_address, hop.follow, proxied)):
                return FetchResult(origin, refused, exchanges=tuple(exchanges))
            if hop.follow is None:
                headers = _headers(response, time.time())
                return FetchResult(origin, hop, response.status, response.body, headers, tuple(exchanges))
            logger.debug("%s", hop.reason, extra={"spider": self._crawler.spider})
            url = hop.follow
            hops += 1

    async def _refused(self, origin_address: str, target: str, proxied: bool) -> Hop | None:
        """The hop refusing a redirect from a public origin to ``target`` by the address rule, or None.

        The target's host is judged as written (an address in any spelling, ``localhost``); a name
        is resolved first, through the crawl's own resolver, unless a proxy resolves it instead.
        """
        from scrapy_robots_rep.policy.addresses import parse_host

        rule = self._address_rule()
        if rule.is_internal(origin_address):
            return None
        host = urlsplit(target).hostname or ""
        literal = parse_host(host)
        candidates = [host if literal is None else str(literal)]
        if not proxied and literal is None and rule.block(host) is None:
            candidates = await self._resolved(host)
        for candidate in candidates:
            if (block := rule.block(candidate)) is not None:
                hop = self._policy.judge_internal(origin_address, host, candidate, block, sent=False)
                logger.info("%s", hop.reason, extra={"spider": self._crawler.spider})
                return hop
        return None

    def _address_rule(self) -> AddressRule:
        """The address rule in force: a test's :attr:`address_rule`, else the project's."""
        return self.address_rule if self.address_rule is not None else _address_rule()

    def _answered_from_internal(self, origin_address: str, url: str, address: str) -> Hop | None:
        """The hop refusing the answer of a redirect that came from an internal address, or None."""
        rule = self._address_rule()
        block = rule.block(address)
        if block is None or rule.is_internal(origin_address):
            return None
        hop = self._policy.judge_internal(origin_address, urlsplit(url).hostname or "", address, block, sent=True)
        logger.info("%s", hop.reason, extra={"spider": self._crawler.spider})
        return hop

    async def _resolved(self, name: str) -> list[str]:
        """The addresses the crawl's resolver gives for ``name``; none when it fails (the download
        then fails the same way, and is judged as usual).

        The resolver is the one the download handler connects through: the reactor's (Scrapy's DNS
        cache and ``DNS_RESOLVER``), else, without a Twisted reactor, the event loop's.
        """
        try:
            if not is_reactor_installed():
                loop = asyncio.get_running_loop()
                answers = await asyncio.wait_for(
                    loop.getaddrinfo(name, None, type=socket.SOCK_STREAM), self._settings.fetch_timeout
                )
                return [str(answer[4][0]) for answer in answers]
            from twisted.internet import reactor

            receiver = _Resolution()
            reactor.nameResolver.resolveHostName(receiver, name)
            receiver.done.addTimeout(self._settings.fetch_timeout, reactor)
            return await maybe_deferred_to_future(receiver.done)
        except CancelledError:
            raise
        except Exception:  # a failed lookup: the request's own lookup fails too
            return []

    def _request(self, url: str, validators: Validators | None) -> Request:
        """The GET of one hop; a conditional one bypasses Scrapy's HTTP cache, the server answers it.

        Behind the cache, ``RFC2616Policy`` would turn the server's 304 into its stored copy (a
        200), and ``DummyPolicy`` would store the 304 and replay it later, also to an
        unconditional fetch, which then counts as unreachable.
        """
        headers = dict(validators.request_headers()) if validators is not None else {}
        if self._settings.from_header:
            headers["From"] = self._settings.from_header
        return Request(
            url,
            headers=headers or None,
            callback=NO_CALLBACK,
            dont_filter=True,
            meta={
                ROBOTS_FETCH: True,
                DONT_OBEY: True,
                "dont_redirect": True,
                "dont_retry": True,
                "handle_httpstatus_all": True,
                "allow_offsite": True,
                "download_timeout": self._settings.fetch_timeout,
                # Its own downloader slot: a slow robots.txt never holds a page's place in the
                # origin's slot, and waits for no Crawl-delay.
                "download_slot": f"robots.txt {url}",
                "download_maxsize": 0,
                "dont_cache": validators is not None,
            },
        )

    async def _download(self, request: Request) -> Response:
        """Download through the downloader (its middlewares, slots and handlers), not as a page.

        The engine's own download would announce the response with ``response_received``, and
        robots.txt would count as a page (``CLOSESPIDER_PAGECOUNT``, the pages logged and
        counted). A compressed body Scrapy refused to expand is decoded here.
        """
        if not self._transfers:
            self._connect(True)
        transfer = self._transfers[request] = _Transfer()
        engine = self._crawler.engine
        assert engine is not None
        try:
            with beside_pages(self._crawler):
                return await self._through_downloader(engine.downloader, request)
        except IgnoreRequest:
            decoded = self._decoded(transfer.raw)
            if decoded is None:
                raise
            return decoded
        finally:
            del self._transfers[request]
            if not self._transfers:
                self._connect(False)

    async def _through_downloader(self, downloader: Downloader, request: Request) -> Response:
        if _FETCH_TAKES_SPIDER:
            result = await maybe_deferred_to_future(downloader.fetch(request, self._crawler.spider))
        else:
            result = await maybe_deferred_to_future(downloader.fetch(request))
        if not isinstance(result, Response):
            raise TypeError(f"a downloader middleware answered {request.url} with {result!r}, not a response")
        if result.request is None:
            result.request = request
        return result

    def _connect(self, on: bool) -> None:
        """Listen to the download signals only while robots.txt fetches are in flight."""
        connect = self._crawler.signals.connect if on else self._crawler.signals.disconnect
        connect(self._bytes_handler, scrapy_signals.bytes_received, weak=False)
        connect(self._downloaded_handler, scrapy_signals.response_downloaded, weak=False)

    def _on_bytes_received(self, data: bytes, request: Request, **kwargs: Any) -> None:
        """Stop a robots.txt download once more than ``REP_MAX_SIZE`` bytes have arrived.

        One byte past the limit tells the parser whether the limit cut a line.
        """
        transfer = self._transfers.get(request)
        if transfer is None:
            return
        transfer.received += len(data)
        if transfer.received > self._settings.max_size:
            raise StopDownload(fail=False)

    def _on_response_downloaded(self, response: Response, request: Request, **kwargs: Any) -> None:
        """Keep the response as downloaded, and let Scrapy expand it only up to ``REP_MAX_SIZE``.

        The limit is set only now, once the transfer is over (``_on_bytes_received``
        bounds that), because Scrapy's download handler applies the same meta key
        to the compressed size. A body Scrapy then refuses to expand (a
        decompression bomb, or just a long file) is decoded by ``_download``.
        """
        transfer = self._transfers.get(request)
        if transfer is not None:
            transfer.raw = response
            request.meta["download_maxsize"] = self._settings.max_size

    def _decoded(self, raw: Response | None) -> Response | None:
        """``raw`` with its compressed body decoded up to just past ``REP_MAX_SIZE`` bytes."""
        codings = raw.headers.getlist(b"Content-Encoding") if raw is not None else []
        if raw is None or not codings:
            return None
        content_encoding = b",".join(codings).decode("latin-1")
        body = decompressed_prefix(raw.body, content_encoding, self._settings.max_size + 1)
        if body is None:
            return None
        headers = raw.headers.copy()
        del headers[b"Content-Encoding"]
        return raw.replace(headers=headers, body=body)


def _address(response: Response, proxied: bool) -> str:
    """The server's resolved address where Scrapy exposes it, else the URL's host literal.

    Through a proxy, ``ip_address`` is the proxy's: the host literal is used instead.
    """
    ip = response.ip_address
    if ip is not None and not proxied:
        return str(ip)
    return urlparse_cached(response).hostname or ""


def _proxied(request: Request, response: Response) -> bool:
    """Whether the request went through a proxy (``HttpProxyMiddleware`` or a ``proxy`` meta key)."""
    sent = response.request if response.request is not None else request
    return bool(sent.meta.get("proxy") or request.meta.get("proxy"))


class _Resolution:
    """Twisted's ``IResolutionReceiver`` of one name resolution: ``done`` fires with its addresses."""

    def __init__(self) -> None:
        self.addresses: list[str] = []
        self.done: Deferred[list[str]] = Deferred()

    def resolutionBegan(self, resolution: Any) -> None:
        pass

    def addressResolved(self, address: Any) -> None:
        self.addresses.append(str(address.host))

    def resolutionComplete(self) -> None:
        if not self.done.called:
            self.done.callback(self.addresses)


def _pairs(headers: Headers) -> tuple[tuple[str, str], ...]:
    """Scrapy headers as (name, value) text pairs, one per value.

    ``dict.items``: Scrapy's ``Headers`` holds its normalised names and their lists of values as
    they are; its own ``items()`` would look each name up again."""
    return tuple(
        (name.decode("latin-1"), value.decode("latin-1")) for name, values in dict.items(headers) for value in values
    )


def _headers(response: Response, now: float) -> Mapping[str, str]:
    """The response's headers as lower-case names to their values (repeated ones joined by commas).

    A response Scrapy's HTTP cache replayed keeps its old ``Date`` and the ``Age`` it came with:
    its time since then (``now - Date``) is added to that ``Age``, so that its ``max-age`` cannot
    make old rules look fresh.
    """
    headers = {
        name.decode("latin-1").lower(): ", ".join(value.decode("latin-1") for value in values)
        for name, values in dict.items(response.headers)
    }
    date = http_date(headers.get("date"))
    if "cached" in response.flags and date is not None:
        headers["age"] = str(_received_age(headers.get("age", "")) + max(int(now - date), 0))
    return headers


def _received_age(value: str) -> int:
    """The ``Age`` a response came with: malformed counts as none, a huge one as 2**31 (RFC 9111 §1.2.2)."""
    value = value.partition(",")[0].strip()
    if not (value.isascii() and value.isdigit()):
        return 0
    return 2**31 if len(value) > 10 else int(value)


@functools.cache
def _address_rule() -> AddressRule:
    """The address rule (``docs/behaviour.md`` §5), loaded when a redirect is first judged: a crawl
    whose robots.txt files never redirect never needs the registry."""
    from scrapy_robots_rep.policy.addresses import AddressRule

    return AddressRule()
