"""Speed and memory of the core parser against Protego (and reppy when installed).

    python benchmarks/bench_core.py [--corpus DIR] [--smoke]

Reads every ``robots/*.txt`` file and every URL of ``urls.jsonl`` in the corpus
directory (default: ``<repo>/../shared/corpus``) and reports, per parser: parse
throughput (MB/s, median microseconds per file), parse plus compiling the rules
for the agent (``for_agent``: what a crawler does per origin; Protego has no such
step), decisions per second for the agent ``mybot``, and memory retained per
origin (tracemalloc). Protego and
reppy are benchmark peers only; the ratios are checked against the targets:
parse (alone, and with ``for_agent``) and decisions >= 5x Protego's parse and
decisions, memory per origin <= 1/10 of Protego.
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
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from scrapy_robots_rep.core import AgentRules, RobotsTxt  # noqa: E402

AGENT = "mybot"
SMOKE_FILES = 150
TARGET_SPEED_RATIO = 5.0
TARGET_MEMORY_RATIO = 0.1


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
    """How one parser is parsed, asked and measured."""

    def __init__(
        self,
        name: str,
        parse: Callable[[bytes], object],
        compact: Callable[[object], object],
        allowed: Callable[[object, str], bool],
    ) -> None:
        self.name = name
        self.parse = parse
        self.compact = compact
        self.allowed = allowed


def core_peer(matching: str) -> Peer:
    return Peer(
        f"core ({matching})",
        lambda body: RobotsTxt.parse(body, matching),
        lambda robots: robots.for_agent(AGENT),
        AgentRules.allowed,
    )


def protego_peer() -> Peer | None:
    try:
        from protego import Protego
    except ImportError:
        return None
    return Peer(
        "protego",
        lambda body: Protego.parse(body.decode("utf-8-sig", errors="ignore")),
        lambda parsed: parsed,
        lambda parsed, url: parsed.can_fetch(url, AGENT),
    )


def reppy_peer() -> Peer | None:
    try:
        from reppy.robots import Robots
    except ImportError:
        return None
    return Peer(
        "reppy",
        lambda body: Robots.parse("", body),
        lambda robots: robots.agent(AGENT),
        lambda agent, url: agent.allowed(url),
    )


def interleaved_minimum(peers: list[Peer], chunks: list[object], repeats: int,
                        run: Callable[[Peer, object], None]) -> dict[str, list[float]]:
    """Seconds per chunk per peer, the minimum over ``repeats``. Peers take turns
    on each chunk, so a machine whose load changes slows them alike."""
    clock = time.perf_counter
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
    return best


def measure_parse(peers: list[Peer], bodies: list[bytes], repeats: int,
                  run: Callable[[Peer, bytes], object]) -> dict[str, tuple[float, float]]:
    """Per peer: (MB/s over all files, median microseconds per file) of ``run``."""
    seconds = interleaved_minimum(peers, bodies, repeats, run)
    megabytes = sum(map(len, bodies)) / 1e6
    return {name: (megabytes / sum(timings), statistics.median(timings) * 1e6) for name, timings in seconds.items()}


def measure_decisions(peers: list[Peer], targets: dict[str, dict[str, object]], urls: list[tuple[str, str]],
                      repeats: int) -> dict[str, float]:
    """Per peer: decisions per second over all URLs, after one warm-up pass."""
    chunks = [urls[start:start + 500] for start in range(0, len(urls), 500)]

    def run(peer: Peer, chunk: list[tuple[str, str]]) -> None:
        allowed = peer.allowed
        per_site = targets[peer.name]
        for site, url in chunk:
            allowed(per_site[site], url)

    for peer in peers:
        run(peer, urls)
    seconds = interleaved_minimum(peers, chunks, repeats, run)
    return {name: len(urls) / sum(timings) for name, timings in seconds.items()}


def measure_memory(peer: Peer, sites: dict[str, bytes], urls: list[tuple[str, str]]) -> tuple[float, float]:
    """Bytes retained per origin by ``peer``'s compact objects: fresh, and after
    deciding every URL (a peer may build indexes on first use)."""
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept = {site: peer.compact(peer.parse(body)) for site, body in sites.items()}
    gc.collect()
    fresh = tracemalloc.get_traced_memory()[0] - before
    for site, url in urls:
        peer.allowed(kept[site], url)
    gc.collect()
    used = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    return fresh / len(kept), used / len(kept)


def run_all(peers: list[Peer], sites: dict[str, bytes], urls: list[tuple[str, str]],
            repeats: int) -> tuple[dict[str, dict[str, float]], dict[str, dict[str, object]]]:
    """The measures of every peer, and each peer's compact objects by site."""
    memory = {peer.name: measure_memory(peer, sites, urls) for peer in peers}
    bodies = list(sites.values())
    parse_speed = measure_parse(peers, bodies, repeats, lambda peer, body: peer.parse(body))
    # What a crawler does per origin: parse, then compile the rules for its agent.
    compile_speed = measure_parse(peers, bodies, repeats, lambda peer, body: peer.compact(peer.parse(body)))
    parsed = {peer.name: {site: peer.parse(body) for site, body in sites.items()} for peer in peers}
    compacts = {peer.name: {site: peer.compact(robots) for site, robots in parsed[peer.name].items()}
                for peer in peers}
    decisions = measure_decisions(peers, compacts, urls, repeats)
    whole_files = [Peer(peer.name, peer.parse, lambda robots: robots, lambda robots, url: robots.allowed(url, AGENT))
                   for peer in peers if peer.name.startswith("core")]
    whole_decisions = measure_decisions(whole_files, parsed, urls, repeats)
    results = {
        peer.name: {
            "parse MB/s": parse_speed[peer.name][0],
            "parse median us/file": parse_speed[peer.name][1],
            "parse+for_agent MB/s": compile_speed[peer.name][0],
            "decisions/s": decisions[peer.name],
            "RobotsTxt.allowed/s": whole_decisions.get(peer.name, float("nan")),
            "bytes/origin fresh": memory[peer.name][0],
            "bytes/origin after use": memory[peer.name][1],
        }
        for peer in peers
    }
    return results, compacts


