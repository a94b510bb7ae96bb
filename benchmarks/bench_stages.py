"""What each stage of an origin's path costs, in CPU microseconds per origin.

    python benchmarks/bench_stages.py [--corpus DIR] [--smoke] [--repeats N]

``bench_core.py`` times the broad-crawl path whole (parse, ``for_agent``, the
first K decisions) against Protego; this splits it, over the same corpus and
agent, ``rfc9309``, each stage timed apart (``time.process_time``, best of
``--repeats`` runs, mean over the origins):

* ``parse``: ``RobotsTxt.parse`` (decoding and lower-casing the body);
* ``for_agent``: the agent's groups, sitemaps and licenses, the ``AgentRules``;
* ``first decision``: the first ``allowed``, which reads the rules into a table (the rules are
  counted among active rules as the middleware's cache counts them: ``bench_core.cached``);
* ``decision by the table``: each of the next ``EARLY_DECISIONS - 1``;
* ``compile``: the decision that compiles the index (``EARLY_DECISIONS + 1``);
* ``decision compiled``: each of the ``LATE_DECISIONS`` after it;
* ``pack``: packing the group's text, as when the origin leaves the active set;
* ``protego``: Protego's parse, and one ``can_fetch``, for scale.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_core import AGENT, cached, load_corpus, origin_urls  # noqa: E402

from scrapy_robots_rep.core import RobotsTxt  # noqa: E402
from scrapy_robots_rep.core.agent_rules import EARLY_DECISIONS  # noqa: E402
from scrapy_robots_rep.core.packing import pack  # noqa: E402
from tests.corpus import corpus_dir  # noqa: E402

SMOKE_FILES = 150
LATE_DECISIONS = 32
"""Decisions timed once the index is compiled, per origin."""


def best_of(repeats: int, run: Callable[[], float]) -> float:
    """The smallest of ``repeats`` results of ``run`` (seconds)."""
    return min(run() for _ in range(repeats))


def stages(sites: dict[str, bytes], urls: list[tuple[str, str]], repeats: int) -> dict[str, float]:
    """Seconds per origin (or per decision) of each stage."""
    clock = time.process_time
    work = origin_urls(sites, urls, EARLY_DECISIONS + 1 + LATE_DECISIONS)
    bodies = [body for body, _ in work]
    count = len(work)

    def parse() -> float:
        start = clock()
        for body in bodies:
            RobotsTxt.parse(body)
        return clock() - start

    def for_agent() -> float:
        parsed = [RobotsTxt.parse(body) for body in bodies]
        start = clock()
        for robots in parsed:
            robots.for_agent(AGENT)
        return clock() - start

    def decisions() -> tuple[float, float, float, float]:
        kept = [(cached(RobotsTxt.parse(body).for_agent(AGENT)), asked) for body, asked in work]
        first = early = compiling = late = 0.0
        for rules, asked in kept:
            allowed = rules.allowed
            start = clock()
            allowed(asked[0])
            mark = clock()
            for url in asked[1:EARLY_DECISIONS]:
                allowed(url)
            mark2 = clock()
            allowed(asked[EARLY_DECISIONS])
            mark3 = clock()
            for url in asked[EARLY_DECISIONS + 1 :]:
                allowed(url)
            end = clock()
            first += mark - start
            early += mark2 - mark
            compiling += mark3 - mark2
            late += end - mark3
        return first, early / (EARLY_DECISIONS - 1), compiling, late / LATE_DECISIONS

    def packing() -> float:
        texts = [RobotsTxt.parse(body).for_agent(AGENT)._source for body in bodies]
        start = clock()
        for text in texts:
            if isinstance(text, str):
                pack(text)
        return clock() - start

    timed = [decisions() for _ in range(repeats)]
    found = {
        "parse": best_of(repeats, parse),
        "for_agent": best_of(repeats, for_agent),
        "first decision": min(run[0] for run in timed),
        "decision by the table": min(run[1] for run in timed),
        "compile": min(run[2] for run in timed),
        "decision compiled": min(run[3] for run in timed),
        "pack": best_of(repeats, packing),
    }
    try:
        from protego import Protego
    except ImportError:
        return {name: seconds / count for name, seconds in found.items()}

    def protego() -> float:
        start = clock()
        for body, asked in work:
            Protego.parse(body.decode("utf-8-sig", errors="ignore")).can_fetch(asked[0], AGENT)
        return clock() - start

    found["protego parse + can_fetch"] = best_of(repeats, protego)
    return {name: seconds / count for name, seconds in found.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=None, help="default: tests.corpus.corpus_dir()")
    parser.add_argument("--smoke", action="store_true", help=f"first {SMOKE_FILES} files only, one repeat")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per stage (best is kept)")
    args = parser.parse_args(argv)
    corpus = args.corpus if args.corpus is not None else corpus_dir()
    if not (corpus / "robots").is_dir():
        parser.error(f"no corpus at {corpus} (expected robots/*.txt and urls.jsonl)")
    sites, urls = load_corpus(corpus, smoke=False)
    if args.smoke:
        sites = dict(list(sites.items())[:SMOKE_FILES])
    print(f"{len(sites)} origins of {corpus}; agent {AGENT!r}; rfc9309; CPU µs per origin (per decision where said)")
    for name, seconds in stages(sites, urls, 1 if args.smoke else args.repeats).items():
        print(f"  {name:28} {seconds * 1e6:9.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
