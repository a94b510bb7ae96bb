"""The matching modes, and the version of the plain-data form of ``AgentRules``."""

from __future__ import annotations

MATCHING_MODES = ("rfc9309", "legacy")
FORMAT_VERSION = 1


def check_matching(matching: str) -> None:
    """ValueError naming the allowed values when ``matching`` is not a mode."""
    if matching not in MATCHING_MODES:
        raise ValueError(f"matching must be one of {', '.join(map(repr, MATCHING_MODES))}, got {matching!r}")
