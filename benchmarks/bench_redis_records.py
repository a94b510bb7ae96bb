"""Redis memory of a fleet's robots.txt records: bytes per origin, by the growth of Redis's ``used_memory``.

    python benchmarks/bench_redis_records.py [--origins 100000] [--corpus DIR] [--smoke]

Makes one record per origin the way the middleware does (a 200 with a corpus file as its
body and an ``ETag``, through ``RecordMaker.conclude``), stores it with ``RedisStore.store``
in a redis-server started for the run, and reports how much its ``used_memory`` grew (what an
operator pays: the keyspace and expiry entries too) beside the sum of ``MEMORY USAGE`` over the keys.
Corpus files are repeated under different origins (``https://site-N.example``) until
``--origins`` are stored. Also reports the plain JSON size (what a record took before it was
packed) and the keys' TTL. The target: at most 1,000 bytes per origin of ``used_memory`` growth
(mean) on the full corpus. Needs redis-server (Debian package) and the ``redis`` Python package.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from scrapy.utils.test import get_crawler  # noqa: E402

from benchmarks.bench_memory import load_corpus  # noqa: E402
from scrapy_robots_rep.policy.deferral import OriginState  # noqa: E402
from scrapy_robots_rep.policy.records import FetchResult, RecordMaker  # noqa: E402
from scrapy_robots_rep.policy.settings import RepSettings  # noqa: E402
from scrapy_robots_rep.policy.status import status_policy  # noqa: E402
from scrapy_robots_rep.stores import SharedStore  # noqa: E402
from scrapy_robots_rep.stores.redis import RedisStore  # noqa: E402
from tests.corpus import SAMPLE, corpus_dir  # noqa: E402
from tests.redis.server import MISSING, RedisServer, find_redis_server  # noqa: E402

AGENT = "mybot"
TARGET_BYTES = 1000
TARGET_ORIGINS = 100_000
SMOKE_ORIGINS = 2_000
BATCH = 500


async def fill(store: RedisStore, origins: int, files: list[tuple[bytes, str]]) -> int:
    """Store ``origins`` records made from ``files``; the plain JSON bytes they take."""
    settings = RepSettings.from_mapping({"REP_USER_AGENT": AGENT})
    maker = RecordMaker(settings)
    policy = status_policy(settings.status_policy)
    headers = {"content-type": "text/plain", "etag": '"abc123"'}
    plain = 0
    for start in range(0, origins, BATCH):
        stores = []
        for number in range(start, min(start + BATCH, origins)):
            body, _ = files[number % len(files)]
            origin = f"https://site-{number}.example"
            hop = policy.judge_response(200, origin + "/robots.txt", None, 0, max_redirects=settings.max_redirects)
            record = maker.conclude(
                FetchResult(origin, hop, 200, body, headers), None, OriginState(), time.time()
            ).record
            plain += len(SharedStore.encode(record).encode())
            stores.append(store.store(origin, record))
        await asyncio.gather(*stores)
    return plain


def measure(server: RedisServer, origins: int, files: list[tuple[bytes, str]]) -> tuple[int, int, int, int]:
    """Plain JSON bytes, Redis bytes (``MEMORY USAGE``, samples every field), the growth of Redis's
    ``used_memory`` (what an operator pays: also the keyspace and expiry entries) and the shortest TTL
    in seconds."""
    with server.client() as client:
        before = int(client.info("memory")["used_memory"])
    crawler = get_crawler(settings_dict={"REP_USER_AGENT": AGENT, "REP_REDIS_URL": server.url})
    store = RedisStore.from_crawler(crawler)

    async def run() -> int:
        try:
            return await fill(store, origins, files)
        finally:
            await store.close()

    plain = asyncio.run(run())
    used, shortest = 0, None
    with server.client() as client:
        grown = int(client.info("memory")["used_memory"]) - before
        keys = list(client.scan_iter("rep:{*}", count=1000))
        assert len(keys) == origins, (len(keys), origins)
        for start in range(0, len(keys), 1000):
            pipe = client.pipeline(transaction=False)
            for key in keys[start : start + 1000]:
                pipe.memory_usage(key, samples=0)
                pipe.ttl(key)
            answers = pipe.execute()
            used += sum(answers[0::2])
            low = min(answers[1::2])
            shortest = low if shortest is None else min(shortest, low)
    return plain, used, grown, shortest or 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--origins", type=int, default=TARGET_ORIGINS)
    parser.add_argument("--corpus", type=Path, default=None, help="default: tests.corpus.corpus_dir()")
    parser.add_argument("--smoke", action="store_true", help=f"{SMOKE_ORIGINS} origins only")
    args = parser.parse_args(argv)
    executable = find_redis_server()
    if executable is None:
        sys.exit(MISSING)
    corpus = args.corpus if args.corpus is not None else corpus_dir()
    origins = SMOKE_ORIGINS if args.smoke else args.origins
    files = load_corpus(corpus)
    print(f"corpus: {len(files)} files ({corpus}), repeated over {origins:,} origins; agent {AGENT!r}")
    server = RedisServer(executable)
    server.start()
    try:
        plain, used, grown, shortest = measure(server, origins, files)
    finally:
        server.stop()
    per_origin = grown / origins
    print(f"plain JSON: {plain / origins:,.0f} bytes per record")
    print(f"Redis MEMORY USAGE: {used / origins:,.0f} bytes per origin ({used / 1e6:,.1f} MB for {origins:,} origins)")
    print(
        f"Redis used_memory growth: {per_origin:,.0f} bytes per origin ({grown / 1e6:,.1f} MB), what an operator pays"
    )
    print(f"shortest key TTL: {shortest / 86400:.1f} days (record lifetime plus REP_UNREACHABLE_MAX_AGE)")
    if corpus.resolve() == SAMPLE.resolve():
        # The sample was chosen for variety, not size: its files are about four times the corpus's mean.
        print(f"(the target, <= {TARGET_BYTES} bytes per origin, is judged on the full corpus; this is the sample)")
    else:
        print(f"target: <= {TARGET_BYTES} bytes per origin  {'ok' if per_origin <= TARGET_BYTES else 'MISSED'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
