"""``RobotsFetcher``: one origin's robots.txt, fetched through Scrapy's engine.

The middleware and the command-line tools share it, so both see the same
requests, redirect decisions, size limit, timeout and status policy.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scrapy import signals as scrapy_signals
from scrapy.exceptions import IgnoreRequest, StopDownload
from scrapy.http import Request, Response
from scrapy.http.request import NO_CALLBACK
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.defer import CancelledError, DeferredSemaphore

from scrapy_robots_rep.policy.decoding import decompressed_prefix
from scrapy_robots_rep.policy.origin import robots_url
from scrapy_robots_rep.policy.settings import RepSettings
from scrapy_robots_rep.policy.status import Verdict, judge_failure, judge_response

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Fetched:
    """The result of one robots.txt fetch, redirects followed."""

    origin: str
    verdict: Verdict
    status: int | None
    body: bytes
    cache_control: str | None


@dataclass(slots=True)
class _Transfer:
    """What has arrived so far for one robots.txt request."""

    received: int = 0
    raw: Response | None = None


class RobotsFetcher:
    """Fetches ``<origin>/robots.txt`` through the engine, making its own redirect decisions.

    The request bypasses Scrapy's redirect and retry middlewares and has its
    own timeout; its body is cut after ``REP_MAX_SIZE`` bytes, and a
    compressed body is decoded only that far.
    """

    def __init__(self, crawler: Crawler, settings: RepSettings) -> None:
        self._crawler = crawler
        self._settings = settings
        self._transfers: dict[Request, _Transfer] = {}
        concurrency = crawler.settings.getint("CONCURRENT_REQUESTS")
        self._slots = DeferredSemaphore(concurrency) if concurrency > 0 else None

    async def fetch(self, origin: str) -> Fetched:
        """Fetch, with at most ``CONCURRENT_REQUESTS`` robots.txt fetches in flight at once."""
        if self._slots is None:
            return await self._fetch(origin)
        await maybe_deferred_to_future(self._slots.acquire())
        try:
            return await self._fetch(origin)
        finally:
            self._slots.release()

    async def _fetch(self, origin: str) -> Fetched:
        url = robots_url(origin)
        stats = self._crawler.stats
        stats.inc_value("rep/robots/fetches")
        hops = 0
        while True:
            request = self._request(url)
            try:
                response = await self._download(request)
            except CancelledError:
                raise
            except Exception as error:  # any download failure is a verdict, not a crash
                stats.inc_value(f"rep/robots/error/{type(error).__name__}")
                reason = f"robots.txt fetch failed: {type(error).__name__}: {error}"
                verdict = judge_failure(reason, policy=self._settings.status_policy)
                return Fetched(origin, verdict, None, b"", None)
            stats.inc_value(f"rep/robots/status/{response.status}")
            location = response.headers.get(b"Location")
            verdict = judge_response(
                response.status,
                url,
                location.decode("latin-1") if location else None,
                hops,
                policy=self._settings.status_policy,
                max_redirects=self._settings.max_redirects,
            )
            if verdict.follow is None:
                cache_control = response.headers.get(b"Cache-Control")
                return Fetched(
                    origin,
                    verdict,
                    response.status,
                    response.body,
                    cache_control.decode("latin-1") if cache_control else None,
                )
            logger.debug("%s", verdict.reason, extra={"spider": self._crawler.spider})
            url = verdict.follow
            hops += 1

    def _request(self, url: str) -> Request:
        headers = {"From": self._settings.from_header} if self._settings.from_header else None
        return Request(
            url,
            headers=headers,
            callback=NO_CALLBACK,
            dont_filter=True,
            meta={
                "dont_obey_robotstxt": True,
                "dont_redirect": True,
                "dont_retry": True,
                "handle_httpstatus_all": True,
                "allow_offsite": True,
                "download_timeout": self._settings.fetch_timeout,
                "download_maxsize": 0,
            },
        )

    async def _download(self, request: Request) -> Response:
        """Download through the engine; a compressed body Scrapy refused to expand is decoded here."""
        if not self._transfers:
            self._connect(True)
        transfer = self._transfers[request] = _Transfer()
        try:
            assert self._crawler.engine is not None
            return await self._crawler.engine.download_async(request)
        except IgnoreRequest:
            decoded = self._decoded(transfer.raw)
            if decoded is None:
                raise
            return decoded
        finally:
            del self._transfers[request]
            if not self._transfers:
                self._connect(False)

    def _connect(self, on: bool) -> None:
        """Listen to the download signals only while robots.txt fetches are in flight."""
        handlers = {
            scrapy_signals.bytes_received: self._on_bytes_received,
            scrapy_signals.response_downloaded: self._on_response_downloaded,
        }
        for signal, handler in handlers.items():
            if on:
                self._crawler.signals.connect(handler, signal)
            else:
                self._crawler.signals.disconnect(handler, signal)

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
