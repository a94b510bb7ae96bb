"""The status policy of SPEC.md section 5: what a robots.txt fetch result means.

A pure function of one hop's result; the Scrapy layer does the fetching and
follows the redirects this module asks for.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

RULES = "rules"
ALLOW_ALL = "allow_all"
DISALLOW_ALL = "disallow_all"
UNREACHABLE = "unreachable"
DEFERRED = "deferred"
OUTCOMES = (RULES, ALLOW_ALL, DISALLOW_ALL, UNREACHABLE, DEFERRED)
FAILED_OUTCOMES = (UNREACHABLE, DEFERRED)


@dataclass(frozen=True, slots=True)
class Verdict:
    """What one robots.txt response (or failure) means.

    Either ``follow`` is the URL of the next redirect hop, or ``outcome`` is
    final; ``reason`` is short human text for logs and explanations.
    """

    outcome: str | None
    reason: str
    follow: str | None = None


def judge_response(
    status: int,
    url: str,
    location: str | None,
    hops: int,
    *,
    policy: str,
    max_redirects: int,
) -> Verdict:
    """Judge the response of hop number ``hops`` (0 for the first request) for ``url``."""
    if 200 <= status < 300:
        return Verdict(RULES, f"robots.txt returned {status}")
    if 300 <= status < 400:
        return _judge_redirect(status, url, location, hops, max_redirects)
    if status in (401, 403):
        if policy == "legacy":
            return Verdict(DISALLOW_ALL, f"robots.txt returned {status}: site closed to robots")
        return Verdict(ALLOW_ALL, f"robots.txt returned {status}")
    if status == 429 or 500 <= status < 600:
        return judge_failure(f"robots.txt returned {status}", policy=policy)
    if 400 <= status < 500:
        return Verdict(ALLOW_ALL, f"robots.txt returned {status}")
    return judge_failure(f"robots.txt returned unexpected status {status}", policy=policy)


def judge_failure(reason: str, *, policy: str) -> Verdict:
    """Judge a fetch that got no usable answer: timeout, DNS, connection or protocol error."""
    return Verdict(DEFERRED if policy == "legacy" else UNREACHABLE, reason)


def _judge_redirect(status: int, url: str, location: str | None, hops: int, max_redirects: int) -> Verdict:
    if not location:
        return Verdict(ALLOW_ALL, f"robots.txt returned {status} without a Location: as 404")
    if hops >= max_redirects:
        return Verdict(ALLOW_ALL, f"robots.txt redirected more than {max_redirects} times: as 404")
    target = urljoin(url, location)
    parts = urlsplit(target)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return Verdict(ALLOW_ALL, f"robots.txt redirected to a non-HTTP(S) URL {target}: as 404")
    if parts.username is not None or parts.password is not None:
        return Verdict(ALLOW_ALL, "robots.txt redirected to a URL with credentials: as 404")
    return Verdict(None, f"robots.txt redirected ({status}) to {target}", follow=target)
