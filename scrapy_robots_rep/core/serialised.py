"""Read the plain-data form of ``AgentRules`` back, checking every field."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from scrapy_robots_rep.core.rule_index import RuleRow
from scrapy_robots_rep.core.lines import ALLOW, DISALLOW, parse_line
from scrapy_robots_rep.core.modes import FORMAT_VERSION, MATCHING_MODES

if TYPE_CHECKING:
    from scrapy_robots_rep.core.agent_rules import AgentRules

# Line numbers are kept in 4-byte arrays.
_LINE_LIMIT = 1 << 32
_KEYS = frozenset(("v", "matching", "group", "crawl_delay", "sitemaps", "verdict", "reason", "rules"))


def read_agent_rules(cls: type[AgentRules], data: Any) -> AgentRules:
    """Build ``cls`` from ``AgentRules.to_dict`` output; ValueError if malformed."""
    if not isinstance(data, dict):
        raise ValueError(f"AgentRules data must be a dict, got {type(data).__name__}")
    if data.get("v") != FORMAT_VERSION:
        raise ValueError(f"unsupported AgentRules data version {data.get('v')!r} (expected {FORMAT_VERSION})")
    if set(data) != _KEYS:
        raise ValueError(f"AgentRules data must have exactly the keys {sorted(_KEYS)}, got {sorted(map(str, data))}")
    matching = data["matching"]
    if matching not in MATCHING_MODES:
        raise ValueError(f"unknown matching mode {matching!r} in AgentRules data")
    verdict = data["verdict"]
    reason = data["reason"]
    if verdict is not None and not isinstance(verdict, bool):
        raise ValueError(f"'verdict' must be true, false or null, got {verdict!r}")
    if not (reason is None or isinstance(reason, str)) or (verdict is not None and reason is None):
        raise ValueError(f"'reason' must be a string when 'verdict' is set, got {reason!r}")
    rules = _read_rules(data["rules"], lenient=matching == "rfc9309")
    if verdict is not None and rules:
        raise ValueError("AgentRules data with a fixed 'verdict' must have no rules")
    return cls(
        matching,
        _read_strings(data["group"], "group"),
        rules,
        crawl_delay=_read_delay(data["crawl_delay"]),
        sitemaps=_read_sitemaps(data["sitemaps"]),
        verdict=verdict,
        reason=reason,
    )


def _read_strings(value: Any, key: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError(f"{key!r} must be a list of strings")
    return tuple(value)


def _read_sitemaps(value: Any) -> tuple[str, ...]:
    """Sitemap URLs, each one non-empty robots.txt line value."""
    sitemaps = _read_strings(value, "sitemaps")
    if not all(sitemaps) or any("\n" in sitemap or "\r" in sitemap for sitemap in sitemaps):
        raise ValueError("each of 'sitemaps' must be a non-empty string without line breaks")
    return sitemaps


def _read_delay(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise ValueError(f"'crawl_delay' must be null or a number >= 0, got {value!r}")
    return float(value)


def _read_rules(value: Any, lenient: bool) -> list[RuleRow]:
    if not isinstance(value, list):
        raise ValueError("'rules' must be a list")
    rules = []
    for item in value:
        if (
            not isinstance(item, list)
            or len(item) != 4
            or not isinstance(item[0], bool)
            or not isinstance(item[1], str)
            or isinstance(item[2], bool)
            or not isinstance(item[2], int)
            or not 1 <= item[2] < _LINE_LIMIT
            or not isinstance(item[3], str)
        ):
            raise ValueError(
                f"each rule must be [allow: bool, pattern: str, line: int from 1 to {_LINE_LIMIT - 1}, text: str], "
                f"got {item!r}"
            )
        allow, pattern, line, text = item
        if "\n" in text or "\r" in text:
            raise ValueError(f"rule text {text!r} must be one line")
        if parse_line(text, lenient) != (ALLOW if allow else DISALLOW, pattern):
            raise ValueError(f"rule text {text!r} does not say {'Allow' if allow else 'Disallow'}: {pattern!r}")
        rules.append((allow, pattern, line, text))
    return rules
