"""Memory of a broad crawl's robots.txt rules: RSS growth for 100,000 origins in the cache.

    python benchmarks/bench_memory.py [--origins N] [--corpus DIR] [--smoke]

Fills a ``MemoryCache`` (``scrapy_robots_rep.policy.record_cache``) the way the
middleware does: for each origin, one robots.txt response (a 200 with a corpus
file as its body, with an ``ETag``, so the record keeps validators) goes through
``RecordMaker.conclude`` (parse, ``for_agent``, the cache record) and the record
is put in the cache under that origin; then one of the file's URLs is decided,
as the request that made the fetch would be. Corpus files are repeated under
different origins (``https://site-N.example``) until ``--origins`` are held.
Reports the RSS growth (``/proc/self/statm``) against the target of 200 MB for
100,000 origins, and the cache's records per MB.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from scrapy_robots_rep.policy.deferral import OriginState  # noqa: E402
from scrapy_robots_rep.policy.record_cache import MemoryCache  # noqa: E402
from scrapy_robots_rep.policy.records import FetchResult, RecordMaker  # noqa: E402
from scrapy_robots_rep.policy.settings import RepSettings  # noqa: E402
from scrapy_robots_rep.policy.status import status_policy  # noqa: E402
from tests.corpus import SAMPLE, corpus_dir  # noqa: E402

AGENT = "mybot"
TARGET_MB = 200.0
TARGET_ORIGINS = 100_000
SMOKE_ORIGINS = 2_000


def rss_bytes() -> int:
    """Resident set size of this process."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def load_corpus(corpus: Path) -> list[tuple[bytes, str]]:
    """Each file's body and the path of one of its URLs (``/`` when it has none)."""
    paths = {}
    with open(corpus / "urls.jsonl", encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            url = record["url"]
            paths.setdefault(record["site"], "/" + url.split("/", 3)[3] if url.count("/") >= 3 else "/")
    return [
        (path.read_bytes(), paths.get(path.name[: -len(".txt")], "/"))
        for path in sorted((corpus / "robots").glob("*.txt"))
    ]


def fill(origins: int, files: list[tuple[bytes, str]]) -> tuple[MemoryCache, float]:
    """A cache of ``origins`` records made from ``files``, and the seconds it took."""
    settings = RepSettings.from_mapping({"REP_USER_AGENT": AGENT, "REP_CACHE_MAX_ORIGINS": origins})
    maker = RecordMaker(settings)
    policy = status_policy(settings.status_policy)
    cache = MemoryCache(settings.cache_max_origins)
    headers = {"content-type": "text/plain", "etag": '"abc123"'}
    started = time.perf_counter()
    for number in range(origins):
        body, path = files[number % len(files)]
        origin = f"https://site-{number}.example"
        hop = policy.judge_response(200, origin + "/robots.txt", None, 0, max_redirects=settings.max_redirects)
        result = FetchResult(origin, hop, 200, body, headers)
        record = maker.conclude(result, None, OriginState(), now=time.time()).record
        cache.put(origin, record)
        record.rules.allowed(origin + path)
    return cache, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--origins", type=int, default=TARGET_ORIGINS)
    parser.add_argument("--corpus", type=Path, default=None, help="default: tests.corpus.corpus_dir()")
    parser.add_argument("--smoke", action="store_true", help=f"{SMOKE_ORIGINS} origins only")
    args = parser.parse_args(argv)
    corpus = args.corpus if args.corpus is not None else corpus_dir()
    origins = SMOKE_ORIGINS if args.smoke else args.origins
    files = load_corpus(corpus)
    print(
        f"corpus: {len(files)} files ({corpus}), repeated over {origins:,} origins; agent {AGENT!r}; "
        f"Python {sys.version.split()[0]}"
    )
    gc.collect()
    before = rss_bytes()
    cache, seconds = fill(origins, files)
    gc.collect()
    grown = (rss_bytes() - before) / 1e6
    assert len(cache) == origins
    print(f"filled in {seconds:.1f} s ({origins / seconds:,.0f} origins/s)")
    print(f"RSS growth: {grown:.1f} MB for {origins:,} origins ({grown * 1e6 / origins:,.0f} bytes per origin)")
    if origins < TARGET_ORIGINS:
        # Compiled rules are kept for a bounded number of origins: growth does not scale linearly.
        print(f"(the target, < {TARGET_MB:.0f} MB, is for {TARGET_ORIGINS:,} origins)")
    elif corpus.resolve() == SAMPLE.resolve():
        # The sample was chosen for variety, not size: its files are about four times the corpus's mean.
        print(f"(the target, < {TARGET_MB:.0f} MB, is judged on the full corpus; this is the shipped sample)")
    else:
        print(f"target: < {TARGET_MB:.0f} MB for {TARGET_ORIGINS:,} origins  {'ok' if grown < TARGET_MB else 'MISSED'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
