"""What Web Bot Auth signing costs one request, in instructions (valgrind's callgrind).

A child process makes ``--requests`` requests to 50 hosts and, in one of two runs, passes each
through ``SigningMiddleware.process_request`` (a new Ed25519 key, as a crawl with
``REP_SIGNING_KEY`` would); the difference of the two runs' instruction counts, per request, is
the signing's. Instructions, not time: other work on the machine does not change them.

    python benchmarks/bench_signing.py                  # 2,000 requests
    python benchmarks/bench_signing.py --requests 200
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path


def child(requests: int, sign: bool) -> None:
    from scrapy import Request
    from scrapy.utils.test import get_crawler

    from scrapy_robots_rep.downloader.signing import SigningMiddleware
    from scrapy_robots_rep.signing.keys import generate_key, private_pem

    key_file = Path(tempfile.mkdtemp()) / "bench-key.pem"
    key_file.write_bytes(private_pem(generate_key()))
    settings = {"REP_SIGNING_KEY": str(key_file), "REP_SIGNATURE_AGENT": "https://bot.example.test"}
    middleware = SigningMiddleware.from_crawler(get_crawler(settings_dict=settings))
    made = [Request(f"https://site{index % 50}.example/page/{index}") for index in range(requests)]
    for request in made if sign else ():
        middleware.process_request(request)


def instructions(requests: int, sign: bool) -> int:
    with tempfile.NamedTemporaryFile(suffix=".callgrind") as output:
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={output.name}", sys.executable, __file__]
        command += ["--child", "sign" if sign else "plain", "--requests", str(requests)]
        subprocess.run(command, check=True, capture_output=True)
        totals = re.search(rb"^totals: (\d+)", Path(output.name).read_bytes(), re.MULTILINE)
    if totals is None:
        sys.exit("no instruction count in callgrind's output")
    return int(totals.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--child", choices=("sign", "plain"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.requests, args.child == "sign")
        return
    plain, signed = instructions(args.requests, False), instructions(args.requests, True)
    print(f"{args.requests} requests: {plain:,} instructions made, {signed:,} made and signed")
    print(f"signing: {(signed - plain) / args.requests:,.0f} instructions per request")


if __name__ == "__main__":
    main()
