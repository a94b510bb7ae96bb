"""Long fuzz run of the core parser and matcher (issue 6); the short version runs in the test suite.

Two engines:

- ``atheris``: coverage-guided bytes, seeded with the shared corpus of real robots.txt files.
  Each input is split into a mode, an agent, a URL and a body; the body is parsed in that mode
  and every way the API can answer must agree, without an exception. Exceptions are saved to
  ``--crashes`` (one file per distinct failure) and the run goes on.
- ``hypothesis``: the property tests of ``tests/hardening/test_core_properties.py`` (including
  the comparison with the brute-force reference matchers) with ``--scale`` times their examples.

Run from the repository root::

    .venv/bin/python benchmarks/fuzz_core.py atheris --seconds 600
    .venv/bin/python benchmarks/fuzz_core.py hypothesis --scale 40
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SEED_CORPUS = REPO.parent / "shared" / "corpus" / "robots"
AGENTS = ("mybot", "MyBot/1.0 (+http://example.com)", "*", "googlebot")
MAX_INPUT_BYTES = 20_000


def run_atheris(seconds: int, crashes: Path) -> int:
    """Fuzz for ``seconds``; returns libFuzzer's exit status."""
    import atheris

    sys.path.insert(0, str(REPO))
    with atheris.instrument_imports():
        from scrapy_robots_rep.core import RobotsTxt
        from tests.hardening.consistency import all_answers

    crashes.mkdir(parents=True, exist_ok=True)

    def one_input(data: bytes) -> None:
        provider = atheris.FuzzedDataProvider(data)
        matching = "legacy" if provider.ConsumeBool() else "rfc9309"
        agent = AGENTS[provider.ConsumeIntInRange(0, len(AGENTS) - 1)]
        url = "http://example.com/" + provider.ConsumeUnicodeNoSurrogates(provider.ConsumeIntInRange(0, 80))
        body = provider.ConsumeBytes(MAX_INPUT_BYTES)
        try:
            answers = all_answers(RobotsTxt.parse(body, matching), url, agent)
            if len(set(answers)) != 1:
                raise AssertionError(f"answers disagree: {answers}")
        except Exception:
            save_crash(crashes, data, traceback.format_exc())

    output_corpus = tempfile.mkdtemp(prefix="fuzz_core_corpus_")
    libfuzzer_args = [
        sys.argv[0],
        f"-max_total_time={seconds}",
        f"-max_len={MAX_INPUT_BYTES}",
        "-print_final_stats=1",
        "-rss_limit_mb=4096",
        output_corpus,
    ]
    if SEED_CORPUS.is_dir():
        libfuzzer_args.append(str(SEED_CORPUS))
    atheris.Setup(libfuzzer_args, one_input)
    atheris.Fuzz()
    return 0


def save_crash(crashes: Path, data: bytes, report: str) -> None:
    """Keep one input per distinct failure site (the traceback's last frame and exception type)."""
    lines = report.strip().splitlines()
    signature = hashlib.sha1("\n".join(lines[-3:]).encode()).hexdigest()[:12]
    target = crashes / signature
    if target.with_suffix(".txt").exists():
        return
    target.with_suffix(".bin").write_bytes(data)
    target.with_suffix(".txt").write_text(report)
    print(f"\nfailure {signature}:\n{report}", file=sys.stderr)


def run_hypothesis(scale: int) -> int:
    """Run the property tests with ``scale`` times their examples; returns pytest's exit status."""
    environment = {**os.environ, "HARDENING_EXAMPLES_SCALE": str(scale)}
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "--timeout=0",
        "--hypothesis-show-statistics",
        "tests/hardening/test_core_properties.py",
    ]
    return subprocess.call(command, cwd=REPO, env=environment)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    engines = parser.add_subparsers(dest="engine", required=True)
    atheris_engine = engines.add_parser("atheris", help="coverage-guided fuzzing of raw bytes")
    atheris_engine.add_argument("--seconds", type=int, default=600, help="how long to fuzz (default: 600)")
    atheris_engine.add_argument(
        "--crashes",
        type=Path,
        default=Path(tempfile.gettempdir()) / "fuzz_core_crashes",
        help="where failing inputs and their tracebacks are saved",
    )
    hypothesis_engine = engines.add_parser("hypothesis", help="the property tests, scaled up")
    hypothesis_engine.add_argument(
        "--scale", type=int, default=40, help="multiplies every property test's examples (default: 40)"
    )
    arguments = parser.parse_args()
    if arguments.engine == "atheris":
        return run_atheris(arguments.seconds, arguments.crashes)
    return run_hypothesis(arguments.scale)


if __name__ == "__main__":
    sys.exit(main())
