"""``audit verify AUDIT_DIR [--public-key K]``: whether the audit trail is as its processes wrote it.

Checks each file's hash chain, each manifest (and its Ed25519 signature, given the public key),
and each stored robots.txt against its name; names the first broken line of each file. Exit
status 0 when everything holds, 1 otherwise, 2 on a usage error (``docs/evidence.md``).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from scrapy_robots_rep.audit.signing import load_public_key
from scrapy_robots_rep.audit.verify import Verification, verify

if TYPE_CHECKING:
    from scrapy_robots_rep.cli.grammar import Context

EXIT_HOLDS = 0
EXIT_BROKEN = 1

VERIFY_DESCRIPTION = (
    "Check that the audit trail (REP_AUDIT_DIR) is as its processes wrote it: every file's hash chain from its "
    "header, every manifest's recorded heads (and its Ed25519 signature, with --public-key), every stored "
    "robots.txt against its SHA-256 name. Names the first broken line of each file. A last line cut short by a "
    "killed crawl is reported as torn, not as tampering. Exit status 0: all holds, 1: something does not, "
    "2: usage error."
)


def add_verify_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("directory", metavar="AUDIT_DIR", help="the directory REP_AUDIT_DIR named")
    parser.add_argument(
        "--public-key",
        metavar="K",
        help="a PEM file with the Ed25519 public key the manifests must be signed with (REP_AUDIT_SIGNING_KEY's)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="also list each file and body that holds")


def run_verify(parser: argparse.ArgumentParser, args: argparse.Namespace, context: Context) -> int:
    """Verify the directory and print what holds and what does not."""
    try:
        public_key = load_public_key(args.public_key) if args.public_key is not None else None
    except (OSError, ValueError, ImportError) as error:
        parser.error(f"--public-key: {error}")
    try:
        result = verify(args.directory, public_key)
    except FileNotFoundError as error:
        parser.error(str(error))
    print(render_verification(result, args.verbose))
    return EXIT_HOLDS if result.ok else EXIT_BROKEN


def render_verification(result: Verification, verbose: bool) -> str:
    lines = [f"{result.directory}: {'holds' if result.ok else 'BROKEN'}"]
    lines += [f"  broken: {problem}" for problem in result.problems]
    lines += [f"  note: {note}" for note in result.notes]
    if verbose:
        lines += [f"  holds: {checked}" for checked in result.checked]
    else:
        lines.append(f"  {len(result.checked)} file(s), manifest(s) and bodies hold (-v lists them)")
    return "\n".join(lines)
