"""Worst-case robots.txt files: each is parsed and decided in bounded time (issue 6).

The bounds are generous (a slow shared CI machine must pass them) and count this process's CPU
time, which other processes on a loaded machine do not inflate; what they catch is super-linear
behaviour, which turns these inputs into minutes or hours. The measured time of each case is
printed (run with ``-s``) and recorded as a test property.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from scrapy_robots_rep.core import RobotsTxt

HOST = "http://example.com"
BOUND_SECONDS = 5.0
BIG_FILE_BOUND_SECONDS = 15.0
MB = 1 << 20


@dataclass(frozen=True)
class WorstCase:
    """A hostile file, the URLs to decide on it, and what each decision must be."""

    body: Callable[[], bytes]
    decisions: dict[str, bool]
    agent: str = "mybot"
    matching: str = "rfc9309"
    max_size: int = 512_000
    bound: float = BOUND_SECONDS


def many_rules() -> bytes:
    rules = "".join(f"Disallow: /private/{index}/\n" for index in range(100_000))
    return ("User-agent: *\n" + rules + "Allow: /private/77777/open\n").encode()


def many_groups() -> bytes:
    groups = "".join(f"User-agent: bot{index}\nDisallow: /g{index}\n\n" for index in range(100_000))
    return (groups + "User-agent: *\nDisallow: /star\n").encode()


def many_groups_for_the_agent() -> bytes:
    return "".join(f"User-agent: mybot\nDisallow: /g{index}/\n\n" for index in range(100_000)).encode()


def repeated_agent_lines() -> bytes:
    return ("User-agent: mybot\n" * 100_000 + "Disallow: /blocked\n").encode()


def alternating_agent_lines() -> bytes:
    return ("User-agent: other\nUser-agent: *\n" * 50_000 + "Disallow: /blocked\n").encode()


def star_pattern() -> bytes:
    return ("User-agent: *\nDisallow: /" + "*a" * 40 + "*b\n").encode()


def star_run() -> bytes:
    return ("User-agent: *\nDisallow: /" + "*" * 16_000 + "b$\n").encode()


def many_star_patterns() -> bytes:
    rules = "".join(f"Disallow: /{'*a' * (index % 30 + 1)}*x{index}$\n" for index in range(300))
    return ("User-agent: *\n" + rules).encode()


def long_line() -> bytes:
    return b"User-agent: *\nDisallow: /" + b"a" * (16 * MB) + b"\nDisallow: /b\n"


def star_line_at_the_size_limit() -> bytes:
    return b"User-agent: *\nDisallow: /" + b"a*" * 250_000 + b"z\nDisallow: /b\n"


def long_garbage_line() -> bytes:
    return b"User-agent: *\n" + b"<div>" * (16 * MB // 5) + b"\nDisallow: /b\n"


def only_hashes() -> bytes:
    return b"#" * (16 * MB)


LONG_PATH = "/" + "a" * 100_000
STAR_PATH = "/" + "a" * 10_000

CASES = {
    "100k rules in one group": WorstCase(
        many_rules,
        {"/private/5/x": False, "/private/99999/": False, "/private/77777/open": True, "/public": True},
        max_size=8 * MB,
    ),
    "100k groups, agent falls back to *": WorstCase(
        many_groups,
        {"/star": False, "/g5": True, "/": True},
        max_size=8 * MB,
    ),
    "100k groups all for the agent (merged)": WorstCase(
        many_groups_for_the_agent,
        {"/g99999/x": False, "/g0/": False, "/h": True},
        max_size=8 * MB,
    ),
    "100k repeated user-agent lines": WorstCase(
        repeated_agent_lines,
        {"/blocked": False, "/open": True},
        max_size=8 * MB,
    ),
    "100k alternating user-agent lines": WorstCase(
        alternating_agent_lines,
        {"/blocked": False, "/open": True},
        max_size=8 * MB,
    ),
    "40 stars against a 10k path": WorstCase(
        star_pattern,
        {STAR_PATH: True, STAR_PATH + "b": False},
    ),
    "16k consecutive stars": WorstCase(
        star_run,
        {STAR_PATH: True, STAR_PATH + "b": False},
    ),
    "300 star patterns against a 2k path": WorstCase(
        many_star_patterns,
        {STAR_PATH[:2000]: True, "/" + "a" * 30 + "x299": False},
    ),
    "16 MB value line": WorstCase(
        long_line,
        {"/" + "a" * 1000: True, "/b": False},
        max_size=32 * MB,
        bound=BIG_FILE_BOUND_SECONDS,
    ),
    "500 KB value of 250k stars": WorstCase(
        star_line_at_the_size_limit,
        {STAR_PATH[:5001]: True, "/b": False},
        max_size=1 * MB,
    ),
    "16 MB garbage line": WorstCase(
        long_garbage_line,
        {"/b": False, "/a": True},
        max_size=32 * MB,
        bound=BIG_FILE_BOUND_SECONDS,
    ),
    "1 MB URLs against 100k rules": WorstCase(
        many_rules,
        {"/private/5/" + "a" * MB: False, "/" + "%61" * (MB // 3): True, "/" + "é" * (MB // 2): True},
        max_size=8 * MB,
        bound=BIG_FILE_BOUND_SECONDS,
    ),
    "16 MB of # only": WorstCase(
        only_hashes,
        {"/": True, LONG_PATH: True},
        max_size=32 * MB,
        bound=BIG_FILE_BOUND_SECONDS,
    ),
    "16 MB of # cut at the default limit": WorstCase(only_hashes, {"/": True}),
    "legacy: 100k rules in one record": WorstCase(
        many_rules,
        {"/private/5/x": False, "/private/77777/open": False, "/public": True},
        agent="MyBot/1.0",
        matching="legacy",
        max_size=8 * MB,
    ),
    "legacy: 100k records, agent falls back to *": WorstCase(
        many_groups,
        {"/star": False, "/g5": True},
        agent="MyBot/1.0",
        matching="legacy",
        max_size=8 * MB,
    ),
    "legacy: 16 MB value line": WorstCase(
        long_line,
        {"/" + "a" * 1000: True, "/b": False},
        agent="MyBot/1.0",
        matching="legacy",
        max_size=32 * MB,
        bound=BIG_FILE_BOUND_SECONDS,
    ),
}


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", list(CASES))
def test_worst_case_is_decided_in_bounded_time(name: str, record_property: Callable[[str, object], None]) -> None:
    case = CASES[name]
    body = case.body()
    started = time.process_time()
    robots = RobotsTxt.parse(body, case.matching, max_size=case.max_size)
    rules = robots.for_agent(case.agent)
    answers = {path: rules.allowed(HOST + path) for path in case.decisions}
    answers_again = {path: robots.allowed(HOST + path, case.agent) for path in case.decisions}
    elapsed = time.process_time() - started
    record_property("seconds", round(elapsed, 3))
    print(f"\n{name}: {len(body) / MB:.1f} MB parsed and decided in {elapsed:.3f} s")
    assert answers == case.decisions
    assert answers_again == case.decisions
    assert elapsed < case.bound
