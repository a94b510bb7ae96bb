"""``Evidence``: the audit trail and provenance of one crawl (``docs/evidence.md``).

One instance per crawler (made with its other shared parts, ``crawl/parts.py``). It is a sink of
the crawl's :class:`~scrapy_robots_rep.crawl.outcomes.Outcomes` (how each request and robots.txt
fetch ended: the ``decisions`` and ``fetches`` lines), and the page-level middleware tells it what
each page said (the ``pages`` lines). It turns Scrapy's objects into the plain lines the
:class:`~scrapy_robots_rep.audit.AuditTrail` writes, and puts each allowed request's provenance in
``request.meta["robots_provenance"]`` (a response's meta is its request's). It exists only when
``REP_AUDIT_DIR`` or ``REP_PROVENANCE_FIELD`` is set: otherwise nothing of this runs per request.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from scrapy import signals as scrapy_signals

from scrapy_robots_rep.audit import AuditTrail
from scrapy_robots_rep.audit.times import any_rfc3339, rfc3339
from scrapy_robots_rep.core import Decision, matching_mode
from scrapy_robots_rep.core.page import PURPOSES
from scrapy_robots_rep.crawl.meta_keys import PROVENANCE
from scrapy_robots_rep.crawl.outcomes import (
    FetchEnded,
    OutcomeSink,
    RequestEnded,
    RequestOutcome,
)
from scrapy_robots_rep.signing.signature import keyid_of

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response

    from scrapy_robots_rep.core.changes import RulesChange
    from scrapy_robots_rep.core.page import PageDirectives
    from scrapy_robots_rep.crawl.page_dropped import PageDropped
    from scrapy_robots_rep.policy.record_cache import CacheRecord
    from scrapy_robots_rep.policy.records import Conclusion, FetchResult
    from scrapy_robots_rep.policy.settings import RepSettings

logger = logging.getLogger("scrapy_robots_rep")

PROVENANCE_META = PROVENANCE

EXEMPT = "exempt"
NOT_CHECKED = "not_checked"
"""The ``decision`` of a request the middleware let through unchecked (besides the request outcomes)."""
_GOES_ON = frozenset({RequestOutcome.ALLOWED.value, EXEMPT, NOT_CHECKED})

_FETCH_TIMES_KEPT = 4096


class Evidence(OutcomeSink):
    """Writes the crawl's audit lines and attaches provenance; see the module docstring."""

    def __init__(self, crawler: Crawler, settings: RepSettings) -> None:
        self._crawler = crawler
        self._constant = {
            "agent": matching_mode(settings.matching).agent_token(settings.user_agent),
            "user_agent": crawler.settings.get("USER_AGENT"),
            "matching": settings.matching,
            "status_policy": settings.status_policy,
        }
        self.trail = (
            AuditTrail(
                settings.audit_dir,
                compress=settings.audit_compress,
                warc=settings.audit_warc,
                common=self._constant,
                version=_version(),
                signing_key=settings.audit_signing_key,
            )
            if settings.audit_dir is not None
            else None
        )
        self._keyid = signing_keyid(settings)
        self._dropped: WeakKeyDictionary[Response, Counter[str]] = WeakKeyDictionary()
        self._fetch_times: dict[float, str] = {}
        crawler.signals.connect(self._on_spider_closed, scrapy_signals.spider_closed)

    def request_ended(self, ended: RequestEnded) -> None:
        outcome = ended.outcome
        if outcome is RequestOutcome.DEFERRED:
            return
        decision = ended.decision
        if outcome is RequestOutcome.ALLOWED and ended.record is not None:
            decision = ended.record.rules.explain(ended.request.url)
        elif outcome is RequestOutcome.DROPPED_UNREACHABLE:
            decision = Decision(False, None, (), ended.reason)
        self.decided(ended.request, ended.origin, outcome.value, decision, ended.record)

    def request_unchecked(self, request: Request, exempt: bool) -> None:
        self.decided(request, None, EXEMPT if exempt else NOT_CHECKED, None, None)

    def fetch_ended(self, ended: FetchEnded) -> None:
        if ended.result is not None:  # a fetch of this process (not a record another one shared)
            self.fetched(ended.origin, ended.result, ended.conclusion, ended.change)

    def page_dropped(self, dropped: PageDropped) -> None:
        """Something a page's callback yielded was dropped because of the page: counted for its pages line."""
        if self.trail is None:
            return
        counts = self._dropped.get(dropped.response)
        if counts is None:
            counts = self._dropped[dropped.response] = Counter()
        counts[f"{'requests' if dropped.request is not None else 'items'}/{dropped.kind}"] += 1

    def fetched(self, origin: str, result: FetchResult, conclusion: Conclusion, change: RulesChange | None) -> None:
        """One robots.txt fetch attempt (its redirects included): the body, the WARC records, the line."""
        trail = self.trail
        if trail is None:
            return
        record = conclusion.record
        if conclusion.robots is not None:  # a body was parsed: it is the evidence
            trail.store_body(result.body)
        trail.exchanges(result.exchanges)
        failed = record.outcome.failed
        outcome = "unreachable" if failed else "not_modified" if result.hop.not_modified else record.outcome.value
        validators = record.validators
        trail.fetch(
            {
                "time": rfc3339(time.time()),
                "origin": origin,
                "url": result.exchanges[0].url if result.exchanges else f"{origin}/robots.txt",
                "status": result.status,
                "outcome": outcome,
                "sha256": record.sha256 if not failed else None,
                "validators": None
                if validators is None
                else {"etag": validators.etag, "last_modified": validators.last_modified},
                "lifetime": round(record.expires_at - record.fetched_at, 3),
                "lifetime_source": record.lifetime_source.value if record.lifetime_source is not None else None,
                "redirects": [exchange.url for exchange in result.exchanges[1:]],
                "keyid": sent_keyid(result.exchanges[0].request_headers) if result.exchanges else None,
                "error": conclusion.reason if failed else None,
                "reason": conclusion.reason,
                "changed": change.to_dict() if change is not None else None,
            }
        )

    def decided(
        self, request: Request, origin: str | None, kind: str, decision: Decision | None, record: CacheRecord | None
    ) -> None:
        """One request decided: its decisions line and, when it goes on, its provenance."""
        now = time.time()
        rule = decision.rule if decision is not None else None
        sha256 = record.sha256 if record is not None else None
        line = {
            "time": rfc3339(now),
            "url": request.url,
            "origin": origin,
            "decision": kind,
            "sha256": sha256,
            "group": list(decision.group) if decision is not None else None,
            "rule": {"line": rule.line, "text": rule.text} if rule is not None else None,
            "reason": decision.reason if decision is not None else kind.replace("_", " "),
            "keyid": self._keyid if kind in _GOES_ON else None,
        }
        if self.trail is not None:
            self.trail.decision(line)
        if kind in _GOES_ON:
            request.meta[PROVENANCE_META] = {
                "decision": kind,
                "decided_at": line["time"],
                "sha256": sha256,
                "fetched_at": self._fetch_time(record.fetched_at) if record is not None else None,
                "status": record.status if record is not None else None,
                "group": line["group"],
                "rule": line["rule"],
                **self._constant,
            }

    def _fetch_time(self, fetched_at: float) -> str:
        """A fetch time as text, formatted once per fetch (a few thousand kept)."""
        text = self._fetch_times.get(fetched_at)
        if text is None:
            if len(self._fetch_times) >= _FETCH_TIMES_KEPT:
                self._fetch_times.clear()
            text = self._fetch_times[fetched_at] = any_rfc3339(fetched_at)
        return text

    def page_seen(self, response: Response, page: PageDirectives) -> None:
        """The page's directives join its provenance; its pages line waits for :meth:`page_done`."""
        provenance = response.meta.get(PROVENANCE_META)
        if isinstance(provenance, dict):
            provenance["page"] = _page_data(page)

    def page_done(self, response: Response, page: PageDirectives | None) -> None:
        """The callback of ``response`` ended: its pages line, with what was dropped because of it."""
        if self.trail is None or page is None:
            return
        counts = self._dropped.pop(response, None)
        provenance = response.meta.get(PROVENANCE_META)
        said = provenance.get("page") if isinstance(provenance, dict) else None
        self.trail.page(
            {
                "time": rfc3339(time.time()),
                "url": response.url,
                "status": response.status,
                **(said if said is not None else _page_data(page)),
                "dropped": dict(counts) if counts else {},
            }
        )

    def _on_spider_closed(self, spider: Spider | None = None) -> None:
        trail = self.trail
        if trail is not None:
            trail.close()
            logger.info(
                "Audit trail (REP_AUDIT_DIR) written to %(directory)s; ask about a URL with: "
                "scrapy-robots audit %(directory)s URL",
                {"directory": trail.directory.resolve()},  # absolute: the command works from any folder
                extra={"spider": self._crawler.spider},
            )


