"""Content-usage purposes (``REP_PURPOSES``) and what robots.txt ``Content-Signal`` says of them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from scrapy_robots_rep.core.purposes import PURPOSE_NAMES, PURPOSES

__all__ = ["PURPOSES", "PURPOSE_NAMES", "purpose_refusal"]


def purpose_refusal(content_signals: Mapping[str, bool], purposes: Iterable[str]) -> str | None:
    """Why an origin's requests must not be downloaded at all, or None.

    That is the case when its robots.txt ``Content-Signal`` says ``no`` to every declared purpose
    (nothing fetched could be used). No declared purpose, or one it allows or does not mention,
    means None. ``AgentRules.purposes_refusal`` also weighs ``Content-Usage`` for a URL.
    """
    from scrapy_robots_rep.core.content_usage import purposes_refusal

    decision = purposes_refusal(content_signals, None, purposes, ())
    return None if decision is None else decision.reason
