"""The plain-data (JSON-safe) form of ``AgentRules``, written and read back checked.

``AgentRules.to_dict`` and ``AgentRules.from_dict`` are the public entry
points; this module knows the format and returns ``AgentRulesFields`` (the
constructor's arguments), so it never needs ``AgentRules`` itself.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from scrapy_robots_rep.core.decision import SourceLine
from scrapy_robots_rep.core.fields import ALLOW, CONTENT_SIGNAL, CONTENT_USAGE, DISALLOW, FIELDS
from scrapy_robots_rep.core.lines import parse_line
from scrapy_robots_rep.core.modes import MATCHING_MODES

DumpedRule = tuple[bool, str, int, str]
"""A rule as ``(allow, pattern, line, text)``, the fields of ``Rule``."""

FORMAT_VERSION = 3
"""Version 2 added ``content_signals`` and renamed ``verdict`` to ``fixed``; version 3 added
``content_usage`` and ``licenses``. ``extensions`` (name -> values) is present only when the file
was parsed with extension fields, so data without them is what earlier releases of version 3 wrote."""

_EXTENSIONS = "extensions"

# Line numbers are kept in 4-byte arrays.
_LINE_LIMIT = 1 << 32
_KEYS = frozenset(
    (
        *("v", "matching", "group", "crawl_delay", "sitemaps", "content_signals", "content_usage", "licenses"),
        *("fixed", "reason", "rules"),
    )
)


@dataclass(frozen=True, slots=True)
class AgentRulesFields:
    """What an ``AgentRules`` is built from (its constructor's arguments)."""

    matching: str
    group: tuple[str, ...]
    rules: tuple[DumpedRule, ...]
    crawl_delay: float | None
    sitemaps: tuple[str, ...]
    content_signal_lines: tuple[SourceLine, ...]
    content_usage_lines: tuple[SourceLine, ...]
    licenses: tuple[str, ...]
    extensions: Mapping[str, tuple[str, ...]]
    fixed: bool | None
    reason: str | None


def dump(fields: AgentRulesFields) -> dict[str, Any]:
    """``fields`` as JSON-safe plain data."""
    data: dict[str, Any] = {
        "v": FORMAT_VERSION,
        "matching": fields.matching,
        "group": list(fields.group),
        "crawl_delay": fields.crawl_delay,
        "sitemaps": list(fields.sitemaps),
        "content_signals": [[source.line, source.text] for source in fields.content_signal_lines],
        "content_usage": [[source.line, source.text] for source in fields.content_usage_lines],
        "licenses": list(fields.licenses),
        "fixed": fields.fixed,
        "reason": fields.reason,
        "rules": [list(rule) for rule in fields.rules],
    }
    if fields.extensions:
        data[_EXTENSIONS] = {name: list(values) for name, values in fields.extensions.items()}
    return data


def load(data: object) -> AgentRulesFields:
    """Read ``dump`` output back; ValueError naming what is wrong when malformed."""
    if not isinstance(data, dict):
        raise ValueError(f"AgentRules data must be a dict, got {type(data).__name__}")
    if data.get("v") != FORMAT_VERSION:
        raise ValueError(
            f"unsupported AgentRules data version {data.get('v')!r} (expected {FORMAT_VERSION}): "
            "data written by another release; fetch robots.txt again"
        )
    if set(data) - {_EXTENSIONS} != _KEYS:
        raise ValueError(
            f"AgentRules data must have exactly the keys {sorted(_KEYS)} (and {_EXTENSIONS!r}), "
            f"got {sorted(map(str, data))}"
        )
    matching = data["matching"]
    mode = MATCHING_MODES.get(matching) if isinstance(matching, str) else None
    if mode is None:
        raise ValueError(f"unknown matching mode {matching!r} in AgentRules data")
    fixed = data["fixed"]
    reason = data["reason"]
    if fixed is not None and not isinstance(fixed, bool):
        raise ValueError(f"'fixed' must be true, false or null, got {fixed!r}")
    if not (reason is None or isinstance(reason, str)) or (fixed is not None and reason is None):
        raise ValueError(f"'reason' must be a string when 'fixed' is set, got {reason!r}")
    rules = _read_rules(data["rules"], mode.lenient)
    if fixed is not None and rules:
        raise ValueError("AgentRules data with a 'fixed' decision must have no rules")
    return AgentRulesFields(
        matching=matching,
        group=_read_strings(data["group"], "group"),
        rules=rules,
        crawl_delay=_read_delay(data["crawl_delay"]),
        sitemaps=_read_line_values(data["sitemaps"], "sitemaps"),
        content_signal_lines=_read_field_lines(data, "content_signals", CONTENT_SIGNAL, mode.lenient),
        content_usage_lines=_read_field_lines(data, "content_usage", CONTENT_USAGE, mode.lenient),
        licenses=_read_line_values(data["licenses"], "licenses"),
        extensions=_read_extensions(data.get(_EXTENSIONS, {})),
        fixed=fixed,
        reason=reason,
    )


def _read_strings(value: object, key: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError(f"{key!r} must be a list of strings")
    return tuple(value)


def _read_line_values(value: object, key: str) -> tuple[str, ...]:
    """Sitemap or licence URLs, each one non-empty robots.txt line value."""
    values = _read_strings(value, key)
    if not all(values) or any("\n" in item or "\r" in item for item in values):
        raise ValueError(f"each of {key!r} must be a non-empty string without line breaks")
    return values


def _read_extensions(value: object) -> Mapping[str, tuple[str, ...]]:
    """Extension field name (lower-case) -> its values, each one non-empty line value."""
    if not isinstance(value, dict) or not all(isinstance(name, str) and name == name.lower() for name in value):
        raise ValueError(f"{_EXTENSIONS!r} must map lower-case field names to lists of strings")
    return MappingProxyType({name: _read_line_values(values, name) for name, values in value.items()})


def _read_delay(value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise ValueError(f"'crawl_delay' must be null or a number >= 0, got {value!r}")
    return float(value)


def _is_line_number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value < _LINE_LIMIT


def _check_one_line(text: str) -> None:
    if "\n" in text or "\r" in text:
        raise ValueError(f"line text {text!r} must be one line")


def _read_rules(value: object, lenient: bool) -> tuple[DumpedRule, ...]:
    if not isinstance(value, list):
        raise ValueError("'rules' must be a list")
    rules = []
    for item in value:
        if (
            not isinstance(item, list)
            or len(item) != 4
            or not isinstance(item[0], bool)
            or not isinstance(item[1], str)
            or not _is_line_number(item[2])
            or not isinstance(item[3], str)
        ):
            raise ValueError(
                f"each rule must be [allow: bool, pattern: str, line: int from 1 to {_LINE_LIMIT - 1}, text: str], "
                f"got {item!r}"
            )
        allow, pattern, line, text = item
        _check_one_line(text)
        if parse_line(text, lenient) != (ALLOW if allow else DISALLOW, pattern):
            raise ValueError(f"rule text {text!r} does not say {'Allow' if allow else 'Disallow'}: {pattern!r}")
        rules.append((allow, pattern, line, text))
    return tuple(rules)


def _read_field_lines(data: dict[str, Any], key: str, name: str, lenient: bool) -> tuple[SourceLine, ...]:
    """The lines of the ``Kept.LINES`` field ``name`` (``data[key]``), each one the parser keeps."""
    value = data[key]
    if not isinstance(value, list):
        raise ValueError(f"{key!r} must be a list")
    row = FIELDS[name]
    lines = []
    for item in value:
        if not isinstance(item, list) or len(item) != 2 or not _is_line_number(item[0]) or not isinstance(item[1], str):
            raise ValueError(
                f"each of {key!r} must be [line: int from 1 to {_LINE_LIMIT - 1}, text: str], got {item!r}"
            )
        line, text = item
        _check_one_line(text)
        parsed = parse_line(text, lenient)
        if parsed is None or parsed[0] != name or row.read(parsed[1]) is None:
            raise ValueError(f"line text {text!r} is not a {row.written} line the parser keeps")
        lines.append(SourceLine(line, text))
    return tuple(lines)
