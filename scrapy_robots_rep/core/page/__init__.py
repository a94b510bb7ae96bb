"""Page-level robot control (docs/behaviour.md §10): robots meta tags, X-Robots-Tag, TDMRep and
content-usage purposes. Pure Python: no Scrapy import."""

from scrapy_robots_rep.core.page.directives import (
    SCAN_LIMIT,
    Directive,
    Effect,
    PageDirectives,
    Source,
    SourceKind,
    agent_token,
)
from scrapy_robots_rep.core.page.usage import PURPOSE_NAMES, PURPOSES, purpose_refusal

__all__ = [
    "PURPOSES",
    "PURPOSE_NAMES",
    "SCAN_LIMIT",
    "Directive",
    "Effect",
    "PageDirectives",
    "Source",
    "SourceKind",
    "agent_token",
    "purpose_refusal",
]
