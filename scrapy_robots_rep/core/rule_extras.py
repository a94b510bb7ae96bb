"""The parts of an ``AgentRules`` that few origins have, in a module of their own: ``AgentRules``
imports it when it is first made with any of them (docs/performance.md, "Process start")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scrapy_robots_rep.core.content_usage import ContentUsageRules
    from scrapy_robots_rep.core.decision import SourceLine


@dataclass(frozen=True, slots=True)
class Extras:
    """The parts of an ``AgentRules`` that few origins have: Content-Signal and Content-Usage rules,
    licenses, extension fields, or the reason every URL gets a fixed decision (a 404, a failure)."""

    signals: tuple[Mapping[str, bool], tuple[SourceLine, ...]] | None
    usage: ContentUsageRules | None
    licenses: tuple[str, ...]
    extensions: Mapping[str, tuple[str, ...]]
    reason: str | None
    """Why every URL gets the fixed decision."""
