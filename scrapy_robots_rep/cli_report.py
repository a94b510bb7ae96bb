"""What the command-line tools print: the decisions for some URLs, as text or JSON.

Shared by ``python -m scrapy_robots_rep check`` and ``scrapy robots`` so both explain a
decision the same way: allowed or not, the group, the deciding rule with its line, the reason.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from scrapy_robots_rep.core import AgentRules, Decision
from scrapy_robots_rep.policy.origin import origin_of

EXIT_ALLOWED = 0
EXIT_DISALLOWED = 1
EXIT_ERROR = 2


@dataclass(frozen=True)
class CheckOptions:
    """The choices a check was made with."""

    agent: str
    matching: str
    status_policy: str


@dataclass(frozen=True)
class RobotsSource:
    """One robots.txt and what was made of it: the rules in force, or why there are none."""

    location: str
    summary: str
    outcome: str
    rules: AgentRules | None
    status: int | None = None


@dataclass(frozen=True)
class Check:
    """URLs checked against one robots.txt, each with its decision (none on a fetch error)."""

    source: RobotsSource
    results: tuple[tuple[str, Decision], ...]


def require_http_urls(urls: Sequence[str]) -> None:
    """Raise ValueError naming the first URL that is not an absolute http(s) URL."""
    for url in urls:
        if origin_of(url) is None:
            raise ValueError(f"URL must be an absolute http(s) URL, got {url!r}")


def check_urls(source: RobotsSource, urls: Sequence[str]) -> Check:
    """Decide every URL with the source's rules (no decisions if the rules could not be had)."""
    rules = source.rules
    if rules is None:
        return Check(source, ())
    return Check(source, tuple((url, rules.explain(url)) for url in urls))


def exit_status(checks: Sequence[Check]) -> int:
    """0 if every URL is allowed, 1 if some is disallowed, 2 if some robots.txt was not had."""
    if any(check.source.rules is None for check in checks):
        return EXIT_ERROR
    if all(decision.allowed for check in checks for _, decision in check.results):
        return EXIT_ALLOWED
    return EXIT_DISALLOWED


def errors(checks: Sequence[Check]) -> list[str]:
    """One line per robots.txt that could not be had, for standard error."""
    return [
        f"error: no robots.txt rules could be obtained from {check.source.location}"
        for check in checks
        if check.source.rules is None
    ]


def render_text(options: CheckOptions, checks: Sequence[Check]) -> str:
    """Human-readable report: a header per robots.txt, then a paragraph per URL."""
    lines = [f"agent {options.agent!r}, matching {options.matching}"]
    for index, check in enumerate(checks):
        if index:
            lines.append("")
        lines.append(f"robots.txt {check.source.location}: {check.source.summary}")
        lines.extend(_rules_facts(check.source.rules))
        for url, decision in check.results:
            lines.append("")
            lines.extend(_decision_lines(url, decision))
    return "\n".join(lines)


def render_json(options: CheckOptions, checks: Sequence[Check]) -> str:
    """Machine-readable report with the same content as :func:`render_text`."""
    document = {
        "agent": options.agent,
        "matching": options.matching,
        "status_policy": options.status_policy,
        "robots": [_check_data(check) for check in checks],
    }
    return json.dumps(document, indent=2)


def _decision_lines(url: str, decision: Decision) -> list[str]:
    verdict = "allowed" if decision.allowed else "disallowed"
    if decision.rule is None:
        rule = "none"
    else:
        rule = f"line {decision.rule.line}: {decision.rule.text}"
    return [
        f"{verdict:<12}{url}",
        f"  group     {_group_text(decision.group)}",
        f"  rule      {rule}",
        f"  reason    {decision.reason}",
    ]


def _rules_facts(rules: AgentRules | None) -> list[str]:
    if rules is None:
        return []
    facts = [f"  sitemap     {sitemap}" for sitemap in rules.sitemaps]
    if rules.crawl_delay is not None:
        facts.insert(0, f"  crawl-delay {rules.crawl_delay:g} s")
    return facts


def _group_text(group: Sequence[str]) -> str:
    if not group:
        return "none"
    return ", ".join(f"User-agent: {value}" for value in group)


def _check_data(check: Check) -> dict[str, object]:
    source = check.source
    return {
        "location": source.location,
        "status": source.status,
        "outcome": source.outcome,
        "summary": source.summary,
        "crawl_delay": None if source.rules is None else source.rules.crawl_delay,
        "sitemaps": [] if source.rules is None else list(source.rules.sitemaps),
        "results": [_decision_data(url, decision) for url, decision in check.results],
    }


def _decision_data(url: str, decision: Decision) -> dict[str, object]:
    rule = decision.rule
    return {
        "url": url,
        "allowed": decision.allowed,
        "group": list(decision.group),
        "rule": None
        if rule is None
        else {"line": rule.line, "text": rule.text, "allow": rule.allow, "pattern": rule.pattern},
        "reason": decision.reason,
    }
