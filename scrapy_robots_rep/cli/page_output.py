"""What ``check --page`` prints: what restricts the agent and why, then every directive read; text or JSON."""

from __future__ import annotations

import json

from scrapy_robots_rep.cli.checks import UrlResult
from scrapy_robots_rep.cli.page import PageCheck
from scrapy_robots_rep.core.page import PURPOSES, Directive

LABEL = 13
"""Width of the labels of indented lines (``noimageindex`` and a space)."""


def render_page_text(agent: str, check: PageCheck) -> str:
    """A header, where the page came from, what is restricted and refused (with the deciding
    tag or header), then one line per directive read (``PageDirectives.explain``)."""
    page, source = check.page, check.source
    read_as = f" (read as {page.agent!r})" if page.agent != agent else ""
    lines = [f"agent {agent!r}{read_as}, page directives", f"page {source.location}: {source.summary}"]
    if source.robots is not None and check.fetch is not None:
        lines.append(f"robots.txt {source.robots.location}: {source.robots.summary}")
        lines.append(f"  {'fetching':<{LABEL}}{_fetch_text(check.fetch)}")
    restrictions = check.restrictions
    refused = check.refused
    lines.append("")
    lines.append(f"restricted  {', '.join(effect.value for effect in restrictions) or 'nothing'}")
    lines.extend(f"  {effect.value:<{LABEL}}{why}" for effect, why in restrictions.items())
    states = ", ".join(f"{purpose} {'refused' if purpose in refused else 'allowed'}" for purpose in PURPOSES)
    lines.append(f"purposes    {states}")
    lines.extend(f"  {purpose:<{LABEL}}{why}" for purpose, why in refused.items())
    lines.append("")
    lines.append("directives")
    lines.extend(f"  {line}" for line in page.explain())
    return "\n".join(lines)


def render_page_json(agent: str, check: PageCheck) -> str:
    """The same as :func:`render_page_text`, as JSON."""
    page, source = check.page, check.source
    robots = source.robots
    fetch = check.fetch
    document = {
        "agent": agent,
        "token": page.agent,
        "page": {"location": source.location, "summary": source.summary, "html": page.html},
        "robots": None
        if robots is None or fetch is None
        else {
            "location": robots.location,
            "status": robots.status,
            "outcome": robots.outcome.value,
            "summary": robots.summary,
            "content_signals": dict(page.site_signals),
            "content_usage": dict(page.site_usage),
            "fetching": fetch.verdict.value,
            "rule": None if fetch.decision.rule is None else fetch.decision.rule.text,
            "reason": fetch.decision.reason,
        },
        "restricted": {effect.value: why for effect, why in check.restrictions.items()},
        "refused": check.refused,
        "content_usage": None if page.usage is None else dict(page.usage.values),
        "unavailable_after": None if page.unavailable_after is None else page.unavailable_after.isoformat(),
        "directives": [_directive_data(directive) for directive in page.directives],
        "ignored": [_directive_data(directive) for directive in page.ignored],
        "explain": page.explain(),
    }
    return json.dumps(document, indent=2)


def _fetch_text(result: UrlResult) -> str:
    """``disallowed: line 2: Disallow: /private (longest match)``: what a crawl does with the page's URL."""
    rule = result.decision.rule
    where = "" if rule is None else f": line {rule.line}: {rule.text}"
    return f"{result.verdict.value}{where} ({result.decision.reason})"


def _directive_data(directive: Directive) -> dict[str, object]:
    source = directive.source
    return {
        "name": directive.name,
        "value": directive.value,
        "text": directive.text,
        "source": {"kind": source.kind.value, "text": source.text, "in_head": source.in_head},
    }
