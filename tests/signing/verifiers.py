"""Two verifiers no one here wrote: Cloudflare's published Web Bot Auth packages run with Node
(``node/verify.mjs``), and the ``http-message-signatures`` package in Python."""

from __future__ import annotations

import json
import shutil
import subprocess
import types
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from http_message_signatures import HTTPMessageVerifier, HTTPSignatureKeyResolver, algorithms
from http_message_signatures.exceptions import HTTPMessageSignaturesException

NODE_DIR = Path(__file__).resolve().parent / "node"
WEB_BOT_AUTH_COMPONENTS = ('"@authority"', '"signature-agent";key="sig1"')


def node_verdicts(
    directory: Mapping[str, Any], agent: str, now: int, requests: Sequence[Mapping[str, Any]]
) -> list[str]:
    """One verdict per request from Cloudflare's packages: ``verified keyid=...`` or ``invalid: why``.

    The packages are installed by ``make node-verifier`` (``npm ci`` here); their absence fails."""
    node = shutil.which("node")
    assert node is not None, "Node.js is missing: run `make node-verifier`"
    assert (NODE_DIR / "node_modules" / "web-bot-auth").is_dir(), (
        "run `make node-verifier` (npm ci in tests/signing/node)"
    )
    data = json.dumps({"directory": directory, "agent": agent, "now": now, "requests": list(requests)})
    result = subprocess.run(
        [node, str(NODE_DIR / "verify.mjs")], input=data, capture_output=True, text=True, timeout=60, check=True
    )
    return [json.loads(line) for line in result.stdout.splitlines()]


class _Keys(HTTPSignatureKeyResolver):
    def __init__(self, keys: Mapping[str, Ed25519PublicKey]) -> None:
        self.keys = dict(keys)

    def resolve_public_key(self, key_id: str) -> Ed25519PublicKey | None:
        return self.keys.get(key_id)


def python_verdict(keys: Mapping[str, Ed25519PublicKey], method: str, url: str, headers: Mapping[str, str]) -> str:
    """``http-message-signatures``' verdict on a request: ``verified keyid=...`` or ``invalid: why``; a
    verified signature must also cover what Web Bot Auth requires and carry its tag."""
    verifier = HTTPMessageVerifier(signature_algorithm=algorithms.ED25519, key_resolver=_Keys(keys))
    message = types.SimpleNamespace(method=method, url=url, headers=dict(headers))
    try:
        results = verifier.verify(message, expect_tag="web-bot-auth", require_components=WEB_BOT_AUTH_COMPONENTS)
    except HTTPMessageSignaturesException as error:
        return f"invalid: {type(error).__name__} {error}".rstrip()
    return f"verified keyid={results[0].parameters['keyid']}"
