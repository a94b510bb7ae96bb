"""Read ``Content-Signal`` values (docs/behaviour.md §2, §10).

``Content-Signal: search=yes, ai-input=no, ai-train=no`` says, per purpose,
whether content may be used for it. Purposes are compared lower-cased and
unknown purposes are kept; a pair that is not ``purpose=yes|no`` is ignored.
Several lines (or merged groups) combine conservatively: a purpose any of them
says ``no`` to is ``no``.
"""

from __future__ import annotations

from collections.abc import Iterable

_ANSWERS = {"yes": True, "no": False}


def read_signals(value: str) -> dict[str, bool]:
    """The purposes one ``Content-Signal`` value speaks about, in order."""
    signals: dict[str, bool] = {}
    for pair in value.split(","):
        purpose, equals, answer = pair.partition("=")
        purpose = purpose.strip().lower()
        allowed = _ANSWERS.get(answer.strip().lower())
        if equals and purpose and allowed is not None:
            signals[purpose] = signals.get(purpose, True) and allowed
    return signals


def merge_signals(values: Iterable[str]) -> dict[str, bool]:
    """All ``values`` combined: a purpose is allowed only when none says ``no``."""
    merged: dict[str, bool] = {}
    for value in values:
        for purpose, allowed in read_signals(value).items():
            merged[purpose] = merged.get(purpose, True) and allowed
    return merged
