"""Memory of ``audit report`` (and ``audit verify``) over a large synthetic audit trail.

Writes a trail of ``--decisions`` decisions (default 1,000,000) over ``--origins`` origins with the
real writer (chained lines, a manifest), then, each in a fresh process, reads it for the HTML
report and verifies it, and prints each one's peak memory: Python's own allocations
(``tracemalloc``) and the process's peak resident size (``ru_maxrss``).

    python benchmarks/bench_report.py                       # 1,000,000 decisions over 100 origins
    python benchmarks/bench_report.py --decisions 20000     # a quick run
    python benchmarks/bench_report.py --smoke               # a tiny run to check that it works
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROBOTS = b"User-agent: *\nDisallow: /private\nDisallow: /cart\nAllow: /\nContent-Signal: ai-train=no\n"


def generate(directory: Path, decisions: int, origins: int) -> None:
    from scrapy_robots_rep.audit import AuditTrail
    from scrapy_robots_rep.audit.times import any_rfc3339

    trail = AuditTrail(directory, common={"agent": "benchbot", "matching": "rfc9309", "status_policy": "rfc9309"})
    sha256 = trail.store_body(ROBOTS)
    start = time.time() - decisions / 100
    for number in range(origins):
        origin = f"http://site{number}.example"
        trail.fetch(
            {
                "time": any_rfc3339(start),
                "origin": origin,
                "url": f"{origin}/robots.txt",
                "status": 200,
                "outcome": "rules",
                "sha256": sha256,
                "changed": None,
            }
        )
    for number in range(decisions):
        origin = f"http://site{number % origins}.example"
        refused = number % 5 == 0
        trail.decision(
            {
                "time": any_rfc3339(start + number / 100),
                "url": f"{origin}/{'private' if refused else 'page'}/{number}",
                "origin": origin,
                "decision": "disallowed" if refused else "allowed",
                "sha256": sha256,
                "group": ["*"],
                "rule": {"line": 2, "text": "Disallow: /private"} if refused else {"line": 4, "text": "Allow: /"},
                "reason": "longest match",
            }
        )
        if not refused and number % 3 == 0:
            trail.page(
                {
                    "time": any_rfc3339(start + number / 100),
                    "url": f"{origin}/page/{number}",
                    "status": 200,
                    "noindex": number % 7 == 0,
                    "nofollow": False,
                    "noarchive": False,
                    "purposes": {"search": True, "ai-input": True, "ai-train": False},
                    "sources": ["ai-train=no (robots.txt Content-Signal)"],
                    "dropped": {"items/noindex": 1} if number % 7 == 0 else {},
                }
            )
    trail.close()


def measure(job: str, directory: Path, output: Path) -> None:
    tracemalloc.start()
    started = time.process_time()
    if job == "report":
        from scrapy_robots_rep.audit.html import write_html
        from scrapy_robots_rep.audit.report import read_report

        write_html(read_report(directory), output, "now")
        detail = f"{output.stat().st_size / 1e6:.1f} MB of HTML"
    else:
        from scrapy_robots_rep.audit.verify import verify

        result = verify(directory)
        detail = f"{'holds' if result.ok else 'BROKEN'}"
    _, peak = tracemalloc.get_traced_memory()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    cpu = time.process_time() - started
    print(json.dumps({"job": job, "peak_mb": peak / 1e6, "rss_mb": rss, "cpu_s": cpu, "detail": detail}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smoke", action="store_true", help="2,000 decisions over 10 origins")
    parser.add_argument("--decisions", type=int, default=1_000_000)
    parser.add_argument("--origins", type=int, default=100)
    parser.add_argument("--job", choices=("generate", "report", "verify"), help=argparse.SUPPRESS)
    parser.add_argument("--directory", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.job == "generate":
        generate(Path(args.directory), args.decisions, args.origins)
        return
    if args.job is not None:
        measure(args.job, Path(args.directory), Path(args.directory).parent / "report.html")
        return
    if args.smoke:
        args.decisions, args.origins = 2000, 10
    with tempfile.TemporaryDirectory() as temporary:
        directory = Path(temporary) / "audit"
        run = [sys.executable, __file__, "--directory", str(directory)]
        subprocess.run(
            [*run, "--job", "generate", "--decisions", str(args.decisions), "--origins", str(args.origins)], check=True
        )
        size = sum(path.stat().st_size for path in directory.glob("*.jsonl")) / 1e6
        print(f"{args.decisions:,} decisions over {args.origins} origins: {size:.0f} MB of JSON lines")
        for job in ("report", "verify"):
            done = subprocess.run([*run, "--job", job], check=True, capture_output=True, text=True)
            figures = json.loads(done.stdout.strip().splitlines()[-1])
            print(
                f"  {job:6}: peak {figures['peak_mb']:.1f} MB allocated by Python (tracemalloc), "
                f"peak RSS {figures['rss_mb']:.0f} MB, {figures['cpu_s']:.0f} s CPU; {figures['detail']}"
            )


if __name__ == "__main__":
    main()