def _version() -> str:
    """The plugin's version as installed (``unknown`` when run from an uninstalled source tree)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("scrapy-robots-rep")
    except PackageNotFoundError:
        return "unknown"


_NOTHING_SAID: dict[str, Any] = {
    "noindex": False,
    "nofollow": False,
    "noarchive": False,
    "purposes": dict.fromkeys(PURPOSES, True),
    "sources": [],
}
"""What a page without directives or site signals says (most pages): one shared, read-only mapping."""


def signing_keyid(settings: RepSettings) -> str | None:
    """The ``keyid`` requests are signed with (``REP_SIGNING_KEY``), None when signing is off or the
    key cannot be used (the signing middleware then stops the crawl with the reason)."""
    if settings.signing_key is None:
        return None
    try:
        from scrapy_robots_rep.signing.keys import KeyFileError, load_signing_key
    except ImportError:
        return None
    try:
        return load_signing_key(settings.signing_key).keyid
    except KeyFileError:
        return None


def sent_keyid(headers: tuple[tuple[str, str], ...]) -> str | None:
    """The ``keyid`` of the ``Signature-Input`` a request was sent with, None when it was not signed."""
    for name, value in headers:
        if name.lower() == "signature-input":
            return keyid_of(value)
    return None


def _page_data(page: PageDirectives) -> dict[str, Any]:
    if not page.directives and not page.site_signals:
        return _NOTHING_SAID
    sources = [directive.describe() for directive in page.directives]
    signals = page.site_signals.items()
    sources += [f"{purpose}={'yes' if allowed else 'no'} ({page.site_source})" for purpose, allowed in signals]
    return {
        "noindex": page.noindex,
        "nofollow": page.nofollow,
        "noarchive": page.noarchive,
        "purposes": {purpose: page.allows(purpose) for purpose in PURPOSES},
        "sources": sources,
    }
