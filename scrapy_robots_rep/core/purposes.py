"""The purposes a crawl's data may be declared for (``REP_PURPOSES``), and the AIPREF labels that name them.

``VOCABULARY`` is the one table of AIPREF usage-category labels (draft-ietf-aipref-vocab): the
drafts still move them, and a new label is one line there. Each label names the purpose it speaks
for, in the names robots.txt ``Content-Signal`` uses, so both vocabularies name one purpose one way.
Apart from the statements' readers (``core/usage_preferences.py``), which a crawl imports only when
it meets a ``Content-Usage`` statement.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

VOCABULARY: Mapping[str, str] = MappingProxyType(
    {
        "train-ai": "ai-train",
        "ai-use": "ai-input",
        "search": "search",
    }
)
"""AIPREF usage-category label -> the purpose it speaks for (draft-ietf-aipref-vocab)."""

PURPOSES = ("search", "ai-input", "ai-train")
"""The uses a crawl's data may be declared for (``REP_PURPOSES``), by their ``Content-Signal`` names."""

PURPOSE_NAMES: Mapping[str, str] = MappingProxyType({**{purpose: purpose for purpose in PURPOSES}, **VOCABULARY})
"""Every accepted name of a purpose (both vocabularies') -> the purpose."""


def purpose_name(name: str) -> str | None:
    """The purpose ``name`` names in either vocabulary (``train-ai`` is ``ai-train``), or None."""
    return PURPOSE_NAMES.get(name.strip().lower())
