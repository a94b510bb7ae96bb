"""Status policies: what one robots.txt fetch result means (docs/behaviour.md §5).

A status policy is an object looked up by name in :data:`STATUS_POLICIES`;
adding a policy means adding one :class:`StatusPolicy`. A policy judges one
*hop* at a time (one response, or a fetch that got none); the Scrapy layer does
the fetching and follows the redirects a :class:`Hop` asks for.

A ``304 Not Modified`` answering a conditional request (one that carried
``If-None-Match`` / ``If-Modified-Since``) is :data:`NOT_MODIFIED`: a hop
without an outcome whose ``not_modified`` is True, meaning "keep the rules you
hold and start a new lifetime". A 304 to an unconditional request is a
protocol error, judged as a failed fetch.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import urljoin, urlsplit

if TYPE_CHECKING:
    from scrapy_robots_rep.policy.addresses import Block


class Outcome(Enum):
    """What a robots.txt fetch left an origin with."""

    RULES = "rules"  # a body was obtained and parsed
    ALLOW_ALL = "allow_all"  # no usable file: everything allowed (404, ...)
    DISALLOW_ALL = "disallow_all"  # the site is closed to robots (legacy 401/403)
    UNREACHABLE = "unreachable"  # rfc9309: no answer; requests wait, the 30-day rule applies
    DEFERRED = "deferred"  # legacy: no answer; requests wait

    @property
    def failed(self) -> bool:
        """True when the fetch got no usable answer (the origin's requests are deferred)."""
        return self is Outcome.UNREACHABLE or self is Outcome.DEFERRED  # asked for every request: no hashing


class Hop(NamedTuple):
    """What one robots.txt response (or failed fetch) means.

    Exactly one of these holds: ``outcome`` is final; ``follow`` is the URL of
    the next redirect hop; ``not_modified`` is True (see :data:`NOT_MODIFIED`).
    ``reason`` is short human text for logs and explanations.
    """

    outcome: Outcome | None
    reason: str
    follow: str | None = None
    not_modified: bool = False


NOT_MODIFIED = Hop(None, "robots.txt returned 304: not modified", not_modified=True)
"""The hop of a 304 answering a conditional request: keep the rules, start a new lifetime."""


class StatusPolicy(NamedTuple):
    """One column of the status table of docs/behaviour.md §5.

    ``closed`` is what 401 and 403 mean; ``failure`` is what 429, 5xx, an
    unexpected status and a fetch without an answer mean; ``thirty_day_rule``
    says whether an origin unreachable for ``REP_UNREACHABLE_MAX_AGE`` falls
    back to its last copy or to allow-all. Everything else is common to all
    policies.
    """

    name: str
    closed: Outcome
    failure: Outcome
    thirty_day_rule: bool

    def judge_response(
        self,
        status: int,
        url: str,
        location: str | None,
        hops: int,
        *,
        max_redirects: int,
        conditional: bool = False,
    ) -> Hop:
        """Judge the response of hop number ``hops`` (0 for the first request) for ``url``.

        ``location`` is the response's ``Location`` header; ``conditional`` says
        whether this hop's request carried validators. Whether a redirect leads
        into an internal address is judged by the fetcher (:meth:`judge_internal`).
        """
        if 200 <= status < 300:
            return Hop(Outcome.RULES, f"robots.txt returned {status}")
        if status == 304:
            if conditional:
                return NOT_MODIFIED
            return self.judge_failure("robots.txt returned 304 to a request that was not conditional")
        if 300 <= status < 400:
            return _judge_redirect(status, url, location, hops, max_redirects)
        if status in (401, 403):
            if self.closed is Outcome.DISALLOW_ALL:
                return Hop(self.closed, f"robots.txt returned {status}: site closed to robots")
            return Hop(self.closed, f"robots.txt returned {status}")
        if status == 429 or 500 <= status < 600:
            return self.judge_failure(f"robots.txt returned {status}")
        if 400 <= status < 500:
            return Hop(Outcome.ALLOW_ALL, f"robots.txt returned {status}")
        return self.judge_failure(f"robots.txt returned unexpected status {status}")

    def judge_failure(self, reason: str) -> Hop:
        """Judge a fetch that got no usable answer: timeout, DNS, connection or protocol error."""
        return Hop(self.failure, reason)

    def judge_internal(self, origin: str, target: str, internal: str, block: Block, *, sent: bool) -> Hop:
        """Judge a redirect from the public address ``origin`` to ``target``, whose address ``internal``
        is in ``block``: refused by the address rule, as a fetch without an answer.

        ``sent`` says whether the request went out all the same (the address is known only from its
        answer: a name resolved again in between, DNS rebinding); its answer is then not used.
        """
        address = internal if internal == target else f"{target} ({internal})"
        ending = "request sent, answer discarded" if sent else "no request sent"
        return self.judge_failure(
            f"address rule: robots.txt redirected from the public address {origin} to the internal "
            f"address {address}, in {block}: refused, {ending}"
        )


def _judge_redirect(status: int, url: str, location: str | None, hops: int, max_redirects: int) -> Hop:
    if not location:
        return Hop(Outcome.ALLOW_ALL, f"robots.txt returned {status} without a Location: as 404")
    if hops >= max_redirects:
        return Hop(Outcome.ALLOW_ALL, f"robots.txt redirected more than {max_redirects} times: as 404")
    target = urljoin(url, location)
    parts = urlsplit(target)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return Hop(Outcome.ALLOW_ALL, f"robots.txt redirected to a non-HTTP(S) URL {target}: as 404")
    if parts.username is not None or parts.password is not None:
        return Hop(Outcome.ALLOW_ALL, "robots.txt redirected to a URL with credentials: as 404")
    return Hop(None, f"robots.txt redirected ({status}) to {target}", follow=target)


RFC9309 = StatusPolicy("rfc9309", closed=Outcome.ALLOW_ALL, failure=Outcome.UNREACHABLE, thirty_day_rule=True)
"""RFC 9309 §2.3.1: 4xx means no rules; an unreachable origin is disallowed for now, for at most 30 days."""

LEGACY = StatusPolicy("legacy", closed=Outcome.DISALLOW_ALL, failure=Outcome.DEFERRED, thirty_day_rule=False)
"""The 1996 draft as most crawlers read it: 401/403 close the site; an unreachable origin waits."""

STATUS_POLICIES: Mapping[str, StatusPolicy] = MappingProxyType({policy.name: policy for policy in (RFC9309, LEGACY)})
"""Every status policy by name; the keys are the values ``REP_STATUS_POLICY`` accepts."""


def status_policy(name: str) -> StatusPolicy:
    """The status policy called ``name``; ValueError naming the allowed values otherwise."""
    policy = STATUS_POLICIES.get(name)
    if policy is None:
        allowed = ", ".join(repr(known) for known in STATUS_POLICIES)
        raise ValueError(f"status policy must be one of {allowed}, got {name!r}")
    return policy
