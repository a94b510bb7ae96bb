"""``SigningMiddleware``: every request the crawl sends signed for Web Bot Auth (``docs/behaviour.md`` §13).

Wiring only: the signature itself is :class:`~scrapy_robots_rep.signing.signature.RequestSigner`'s.
It sits at priority 950, after every Scrapy component that sets a header and after
``HttpCacheMiddleware`` (900): a request the cache answers is never sent and never signed, and the
one sent carries its final headers. A retry or a redirect comes back through the scheduler as a new
request and is signed again, for its own authority. A request can still wait in its download
slot's queue after the middlewares (Crawl-delay, a busy slot): one that reaches the download
handler more than :data:`RESIGN_AFTER` seconds after it was signed is signed again there, so no
signature is sent close to or past its ``expires``. Off (``NotConfigured`` without a message, so no warning) unless
``REP_SIGNING_KEY`` is set.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from scrapy import signals as scrapy_signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.httpobj import urlparse_cached

from scrapy_robots_rep.crawl.meta_keys import SIGNED_AT
from scrapy_robots_rep.crawl.settings import rep_settings
from scrapy_robots_rep.downloader.startup import start_up_errors
from scrapy_robots_rep.policy.settings import SettingsError

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler

    from scrapy_robots_rep.signing.signature import RequestSigner

logger = logging.getLogger("scrapy_robots_rep")

SIGNING_PRIORITY = 950
"""After ``HttpCacheMiddleware`` (900) and every Scrapy middleware that sets a header."""
RESIGN_AFTER = 60.0
"""Seconds a signed request may wait in its slot's queue before it is signed again as it is sent."""


def request_signer(signing_key: str, signature_agent: str) -> RequestSigner:
    """The signer the two settings describe; a :class:`SettingsError` naming the setting otherwise."""
    from scrapy_robots_rep.signing.signature import RequestSigner  # loaded only when signing is on

    try:
        from scrapy_robots_rep.signing.keys import KeyFileError, load_signing_key
    except ImportError as error:
        raise SettingsError(
            f"REP_SIGNING_KEY needs the cryptography package ({error}): pip install 'scrapy-robots-rep[signing]'"
        ) from None
    try:
        key = load_signing_key(signing_key)
    except KeyFileError as error:
        raise SettingsError(f"REP_SIGNING_KEY {signing_key!r} is not an Ed25519 private key: {error}") from None
    try:
        return RequestSigner(key, signature_agent)
    except ValueError as error:
        raise SettingsError(f"REP_SIGNATURE_AGENT: {error}") from None


class SigningMiddleware:
    """Adds ``Signature-Agent``, ``Signature-Input`` and ``Signature`` to each request as it is sent."""

    def __init__(self, crawler: Crawler, signer: RequestSigner) -> None:
        from scrapy_robots_rep.signing.signature import authority

        self._crawler = crawler
        self._signer = signer
        self._authority = authority
        crawler.signals.connect(self._on_engine_started, scrapy_signals.engine_started)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> SigningMiddleware:
        with start_up_errors():
            settings = rep_settings(crawler.settings)
            if settings.signing_key is None or settings.signature_agent is None:
                raise NotConfigured
            signer = request_signer(settings.signing_key, settings.signature_agent)
        logger.info(
            "Signing every request (Web Bot Auth) with keyid %(keyid)s, Signature-Agent: %(agent)s",
            {"keyid": signer.keyid, "agent": signer.signature_agent},
        )
        if not settings.signature_agent.startswith("https://"):
            logger.warning(
                "REP_SIGNATURE_AGENT %r is not an https URL: verifiers following the draft ignore it "
                "(fine for a local test)",
                settings.signature_agent,
            )
        return cls(crawler, signer)

    def process_request(self, request: Request, spider: Spider | None = None) -> None:
        url = urlparse_cached(request)
        now = time.time()
        sent_to = self._authority(url.scheme, url.hostname or "", url.port)
        for name, value in self._signer.headers(request.method, sent_to, url.path or "/", now).items():
            request.headers[name] = value
        request.meta[SIGNED_AT] = now

    def _on_engine_started(self) -> None:
        """Wrap the downloader's handler call (``download_request_async`` from Scrapy 2.14 on,
        ``download_request`` before) to sign again the requests that waited too long."""
        engine = self._crawler.engine
        assert engine is not None
        handlers = engine.downloader.handlers
        name = "download_request_async" if hasattr(handlers, "download_request_async") else "download_request"
        send = getattr(handlers, name)

        def signed_when_sent(request: Request, *args: Any) -> Any:
            signed_at = request.meta.get(SIGNED_AT)
            if signed_at is not None and time.time() - signed_at > RESIGN_AFTER:
                self.process_request(request)
            return send(request, *args)

        setattr(handlers, name, signed_when_sent)
