"""What the command-line tools decide: the robots.txt in force, the decision per URL, the exit status.

Shared by ``python -m scrapy_robots_rep check`` and ``scrapy robots``; no Scrapy import.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from scrapy_robots_rep.core import AgentRules, Decision, RobotsTxt, SourceLine
from scrapy_robots_rep.core.lint import agent_lines, obeyed_lines
from scrapy_robots_rep.core.robots import DEFAULT_MAX_SIZE
from scrapy_robots_rep.policy.failure_plan import FailurePlan
from scrapy_robots_rep.policy.origin import origin_of
from scrapy_robots_rep.policy.record_cache import CacheRecord
from scrapy_robots_rep.policy.status import Outcome

EXIT_OK = 0
"""Every URL allowed; the modes agree; no lint warning."""
EXIT_FOUND = 1
"""Some URL disallowed; the modes differ on some URL; some lint warning."""
EXIT_ERROR = 2
"""A usage error, or robots.txt could not be obtained."""


class Verdict(Enum):
    """What a crawl does with a URL."""

    ALLOWED = "allowed"
    DISALLOWED = "disallowed"
    DEFERRED = "deferred"  # robots.txt could not be obtained: the request waits


@dataclass(frozen=True, slots=True)
class RobotsSource:
    """One robots.txt and what was made of it: its body, or the rules standing in for it."""

    location: str
    summary: str
    outcome: Outcome
    body: bytes | None = None
    """The file, when its rules are in force (outcome ``RULES``)."""
    fixed: AgentRules | None = None
    """The rules without a file (allow all, disallow all, or a failure's), when ``body`` is None."""
    origin: str | None = None
    """The origin the robots.txt belongs to, when known (a live URL)."""
    status: int | None = None
    record: CacheRecord | None = None
    """The cache record a crawl would keep (a live URL)."""
    plan: FailurePlan | None = None
    """What a crawl does next after a failed fetch."""
    max_size: int = DEFAULT_MAX_SIZE

    def rules(self, agent: str, matching: str) -> AgentRules:
        """The rules ``agent`` obeys under ``matching``."""
        if self.body is not None:
            return RobotsTxt.parse(self.body, matching, max_size=self.max_size).for_agent(agent)
        assert self.fixed is not None, "a source has a body or fixed rules"
        return self.fixed

    def group_lines(self, agent: str, matching: str) -> tuple[SourceLine, ...]:
        """The user-agent lines of the groups ``agent`` obeys (none without a file)."""
        if self.body is None:
            return ()
        return agent_lines(self.body, matching, agent, max_size=self.max_size)

    def obeyed_lines(self, agent: str, matching: str) -> tuple[SourceLine, ...]:
        """Every line of the groups ``agent`` obeys: user-agent lines, rules, delays, signals (none without a file)."""
        if self.body is None:
            return ()
        return obeyed_lines(self.body, matching, agent, max_size=self.max_size)


@dataclass(frozen=True, slots=True)
class UrlResult:
    """One URL's decision, and a warning when the robots.txt does not speak for its origin."""

    url: str
    verdict: Verdict
    decision: Decision
    warning: str | None = None


@dataclass(frozen=True, slots=True)
class Check:
    """URLs decided against one robots.txt in one matching mode."""

    source: RobotsSource
    matching: str
    rules: AgentRules
    group: tuple[SourceLine, ...]
    """The user-agent lines of the groups obeyed."""
    lines: tuple[SourceLine, ...]
    """Every line of the groups obeyed."""
    results: tuple[UrlResult, ...]


def require_http_urls(urls: Sequence[str]) -> None:
    """Raise ValueError naming the first URL that is not an absolute http(s) URL."""
    for url in urls:
        if origin_of(url) is None:
            raise ValueError(f"URL must be an absolute http(s) URL, got {url!r}")


def require_check_urls(urls: Sequence[str]) -> None:
    """Raise ValueError naming the first URL that is neither an absolute http(s) URL nor a path
    (``/wiki/X``, on the unnamed origin of a robots.txt file)."""
    for url in urls:
        if not url.startswith("/") and origin_of(url) is None:
            raise ValueError(f"URL must be an absolute http(s) URL or a path starting with '/', got {url!r}")


def check_urls(source: RobotsSource, urls: Sequence[str], agent: str, matching: str) -> Check:
    """Decide every URL with the rules ``agent`` obeys in ``source`` under ``matching``."""
    rules = source.rules(agent, matching)
    warnings = origin_warnings(source.origin, urls)
    results = tuple(
        UrlResult(url, _verdict(source, decision), decision, warnings.get(url))
        for url, decision in ((url, rules.explain(url)) for url in urls)
    )
    return Check(
        source, matching, rules, source.group_lines(agent, matching), source.obeyed_lines(agent, matching), results
    )


def origin_warnings(robots_origin: str | None, urls: Sequence[str]) -> dict[str, str]:
    """A warning per URL of another origin than the robots.txt's (or, for a file, the first URL's);
    a path is on the robots.txt's own origin."""
    warnings: dict[str, str] = {}
    named = [url for url in urls if origin_of(url) is not None]
    if not named:
        return warnings
    expected = robots_origin or origin_of(named[0])
    for url in named:
        origin = origin_of(url)
        if origin == expected:
            continue
        if robots_origin is not None:
            warnings[url] = f"{origin} is another origin than this robots.txt's ({robots_origin}): its own applies"
        else:
            warnings[url] = (
                f"{origin} is another origin than the first URL's ({expected}): a robots.txt speaks for one origin only"
            )
    return warnings


def exit_status(checks: Sequence[Check]) -> int:
    """2 if some robots.txt was not obtained, else 0 if every URL is allowed, else 1."""
    if any(check.source.outcome.failed for check in checks):
        return EXIT_ERROR
    if all(result.verdict is Verdict.ALLOWED for check in checks for result in check.results):
        return EXIT_OK
    return EXIT_FOUND


def differs(left: UrlResult, right: UrlResult) -> bool:
    """Whether two decisions on one URL (in two modes) differ in what a crawl does."""
    return left.verdict is not right.verdict


def errors(checks: Sequence[Check]) -> list[str]:
    """One line per robots.txt that could not be obtained, for standard error."""
    return [
        f"error: no robots.txt rules could be obtained from {check.source.location}"
        for check in checks
        if check.source.outcome.failed
    ]


def _verdict(source: RobotsSource, decision: Decision) -> Verdict:
    if source.outcome.failed:
        return Verdict.DEFERRED
    return Verdict.ALLOWED if decision.allowed else Verdict.DISALLOWED
