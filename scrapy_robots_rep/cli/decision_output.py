"""What the command-line tools print for decisions: one mode, or both side by side; text or JSON.

Shared by ``python -m scrapy_robots_rep check`` and ``scrapy robots``, so both explain a
decision the same way: what a crawl does, the group with its line numbers, the deciding
rule with its line, the reason (docs/behaviour.md §9).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scrapy_robots_rep.cli.checks import Check, RobotsSource, UrlResult, Verdict, differs
from scrapy_robots_rep.core import AgentRules, Decision, SourceLine, matching_mode
from scrapy_robots_rep.policy.deferral import Recovery
from scrapy_robots_rep.policy.freshness import LifetimeSource

LIFETIME_SOURCES = {
    LifetimeSource.MAX_AGE: "Cache-Control max-age",
    LifetimeSource.EXPIRES: "Expires header",
    LifetimeSource.NO_CACHE: "Cache-Control no-cache or no-store: REP_CACHE_TTL_MIN",
    LifetimeSource.DEFAULT: "REP_CACHE_TTL: no freshness header used",
}
NEXT_STEPS = {
    Recovery.RETRY: "a crawl defers its requests and fetches robots.txt again in {delay:g} s",
    Recovery.DROP: "a crawl drops its requests for {delay:g} s",
    Recovery.ALLOW_ALL: "a crawl allows everything and fetches robots.txt again in {delay:g} s",
    Recovery.USE_COPY: "a crawl uses its last copy and fetches robots.txt again in {delay:g} s",
}


@dataclass(frozen=True, slots=True)
class CheckOptions:
    """The choices a check was made with."""

    agent: str
    matching: str
    status_policy: str


def render_text(options: CheckOptions, checks: Sequence[Check]) -> str:
    """Human-readable report: a header per robots.txt, then a paragraph per URL."""
    lines = [_agent_header(options.agent, f"matching {options.matching}", options.matching)]
    for index, check in enumerate(checks):
        if index:
            lines.append("")
        lines.append(f"robots.txt {check.source.location}: {check.source.summary}")
        lines.extend(_source_facts(check.source))
        lines.extend(_rules_facts(check.rules))
        if not check.results:
            lines.append("")
            lines.extend(_group_paragraph(check))
        for result in check.results:
            lines.append("")
            lines.extend(_result_lines(result, check))
    return "\n".join(lines)


def render_json(options: CheckOptions, checks: Sequence[Check]) -> str:
    """Machine-readable report with the same content as :func:`render_text`."""
    document = {
        "agent": options.agent,
        "matching": options.matching,
        "status_policy": options.status_policy,
        "robots": [
            {
                **_source_data(check.source),
                **_rules_data(check.rules),
                "group_lines": _lines_data(check.group),
                "lines": _lines_data(check.lines),
                "results": [_result_data(result) for result in check.results],
            }
            for check in checks
        ],
    }
    return json.dumps(document, indent=2)


def render_compare_text(agent: str, status_policy: str, checks: Mapping[str, Check]) -> str:
    """Both modes side by side: per URL, one line per mode, and whether they differ."""
    modes = list(checks)
    first = checks[modes[0]]
    lines = [
        _agent_header(agent, f"matching {' and '.join(modes)} compared", modes[0]),
        f"robots.txt {first.source.location}: {first.source.summary}",
    ]
    lines.extend(_source_facts(first.source))
    width = max(map(len, modes))
    facts = {mode: _rules_facts(check.rules) for mode, check in checks.items()}
    common = [fact for fact in facts[modes[0]] if all(fact in mode_facts for mode_facts in facts.values())]
    lines.extend(common)
    for mode, mode_facts in facts.items():
        lines.extend(f"  {mode:<{width}}  {fact.strip()}" for fact in mode_facts if fact not in common)
    for position, result in enumerate(first.results):
        per_mode = {mode: check.results[position] for mode, check in checks.items()}
        same = not any(differs(result, other) for other in per_mode.values())
        lines.append("")
        lines.append(f"{result.url}  ({'same in both modes' if same else 'the modes differ'})")
        for mode, check in checks.items():
            mode_result = per_mode[mode]
            group = f"group {_line_numbers(check.group)}"
            lines.append(
                f"  {mode:<{width}}  {mode_result.verdict.value:<11} {group}  "
                f"rule {_rule_text(mode_result.decision)}  ({mode_result.decision.reason})"
            )
        if result.warning is not None:
            lines.append(f"  warning   {result.warning}")
    return "\n".join(lines)


def render_compare_json(agent: str, status_policy: str, checks: Mapping[str, Check]) -> str:
    """Both modes side by side, as JSON."""
    modes = list(checks)
    first = checks[modes[0]]
    results = []
    for position, result in enumerate(first.results):
        per_mode = {mode: check.results[position] for mode, check in checks.items()}
        entry: dict[str, object] = {
            "url": result.url,
            "differ": any(differs(result, other) for other in per_mode.values()),
            "warning": result.warning,
        }
        for mode, mode_result in per_mode.items():
            data = _result_data(mode_result)
            del data["url"], data["warning"]
            data["group_lines"] = _lines_data(checks[mode].group)
            entry[mode] = data
        results.append(entry)
    document = {
        "agent": agent,
        "matching": modes,
        "status_policy": status_policy,
        "robots": {**_source_data(first.source), "results": results},
    }
    return json.dumps(document, indent=2)


def _agent_header(agent: str, matching_text: str, matching: str) -> str:
    token = matching_mode(matching).agent_token(agent)
    read_as = f" (read as {token!r})" if token != agent else ""
    return f"agent {agent!r}{read_as}, {matching_text}"


def _group_paragraph(check: Check) -> list[str]:
    """The group the agent obeys, line by line: what ``check ROBOTS`` without a URL shows."""
    lines = [f"group       {_group_text(check.group)}"]
    lines.extend(f"  line {line.line:<4} {line.text}" for line in check.lines)
    return lines


def _result_lines(result: UrlResult, check: Check) -> list[str]:
    lines = [
        f"{result.verdict.value:<12}{result.url}",
        f"  group     {_group_text(check.group)}",
        f"  rule      {_rule_text(result.decision)}",
        f"  reason    {result.decision.reason}",
    ]
    if result.warning is not None:
        lines.append(f"  warning   {result.warning}")
    return lines


def _source_facts(source: RobotsSource) -> list[str]:
    """What a crawl does next after a failure; how long the record stays fresh and its validators."""
    facts = []
    if source.plan is not None:
        facts.append(f"  next        {NEXT_STEPS[source.plan.recovery].format(delay=source.plan.delay)}")
    record = source.record
    if record is not None and record.lifetime_source is not None:
        lifetime = record.expires_at - record.fetched_at
        facts.append(f"  fresh for   {lifetime:g} s ({LIFETIME_SOURCES[record.lifetime_source]})")
    if record is not None and record.validators is not None:
        if record.validators.etag is not None:
            facts.append(f"  etag        {record.validators.etag}")
        if record.validators.last_modified is not None:
            facts.append(f"  modified    {record.validators.last_modified}")
    return facts


def _rules_facts(rules: AgentRules) -> list[str]:
    facts = []
    if rules.crawl_delay is not None:
        facts.append(f"  crawl-delay {rules.crawl_delay:g} s")
    if rules.content_signals:
        signals = ", ".join(
            f"{purpose}={'yes' if allowed else 'no'}" for purpose, allowed in rules.content_signals.items()
        )
        facts.append(f"  signals     {signals}")
    facts.extend(f"  sitemap     {sitemap}" for sitemap in rules.sitemaps)
    return facts


def _rule_text(decision: Decision) -> str:
    rule = decision.rule
    return "none" if rule is None else f"line {rule.line}: {rule.text}"


def _group_text(group: Sequence[SourceLine]) -> str:
    """``User-agent: a (lines 1, 9), User-agent: b (line 2)``: each text once, with its lines."""
    if not group:
        return "none"
    numbers: dict[str, list[int]] = {}
    for line in group:
        numbers.setdefault(line.text, []).append(line.line)
    return ", ".join(
        f"{text} ({'line' if len(found) == 1 else 'lines'} {', '.join(map(str, found))})"
        for text, found in numbers.items()
    )


def _line_numbers(group: Sequence[SourceLine]) -> str:
    if not group:
        return "none"
    return ("line " if len(group) == 1 else "lines ") + ", ".join(str(line.line) for line in group)


def _source_data(source: RobotsSource) -> dict[str, object]:
    record = source.record
    plan = source.plan
    validators = record.validators if record is not None else None
    return {
        "location": source.location,
        "status": source.status,
        "outcome": source.outcome.value,
        "summary": source.summary,
        "next": None if plan is None else {"recovery": plan.recovery.value, "delay": plan.delay},
        "freshness": None
        if record is None or record.lifetime_source is None
        else {"lifetime": record.expires_at - record.fetched_at, "source": record.lifetime_source.value},
        "validators": None
        if validators is None
        else {"etag": validators.etag, "last_modified": validators.last_modified},
    }


def _rules_data(rules: AgentRules) -> dict[str, object]:
    return {
        "crawl_delay": rules.crawl_delay,
        "content_signals": dict(rules.content_signals),
        "sitemaps": list(rules.sitemaps),
    }


def _lines_data(lines: Sequence[SourceLine]) -> list[dict[str, object]]:
    return [{"line": line.line, "text": line.text} for line in lines]


def _result_data(result: UrlResult) -> dict[str, object]:
    decision = result.decision
    rule = decision.rule
    return {
        "url": result.url,
        "verdict": result.verdict.value,
        "allowed": None if result.verdict is Verdict.DEFERRED else decision.allowed,
        "group": list(decision.group),
        "rule": None
        if rule is None
        else {"line": rule.line, "text": rule.text, "allow": rule.allow, "pattern": rule.pattern},
        "reason": decision.reason,
        "warning": result.warning,
    }
