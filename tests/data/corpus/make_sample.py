"""Regenerate this sample from the full corpus, deterministically.

    python tests/data/corpus/make_sample.py [FULL_CORPUS_DIR [OUT_DIR]]

FULL_CORPUS_DIR defaults to ``<repo>/../shared/corpus``, OUT_DIR to this folder. Writes
``robots/<site>.txt`` (bytes verbatim), ``urls.jsonl`` (the full corpus's lines for the chosen
sites, in their order) and ``manifest.json`` (the full manifest's source fields, the sample's
size, and why each site was chosen). The same full corpus always gives the same sample:
sites are picked by fixed rules, ties broken by the SHA-256 of the site name, never at random.
Features are found with byte patterns, not with this project's parser, so a parser change never
changes the sample.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_FULL = HERE.parents[3] / "shared" / "corpus"
TARGET_FILES = 250
SIZE_BANDS = 10
SMALL = 32_000  # every pick but the pinned and the "large" one stays below this, to keep the sample small

# Sites that tests name, or that show one behaviour nothing else in the corpus does.
PINNED = {
    "4chan.org": "named by tests (agent groups)",
    "99designs.com": "named by tests (wildcards, $, Crawl-delay)",
    "github.com": "named by tests (many agent groups)",
    "twitter.com": "named by tests (Crawl-delay, Sitemap, query rules)",
    "www.congress.gov": "named by tests (a Crawl-delay inside a run of User-agent lines)",
    "docs.oracle.com": "the largest file, past the 500 KiB parse limit",
}

RULE = rb"(?im)^[ \t]*(?:dis)?allow[ \t]*:"


def has(pattern: bytes) -> Callable[[bytes], bool]:
    compiled = re.compile(pattern)
    return lambda body: compiled.search(body) is not None


def not_utf8(body: bytes) -> bool:
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def user_agent_run_split(body: bytes) -> bool:
    """A run of User-agent lines interrupted by another record (RFC 9309 keeps it one group)."""
    in_run = interrupted = False
    for raw in re.split(rb"\r\n|\r|\n", body):
        match = re.match(rb"[ \t]*([A-Za-z-]+)[ \t]*:", raw.split(b"#", 1)[0])
        field = match.group(1).lower() if match else b""
        if field == b"user-agent":
            if in_run and interrupted:
                return True
            in_run, interrupted = True, False
        elif field in (b"allow", b"disallow"):
            in_run = False
        elif in_run and field:
            interrupted = True
    return False


def rule_before_user_agent(body: bytes) -> bool:
    rule = re.search(RULE, body)
    agent = re.search(rb"(?im)^[ \t]*user-agent[ \t]*:", body)
    return rule is not None and (agent is None or rule.start() < agent.start())


LARGE = "large (50-200 KB)"

# (name, test, how many to take). Taken in this order; a site counts once, for its first feature.
FEATURES: list[tuple[str, Callable[[bytes], bool], int]] = [
    ("not valid UTF-8", not_utf8, 5),
    ("CR-only line ends", lambda body: b"\r" in body and b"\n" not in body, 3),
    ("misspelt field", has(rb"(?im)^[ \t]*(?:dissallow|disalow|dissalow|useragent|user agent)[ \t]*:"), 4),
    ("Request-rate", has(rb"(?im)^[ \t]*request-rate[ \t]*:"), 6),
    ("Clean-param (unknown field)", has(rb"(?im)^[ \t]*clean-param[ \t]*:"), 3),
    ("Host (unknown field)", has(rb"(?im)^[ \t]*host[ \t]*:"), 4),
    ("Content-Signal", has(rb"(?im)^[ \t]*content-signal[ \t]*:"), 4),
    ("rule before any User-agent", rule_before_user_agent, 8),
    ("User-agent run split by another record", user_agent_run_split, 12),
    ("raw non-ASCII in a rule", has(RULE + rb"[^\r\n#]*[\x80-\xff]"), 6),
    ("percent-encoding in a rule", has(RULE + rb"[^\r\n#]*%[0-9A-Fa-f]{2}"), 10),
    ("UTF-8 BOM", lambda body: body.startswith(b"\xef\xbb\xbf"), 6),
    ("20+ User-agent lines", lambda body: len(re.findall(rb"(?im)^[ \t]*user-agent[ \t]*:", body)) >= 20, 8),
    ("no Allow/Disallow line", lambda body: not has(RULE)(body), 8),
    ("empty Disallow", has(rb"(?im)^[ \t]*disallow[ \t]*:[ \t]*$"), 6),
    ("Crawl-delay", has(rb"(?im)^[ \t]*crawl-delay[ \t]*:"), 12),
    ("$ anchor", has(RULE + rb"[^\r\n#]*\$[ \t]*$"), 10),
    ("* wildcard", has(RULE + rb"[^\r\n#]*\*"), 12),
    (LARGE, lambda body: 50_000 <= len(body) <= 200_000, 1),
    ("tiny (< 60 bytes)", lambda body: len(body) < 60, 8),
]


def rank(site: str) -> str:
    return hashlib.sha256(site.encode()).hexdigest()


def choose(bodies: dict[str, bytes]) -> dict[str, str]:
    """Site -> why it was chosen: pinned sites, then each feature, then size bands for the rest."""
    chosen = {site: why for site, why in PINNED.items() if site in bodies}
    by_rank = sorted(bodies, key=rank)
    for name, test, count in FEATURES:
        eligible = [site for site in by_rank if site not in chosen and test(bodies[site])]
        if name != LARGE:
            eligible = [site for site in eligible if len(bodies[site]) < SMALL]
        picked = eligible[:count]
        chosen.update((site, name) for site in picked)
    rest = [site for site in bodies if site not in chosen and len(bodies[site]) < SMALL]
    rest.sort(key=lambda site: (len(bodies[site]), site))
    missing = TARGET_FILES - len(chosen)
    bands = [rest[len(rest) * band // SIZE_BANDS : len(rest) * (band + 1) // SIZE_BANDS] for band in range(SIZE_BANDS)]
    for band, members in enumerate(bands):
        share = missing * (band + 1) // SIZE_BANDS - missing * band // SIZE_BANDS
        picked = sorted(members, key=rank)[:share]
        chosen.update((site, f"size band {band + 1}/{SIZE_BANDS}") for site in picked)
    return dict(sorted(chosen.items()))


def main() -> None:
    full = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_FULL
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else HERE
    bodies = {path.name[: -len(".txt")]: path.read_bytes() for path in sorted((full / "robots").glob("*.txt"))}
    if not bodies:
        sys.exit(f"no robots/*.txt under {full}: pass the full corpus folder")
    chosen = choose(bodies)

    robots = out / "robots"
    shutil.rmtree(robots, ignore_errors=True)
    robots.mkdir(parents=True)
    for site in chosen:
        (robots / f"{site}.txt").write_bytes(bodies[site])

    kept_urls = 0
    with (
        open(full / "urls.jsonl", encoding="utf-8") as source,
        open(out / "urls.jsonl", "w", encoding="utf-8") as sample,
    ):
        for line in source:
            if json.loads(line)["site"] in chosen:
                sample.write(line)
                kept_urls += 1

    source_manifest = json.loads((full / "manifest.json").read_text(encoding="utf-8"))
    manifest = {
        **{key: source_manifest[key] for key in ("source_repo", "source_path", "source_commit")},
        "sample_of": {"kept": source_manifest["kept"], "kept_bytes": source_manifest["kept_bytes"]},
        "kept": len(chosen),
        "kept_bytes": sum(len(bodies[site]) for site in chosen),
        "urls": kept_urls,
        "chosen": chosen,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(chosen)} files, {manifest['kept_bytes']:,} bytes, {kept_urls:,} URLs")


if __name__ == "__main__":
    main()
