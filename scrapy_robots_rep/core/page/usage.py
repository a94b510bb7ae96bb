"""Content-usage purposes (``REP_PURPOSES``) and what robots.txt ``Content-Signal`` says of them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

PURPOSES = ("search", "ai-input", "ai-train")
"""The uses a crawl's data may be declared for (``REP_PURPOSES``)."""


def purpose_refusal(content_signals: Mapping[str, bool], purposes: Iterable[str]) -> str | None:
    """Why an origin's requests must not be downloaded at all, or None.

    That is the case when its robots.txt ``Content-Signal`` says ``no`` to every declared purpose
    (nothing fetched could be used). No declared purpose, or one it allows or does not mention,
    means None.
    """
    declared = list(dict.fromkeys(purpose.lower() for purpose in purposes))
    if not declared or any(content_signals.get(purpose, True) for purpose in declared):
        return None
    refused = ", ".join(f"{purpose}=no" for purpose in declared)
    return f"robots.txt Content-Signal refuses every declared purpose (REP_PURPOSES): {refused}"