def print_table(results: dict[str, dict[str, float]]) -> None:
    columns = list(next(iter(results.values())))
    print(f"\n{'':16}" + "".join(f"{column:>23}" for column in columns))
    for name, result in results.items():
        print(f"{name:16}" + "".join(f"{result[column]:>23,.1f}" for column in columns))


def print_ratios(results: dict[str, dict[str, float]]) -> None:
    protego = results["protego"]
    print("\nratios against protego, both throughputs against its parse "
          "(targets: parse >= 5x, decisions >= 5x, memory <= 0.1x)")
    for name in (name for name in results if name.startswith("core")):
        core = results[name]
        speed = TARGET_SPEED_RATIO
        checks = [
            ("parse throughput", core["parse MB/s"] / protego["parse MB/s"], lambda ratio: ratio >= speed),
            ("parse+for_agent throughput", core["parse+for_agent MB/s"] / protego["parse MB/s"],
             lambda ratio: ratio >= speed),
            ("decisions/s (for_agent)", core["decisions/s"] / protego["decisions/s"], lambda ratio: ratio >= speed),
            ("decisions/s (RobotsTxt)", core["RobotsTxt.allowed/s"] / protego["decisions/s"], None),
            ("memory/origin (after use)", core["bytes/origin after use"] / protego["bytes/origin after use"],
             lambda ratio: ratio <= TARGET_MEMORY_RATIO),
        ]
        for label, ratio, target_met in checks:
            verdict = "info" if target_met is None else "ok" if target_met(ratio) else "MISSED"
            print(f"  {name:16} {label:30} {ratio:8.2f}x  {verdict}")
    if "reppy" in results:
        reppy = results["reppy"]
        core = results["core (rfc9309)"]
        print(f"  vs reppy: parse {core['parse MB/s'] / reppy['parse MB/s']:.2f}x, "
              f"decisions {core['decisions/s'] / reppy['decisions/s']:.2f}x")


def agreement(core: dict[str, object], protego: dict[str, object], peers: dict[str, Peer],
              urls: list[tuple[str, str]]) -> float:
    """Share of URLs that core (rfc9309) and Protego decide alike."""
    core_allowed = peers["core (rfc9309)"].allowed
    protego_allowed = peers["protego"].allowed
    same = sum(core_allowed(core[site], url) == protego_allowed(protego[site], url) for site, url in urls)
    return same / len(urls)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=REPO.parent / "shared" / "corpus")
    parser.add_argument("--smoke", action="store_true", help=f"first {SMOKE_FILES} files only, one repeat")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per measure (best is kept)")
    args = parser.parse_args(argv)
    if not (args.corpus / "robots").is_dir():
        parser.error(f"no corpus at {args.corpus} (expected robots/*.txt and urls.jsonl)")
    repeats = 1 if args.smoke else args.repeats

    sites, urls = load_corpus(args.corpus, args.smoke)
    print(f"corpus: {len(sites)} files, {sum(map(len, sites.values())) / 1e6:.2f} MB, {len(urls)} URLs; "
          f"agent {AGENT!r}; Python {sys.version.split()[0]}")
    candidates = {"protego": protego_peer(), "reppy": reppy_peer()}
    for name in (name for name, peer in candidates.items() if peer is None):
        print(f"{name}: not installed, skipped")
    peers = {peer.name: peer for peer in (core_peer("rfc9309"), core_peer("legacy"), *candidates.values()) if peer}

    results, compacts = run_all(list(peers.values()), sites, urls, repeats)
    print_table(results)
    if "protego" not in results:
        print("\nprotego not installed: no ratios")
        return 0
    print_ratios(results)
    same = agreement(compacts["core (rfc9309)"], compacts["protego"], peers, urls)
    print(f"\ncore (rfc9309) and protego agree on {same:.1%} of the {len(urls)} decisions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
