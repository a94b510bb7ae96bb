"""Speed and memory of the core parser against Protego, side by side in one run.

    python benchmarks/bench_core.py [--corpus DIR] [--smoke] [--repeats N]

Reads every ``robots/*.txt`` file and every URL of ``urls.jsonl`` in the corpus
(default: ``tests.corpus.corpus_dir()``: the full corpus next to the repository
when it is there, else the sample shipped in ``tests/data/corpus``) and prints,
for the agent ``mybot``, one row per way of using a parser:

* ``protego``: ``Protego.parse`` then ``can_fetch``;
* ``core (rfc9309) parse alone``: ``RobotsTxt.parse``, decisions by
  ``RobotsTxt.allowed``;
* ``core (rfc9309) parse+for_agent``: the middleware's path, ``RobotsTxt.parse``
  then ``for_agent``, decisions by ``AgentRules.allowed``; the same in ``legacy``.

Then the broad-crawl path, what the middleware pays for an origin it meets:
``RobotsTxt.parse(body).for_agent(agent)`` then the origin's first K decisions
(``AgentRules.allowed``), against ``Protego.parse`` then K ``can_fetch``, for
K = 1, 10 and 100; an origin's URLs are its ``urls.jsonl`` URLs, taken in turn
(the first K, starting again at the first when there are fewer; its root URL
when it has none). Core and Protego take turns on each origin; each origin's
time is the best of ``--repeats`` runs.

Columns of the stage rows: parse throughput (MB/s over all files), the throughput of parse plus
the first decision (which reads the agent's rules into a table),
decisions per second (every URL, rules already compiled: each origin first makes
``EARLY_DECISIONS`` + 1 decisions; each core row is timed with Protego, as
compiled rules are kept for ``ACTIVE_ORIGINS`` origins (the rules of the parse+for_agent rows
share one ``ActiveRules``, as the middleware's cache does), and its decisions ratio
is to the Protego decisions timed with it),
the bytes held per origin (tracemalloc, one origin at a time: what a cache
keeps), mean and median, and the mean once every URL was decided (compiled
rules included). Peers take turns on each file and each chunk of URLs, so a
change of load slows them alike; times are the CPU time of the benchmark's
process (``time.process_time``: other jobs of the machine are not counted);
each measure is the best of ``--repeats`` runs. Ratios
are checked against issue 15's targets: parse+for_agent and decisions >= 5x
Protego's parse and decisions, bytes per origin <= 0.1x Protego's; the broad
path >= 5x Protego's at each K.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from scrapy_robots_rep.core import AgentRules, RobotsTxt  # noqa: E402
from scrapy_robots_rep.core.agent_rules import EARLY_DECISIONS, ActiveRules  # noqa: E402
from tests.corpus import corpus_dir  # noqa: E402

AGENT = "mybot"
SMOKE_FILES = 150
SMOKE_BROAD_FILES = 30
TARGET_SPEED_RATIO = 5.0
TARGET_MEMORY_RATIO = 0.1
TARGET_ROW = "core (rfc9309) parse+for_agent"
"""The row the targets are for: the middleware's path."""
CHUNK_URLS = 500
BROAD_K = (1, 10, 100)


