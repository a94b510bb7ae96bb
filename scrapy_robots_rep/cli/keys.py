"""``keys generate`` and ``keys directory``: a Web Bot Auth key pair, and the key directory to publish.

A subcommand of the one grammar (``scrapy-robots keys``, ``python -m scrapy_robots_rep keys``,
``scrapy robots keys``). ``generate`` writes a new Ed25519 private key (PEM, or JWK for a ``.json``
or ``.jwk`` file) readable by its owner only, and prints its public JWK and ``keyid``, never the
private key. ``directory`` writes the JWK Set that
``/.well-known/http-message-signatures-directory`` serves; with ``--authority`` it also prints
the response signature each private key gives for that host (``docs/behaviour.md`` §13).
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import time
from typing import TYPE_CHECKING

from scrapy_robots_rep.signing.signature import DIRECTORY_MEDIA_TYPE, DIRECTORY_PATH, sf_string, signature_base

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from scrapy_robots_rep.cli.grammar import Context

KEYS_DESCRIPTION = (
    "Make an Ed25519 key pair for signing requests (Web Bot Auth, REP_SIGNING_KEY), and the key directory "
    f"(a JWK Set, served as {DIRECTORY_MEDIA_TYPE}) to publish at {DIRECTORY_PATH}."
)
DEFAULT_KEY_FILE = "signing-key.pem"
DIRECTORY_TAG = "http-message-signatures-directory"
DIRECTORY_SIGNATURE_LIFETIME = 90 * 86400
"""Seconds a directory response signature stays valid: publish the directory again before then."""


def add_keys_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="keys_action", required=True, metavar="ACTION")
    generate = actions.add_parser(
        "generate",
        help="write a new Ed25519 private key (mode 0600); print its public JWK and keyid",
        description="Write a new Ed25519 private key, readable by its owner only: PEM, or a JWK when PATH "
        "ends in .json or .jwk. Prints the public key (JWK) and its keyid (RFC 7638 thumbprint), never the "
        "private key. An existing file is not overwritten.",
    )
    generate.add_argument("-o", "--output", metavar="PATH", default=DEFAULT_KEY_FILE, help="the key file to write")
    directory = actions.add_parser(
        "directory",
        help=f"write the key directory (JWK Set) to publish at {DIRECTORY_PATH}",
        description=f"Write the JWK Set of the public keys of KEY files (PEM or JWK, private or public), to "
        f"serve at https://HOST{DIRECTORY_PATH} with Content-Type: {DIRECTORY_MEDIA_TYPE}. With "
        "--authority, also print the response header fields that prove possession of each private key for "
        "that host (the directory's own signature).",
    )
    directory.add_argument("keys", metavar="KEY", nargs="+", help="a key file")
    directory.add_argument("-o", "--output", metavar="FILE", required=True, help="the directory file to write")
    directory.add_argument(
        "--authority", metavar="HOST", help="the host the directory is served from, to sign the directory for it"
    )


def run_keys(parser: argparse.ArgumentParser, args: argparse.Namespace, context: Context) -> int:
    try:
        from scrapy_robots_rep.signing import keys
    except ImportError as error:
        parser.error(f"keys needs the cryptography package ({error}): pip install 'scrapy-robots-rep[signing]'")
    if args.keys_action == "generate":
        return _generate(parser, args.output)
    try:
        read = [keys.read_key_file(path) for path in args.keys]
    except (keys.KeyFileError, OSError) as error:
        parser.error(f"a KEY file cannot be used: {error}")
    document = keys.directory([keys.public_jwk(public) for public, _ in read])
    body = json.dumps(document, separators=(",", ":")).encode("ascii")
    with open(args.output, "wb") as file:
        file.write(body)
    print(f"Wrote {args.output}: {len(read)} key(s), keyid {', '.join(jwk['kid'] for jwk in document['keys'])}")
    host = args.authority.lower() if args.authority else "YOUR-HOST"
    print(f"Serve it at https://{host}{DIRECTORY_PATH} with Content-Type: {DIRECTORY_MEDIA_TYPE}")
    print(f'and set REP_SIGNATURE_AGENT = "https://{host}".')
    if args.authority:
        signers = [private for _, private in read if private is not None]
        if not signers:
            parser.error("--authority needs at least one private KEY to sign the directory with")
        print(f"Serve it with these response header fields too (valid {DIRECTORY_SIGNATURE_LIFETIME // 86400} days):")
        for name, value in directory_signature(body, host, signers, time.time()):
            print(f"{name}: {value}")
    return 0


def _generate(parser: argparse.ArgumentParser, path: str) -> int:
    from scrapy_robots_rep.signing import keys

    key = keys.generate_key()
    data = keys.private_jwk(key) if path.endswith((".json", ".jwk")) else keys.private_pem(key)
    try:
        keys.write_private(path, data)
    except FileExistsError:
        parser.error(f"{path} exists; it is not overwritten")
    print(f"Wrote the private key to {path} (mode 0600): keep it secret; use it as REP_SIGNING_KEY.")
    print(f"keyid: {key.keyid}")
    print("public key (JWK):")
    print(json.dumps({**key.jwk, "kid": key.keyid}, indent=2))
    return 0


def directory_signature(body: bytes, host: str, signers: list[Ed25519PrivateKey], now: float) -> list[tuple[str, str]]:
    """``Content-Digest``, ``Signature-Input`` and ``Signature`` of a directory response served from
    ``host``: one signature per key, covering ``"@authority";req`` and ``content-digest``, tagged
    ``http-message-signatures-directory``."""
    from scrapy_robots_rep.signing.keys import SigningKey

    digest = f"sha-256=:{base64.b64encode(hashlib.sha256(body).digest()).decode('ascii')}:"
    created = int(now)
    inputs, signatures = [], []
    for index, private in enumerate(signers, 1):
        key = SigningKey.of(private)
        params = (
            f'("@authority";req "content-digest");created={created};expires={created + DIRECTORY_SIGNATURE_LIFETIME}'
            f";keyid={sf_string(key.keyid)};tag={sf_string(DIRECTORY_TAG)}"
        )
        base = signature_base((('"@authority";req', host), ('"content-digest"', digest)), params)
        inputs.append(f"binding{index}={params}")
        signatures.append(f"binding{index}=:{base64.b64encode(key.sign(base)).decode('ascii')}:")
    return [("Content-Digest", digest), ("Signature-Input", ", ".join(inputs)), ("Signature", ", ".join(signatures))]
