"""Compiled ``rfc9309`` patterns and their matching, linear in pattern x path.

A pattern compiles to a plain ``str`` when it is a prefix (matched with
``str.startswith``), or to a tuple ``(anchored, first, *segments)`` split at the
``*`` wildcards. Segments are found left to right, each at its leftmost place:
for patterns whose only wildcard is ``*`` that choice never loses a match, so
there is no backtracking.
"""

from __future__ import annotations

from typing import Any

WildcardPattern = tuple[Any, ...]
"""``(anchored: bool, first: str, *segments: str)``."""
CompiledPattern = str | WildcardPattern


def compile_pattern(pattern: str) -> CompiledPattern:
    """Compile a normalised ``rfc9309`` pattern (``*`` any run, final ``$`` end)."""
    anchored = pattern.endswith("$")
    body = pattern[:-1] if anchored else pattern
    if body.endswith("*"):
        body = body.rstrip("*")
        anchored = False
    if "*" not in body:
        return (True, body) if anchored else body
    first, *rest = body.split("*")
    return (anchored, first, *(segment for segment in rest if segment))


def matches_wildcards(compiled: WildcardPattern, path: str) -> bool:
    """True when ``path`` matches a compiled wildcard pattern from its start."""
    anchored = compiled[0]
    first = compiled[1]
    if not path.startswith(first):
        return False
    position = len(first)
    last = len(compiled) - 1
    for index in range(2, last + 1):
        segment = compiled[index]
        if anchored and index == last:
            return len(path) - len(segment) >= position and path.endswith(segment)
        found = path.find(segment, position)
        if found < 0:
            return False
        position = found + len(segment)
    return not anchored or position == len(path)