def load_corpus(corpus: Path, smoke: bool) -> tuple[dict[str, bytes], list[tuple[str, str]]]:
    """Bodies by site, and (site, url) pairs for the sites loaded."""
    paths = sorted((corpus / "robots").glob("*.txt"))
    if smoke:
        paths = paths[:SMOKE_FILES]
    bodies = {path.name[: -len(".txt")]: path.read_bytes() for path in paths}
    urls = []
    with open(corpus / "urls.jsonl", encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            if record["site"] in bodies:
                urls.append((record["site"], record["url"]))
    return bodies, urls


class Peer:
    """One way of using a parser: what is kept per origin, and how it decides."""

    def __init__(self, name: str, keep: Callable[[bytes], Any], allowed: Callable[[Any, str], bool]) -> None:
        self.name = name
        self.keep = keep
        self.allowed = allowed


def cached(rules: AgentRules, active: ActiveRules = ActiveRules()) -> AgentRules:  # noqa: B008 (one set, shared)
    """``rules`` counted among the active rules, as the middleware's cache counts the rules it keeps."""
    active.adopt(rules)
    return rules


def peers() -> list[Peer]:
    found = [
        Peer("core (rfc9309) parse alone", RobotsTxt.parse, lambda robots, url: robots.allowed(url, AGENT)),
        Peer(TARGET_ROW, lambda body: cached(RobotsTxt.parse(body).for_agent(AGENT)), AgentRules.allowed),
        Peer(
            "core (legacy) parse+for_agent",
            lambda body: cached(RobotsTxt.parse(body, "legacy").for_agent(AGENT)),
            AgentRules.allowed,
        ),
    ]
    try:
        from protego import Protego
    except ImportError:
        return found
    return [
        Peer(
            f"protego {version('protego')}",
            lambda body: Protego.parse(body.decode("utf-8-sig", errors="ignore")),
            lambda parsed, url: parsed.can_fetch(url, AGENT),
        ),
        *found,
    ]


def interleaved_minimum(
    peers: list[Peer], chunks: list[Any], repeats: int, run: Callable[[Peer, Any], None]
) -> dict[str, float]:
    """Seconds over all chunks per peer, each chunk's minimum over ``repeats``."""
    # CPU time of this process: the other jobs of a shared machine are not counted.
    clock = time.process_time
    best = {peer.name: [float("inf")] * len(chunks) for peer in peers}
    for _ in range(repeats):
        for position, chunk in enumerate(chunks):
            for peer in peers:
                start = clock()
                run(peer, chunk)
                elapsed = clock() - start
                timings = best[peer.name]
                if elapsed < timings[position]:
                    timings[position] = elapsed
    return {name: sum(timings) for name, timings in best.items()}


def held_bytes(peer: Peer, sites: dict[str, bytes], urls: list[tuple[str, str]]) -> tuple[list[int], float]:
    """Bytes each origin's kept object holds (tracemalloc, one origin at a time),
    and the mean per origin once every URL was decided (compiled rules included)."""
    kept = {}
    sizes = []
    gc.collect()
    tracemalloc.start()
    start = tracemalloc.get_traced_memory()[0]
    for site, body in sites.items():
        before = tracemalloc.get_traced_memory()[0]
        kept[site] = peer.keep(body)
        sizes.append(tracemalloc.get_traced_memory()[0] - before)
    for site, url in urls:
        peer.allowed(kept[site], url)
    gc.collect()
    used = tracemalloc.get_traced_memory()[0] - start
    tracemalloc.stop()
    return sizes, used / len(kept)


def run_all(peers: list[Peer], sites: dict[str, bytes], urls: list[tuple[str, str]], repeats: int) -> dict[str, Any]:
    bodies = list(sites.values())
    megabytes = sum(map(len, bodies)) / 1e6
    held = {peer.name: held_bytes(peer, sites, urls) for peer in peers}
    parse = interleaved_minimum(peers, bodies, repeats, lambda peer, body: peer.keep(body))
    first = interleaved_minimum(
        peers, bodies, repeats, lambda peer, body: peer.allowed(peer.keep(body), "https://example.com/")
    )
    kept = {peer.name: {site: peer.keep(body) for site, body in sites.items()} for peer in peers}
    chunks = [urls[start : start + CHUNK_URLS] for start in range(0, len(urls), CHUNK_URLS)]
    first_url = {site: (site, url) for site, url in reversed(urls)}

    def decide(peer: Peer, chunk: list[tuple[str, str]]) -> None:
        allowed = peer.allowed
        per_site = kept[peer.name]
        for site, url in chunk:
            allowed(per_site[site], url)

    # Each core row with Protego: compiled rules are kept for ACTIVE_ORIGINS
    # origins, fewer than all rows' origins together.
    decisions: dict[str, float] = {}
    # Protego's decisions per second timed with each core row.
    paired: dict[str, float] = {}
    protego = [peer for peer in peers if peer.name.startswith("protego")]
    for peer in peers:
        if peer in protego:
            continue
        for pair_peer in [*protego, peer]:
            decide(pair_peer, urls)
        # Past its first decisions, an origin's rules are compiled.
        decide(peer, list(first_url.values()) * (EARLY_DECISIONS + 1))
        timed = interleaved_minimum([*protego, peer], chunks, repeats, decide)
        decisions.update(timed)
        if protego:
            paired[peer.name] = len(urls) / timed[protego[0].name]
    return {
        "results": {
            peer.name: {
                "parse MB/s": megabytes / parse[peer.name],
                "+1st decision MB/s": megabytes / first[peer.name],
                "decisions/s": len(urls) / decisions[peer.name],
                "bytes/origin mean": statistics.mean(held[peer.name][0]),
                "bytes/origin median": statistics.median(held[peer.name][0]),
                "after use mean": held[peer.name][1],
            }
            for peer in peers
        },
        "kept": kept,
        "paired": paired,
    }


def origin_urls(sites: dict[str, bytes], urls: list[tuple[str, str]], k: int) -> list[tuple[bytes, list[str]]]:
    """Each origin's body and its first ``k`` URLs (its URLs in turn, or its root URL)."""
    by_site: dict[str, list[str]] = {}
    for site, url in urls:
        by_site.setdefault(site, []).append(url)
    work = []
    for site, body in sites.items():
        own = by_site.get(site) or [f"https://{site}/"]
        work.append((body, [own[position % len(own)] for position in range(k)]))
    return work


def broad_path(
    peers: list[Peer], sites: dict[str, bytes], urls: list[tuple[str, str]], repeats: int
) -> dict[int, dict[str, float]]:
    """Seconds per peer for every origin's parse, rules and first K decisions, per K."""

    def serve(peer: Peer, work: tuple[bytes, list[str]]) -> None:
        body, asked = work
        kept = peer.keep(body)
        allowed = peer.allowed
        for url in asked:
            allowed(kept, url)

    return {k: interleaved_minimum(peers, origin_urls(sites, urls, k), repeats, serve) for k in BROAD_K}


def print_broad(timed: dict[int, dict[str, float]], origins: int, protego: str | None) -> None:
    print(f"\nbroad-crawl path: parse + for_agent + an origin's first K decisions, origins/s over {origins} origins")
    for k, seconds in timed.items():
        for name, spent in seconds.items():
            if protego is None or name == protego:
                print(f"  K={k:<4} {name:32} {origins / spent:12,.1f}")
                continue
            ratio = seconds[protego] / spent
            judged = "ok" if ratio >= TARGET_SPEED_RATIO else "MISSED"
            print(f"  K={k:<4} {name:32} {origins / spent:12,.1f}  {ratio:6.2f}x {protego}  {judged}")


def print_table(results: dict[str, dict[str, float]]) -> None:
    columns = list(next(iter(results.values())))
    print(f"\n{'':32}" + "".join(f"{column:>21}" for column in columns))
    for name, result in results.items():
        print(f"{name:32}" + "".join(f"{result[column]:>21,.1f}" for column in columns))


def print_ratios(results: dict[str, dict[str, float]], protego: str, paired: dict[str, float]) -> None:
    base = results[protego]
    print(
        f"\nratios to {protego} (targets for rfc9309 parse+for_agent, the middleware's path: "
        "parse and decisions >= 5x, bytes/origin <= 0.1x)"
    )
    for name, result in results.items():
        if name == protego:
            continue
        checks: list[tuple[str, float, bool | None]] = [
            ("parse MB/s", result["parse MB/s"] / base["parse MB/s"], result["parse MB/s"] >= 5 * base["parse MB/s"]),
            ("+1st decision MB/s", result["+1st decision MB/s"] / base["+1st decision MB/s"], None),
            (
                "decisions/s",
                result["decisions/s"] / paired[name],
                result["decisions/s"] >= 5 * paired[name],
            ),
        ]
        for column in ("bytes/origin mean", "bytes/origin median"):
            ratio = result[column] / base[column]
            checks.append((column, ratio, ratio <= TARGET_MEMORY_RATIO))
        checks.append(("after use mean", result["after use mean"] / base["after use mean"], None))
        for label, ratio, met in checks:
            judged = "info" if met is None or name != TARGET_ROW else "ok" if met else "MISSED"
            print(f"  {name:32} {label:22} {ratio:8.2f}x  {judged}")
    print(f"decisions/s of {protego} timed with each row (the ratio's base):")
    for name, per_second in paired.items():
        print(f"  {name:32} {per_second:,.1f}")


def agreement(
    kept: dict[str, dict[str, Any]], peers: dict[str, Peer], urls: list[tuple[str, str]], protego: str
) -> float:
    """Share of URLs that core (rfc9309) and Protego decide alike."""
    core, other = peers[TARGET_ROW], peers[protego]
    same = sum(
        core.allowed(kept[TARGET_ROW][site], url) == other.allowed(kept[protego][site], url) for site, url in urls
    )
    return same / len(urls)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=None, help="default: tests.corpus.corpus_dir()")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help=f"first {SMOKE_FILES} files only ({SMOKE_BROAD_FILES} for the broad path), one repeat",
    )
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per measure (best is kept)")
    args = parser.parse_args(argv)
    corpus = args.corpus if args.corpus is not None else corpus_dir()
    if not (corpus / "robots").is_dir():
        parser.error(f"no corpus at {corpus} (expected robots/*.txt and urls.jsonl)")
    repeats = 1 if args.smoke else args.repeats

    sites, urls = load_corpus(corpus, args.smoke)
    print(
        f"corpus: {len(sites)} files, {sum(map(len, sites.values())) / 1e6:.2f} MB, {len(urls)} URLs "
        f"({corpus}); agent {AGENT!r}; Python {sys.version.split()[0]}"
    )
    found = {peer.name: peer for peer in peers()}
    protego = next((name for name in found if name.startswith("protego")), None)
    measured = run_all(list(found.values()), sites, urls, repeats)
    print_table(measured["results"])
    broad = [peer for name, peer in found.items() if name in (protego, TARGET_ROW)]
    broad_sites = dict(list(sites.items())[:SMOKE_BROAD_FILES]) if args.smoke else sites
    print_broad(broad_path(broad, broad_sites, urls, repeats), len(broad_sites), protego)
    if protego is None:
        try:
            version("protego")
        except PackageNotFoundError:
            print("\nprotego not installed (pip install -e '.[bench]'): no ratios")
        return 0
    print_ratios(measured["results"], protego, measured["paired"])
    same = agreement(measured["kept"], found, urls, protego)
    print(f"\ncore (rfc9309) and {protego} agree on {same:.1%} of the {len(urls)} decisions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
