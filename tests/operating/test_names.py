"""Names in tables: the stats, the meta keys and the loggers are each written once and documented exactly.

Like the settings (tests/policy/test_settings_table.py): ``docs/operating.md`` shows the stats table
of ``policy/stat_names.py`` and the meta-keys table of ``crawl/meta_keys.py`` row for row, no module
writes a stat name or one of those meta keys as a literal of its own, and each documented log line
comes from the logger the doc names (users filter on those names).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import pytest_twisted
from scrapy import Request

from scrapy_robots_rep.crawl.meta_keys import META_KEYS
from scrapy_robots_rep.policy.stat_names import Stat
from tests.crawling import crawl
from tests.page.pages import MIDDLEWARE, html, links, meta
from tests.sites import Sites, text

ROOT = Path(__file__).resolve().parents[2]
OPERATING = ROOT / "docs" / "operating.md"
PACKAGE = ROOT / "scrapy_robots_rep"


def _section(title: str) -> str:
    return OPERATING.read_text(encoding="utf-8").split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def _rows(section: str) -> list[str]:
    return [line for line in section.splitlines() if line.startswith("| `")]


def test_the_operating_document_lists_exactly_the_stats_table() -> None:
    section = _section("Stats").split("\n### ", 1)[0]
    assert _rows(section) == [f"| `{stat.pattern}` | {stat.doc} |" for stat in Stat]


def test_the_operating_document_lists_exactly_the_meta_keys_table() -> None:
    assert _rows(_section("Request meta keys")) == [f"| `{key}` | {doc} |" for key, doc in META_KEYS.items()]


def test_a_stat_family_takes_its_part_and_a_single_stat_none() -> None:
    assert Stat.ROBOTS_STATUS.key(404) == "rep/robots/status/404"
    assert Stat.CACHE_HITS.key() == "rep/cache/hits"
    with pytest.raises(ValueError, match="takes a part"):
        Stat.ROBOTS_STATUS.key()
    with pytest.raises(ValueError, match="takes no part"):
        Stat.CACHE_HITS.key("x")


def _literals(path: Path) -> list[tuple[int, str]]:
    """The module's string constants and f-string heads, except store classes' ``stats_prefix``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    prefixes = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Assign, ast.AnnAssign))
        and any(isinstance(target, ast.Name) and target.id == "stats_prefix" for target in _targets(node))
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
            found.append((node.lineno, str(node.values[0].value)))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prefixes:
            found.append((node.lineno, node.value))
    return found


def _targets(node: ast.Assign | ast.AnnAssign) -> list[ast.expr]:
    return list(node.targets) if isinstance(node, ast.Assign) else [node.target]


def test_stat_names_and_meta_keys_are_written_only_in_their_tables() -> None:
    keys = set(META_KEYS) - {"robots"}  # "robots" is also the meta tag's and the audit folder's name
    stray = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        for line, value in _literals(path):
            if relative != "policy/stat_names.py" and re.match(r"(rep|robotstxt)/", value):
                stray.append(f"{relative}:{line} stat {value!r}")
            if relative != "crawl/meta_keys.py" and value in keys:
                stray.append(f"{relative}:{line} meta key {value!r}")
    assert stray == []


def _documented_lines() -> dict[str, list[re.Pattern[str]]]:
    """Each logger of the doc's table, with its lines as patterns (``<x>`` and ``...`` match anything)."""
    documented: dict[str, list[re.Pattern[str]]] = {}
    for row in _rows(_section("Loggers")):
        logger, lines = re.fullmatch(r"\| `([^`]+)` \| (.*) \|", row).groups()  # type: ignore[union-attr]
        patterns = []
        for line in re.findall(r"`([^`]+)`", lines):
            parts = re.split(r"<[^>]+>|\.\.\.", line)
            patterns.append(re.compile(".*?".join(re.escape(part) for part in parts) + "$"))
        documented[logger] = patterns
    return documented


@pytest_twisted.ensureDeferred
async def test_each_documented_log_line_comes_from_the_logger_the_doc_names(sites: Sites) -> None:
    site = sites.start(
        {
            "/robots.txt": text("User-agent: *\nDisallow: /private\nCrawl-delay: 0.01\n"),
            "/page": html(meta("nofollow, noindex"), links("/next")),
            "/private": html(),
        }
    )
    down = sites.start({"/robots.txt": text("", status=503)})
    result = await crawl(
        [f"{site.url}/page", f"{site.url}/private", f"{down.url}/a"],
        settings={"SPIDER_MIDDLEWARES": MIDDLEWARE, "REP_DEFER_MAX_TIME": 0},
        page=lambda response, spider: [Request(response.urljoin("/next")), {"url": response.url}],
    )
    documented = _documented_lines()
    seen: dict[str, set[str]] = {}
    for logged in result.logs:
        for logger, patterns in documented.items():
            if any(pattern.match(logged.message) for pattern in patterns):
                seen.setdefault(logged.message, set()).add(logged.name)
                assert logged.name == logger, f"{logged.message!r} came from {logged.name}, documented under {logger}"
    loggers_seen = {name for names in seen.values() for name in names}
    assert {logger for logger, patterns in documented.items() if patterns} <= loggers_seen
