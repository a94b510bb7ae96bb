"""Ed25519 signatures of the audit manifests (``REP_AUDIT_SIGNING_KEY``; the ``[signing]`` extra).

A process that holds the private key signs each manifest it writes; anyone holding the public key
checks with ``scrapy-robots audit verify --public-key`` that the manifest, and so the head of each
of its files' chains, was written by the key's holder.
"""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path
from typing import Any

ALGORITHM = "ed25519"


def _crypto() -> Any:
    try:
        from cryptography.hazmat.primitives import serialization
    except ImportError:
        raise ImportError(
            "signing the audit trail needs cryptography: pip install 'scrapy-robots-rep[signing]'"
        ) from None
    return serialization


def _raw_public(key: Any) -> bytes:
    serialization = _crypto()
    raw: bytes = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return raw


def key_id(raw_public_key: bytes) -> str:
    """A short name of a public key: the first 16 hex digits of the SHA-256 of its 32 raw bytes."""
    return hashlib.sha256(raw_public_key).hexdigest()[:16]


class ManifestSigner:
    """Signs manifests with the Ed25519 private key of a PEM file."""

    def __init__(self, path: str | Path) -> None:
        serialization = _crypto()
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        try:
            key = serialization.load_pem_private_key(Path(path).read_bytes(), password=None)
        except (OSError, ValueError, TypeError) as error:
            raise ValueError(f"REP_AUDIT_SIGNING_KEY {str(path)!r} is not a readable PEM key: {error}") from None
        if not isinstance(key, Ed25519PrivateKey):
            raise ValueError(f"REP_AUDIT_SIGNING_KEY {str(path)!r} must be an Ed25519 key")
        self._key = key
        self._public = _raw_public(key.public_key())

    def sign(self, data: bytes) -> dict[str, str]:
        """The signature of ``data``, with the public key it is checked with."""
        return {
            "algorithm": ALGORITHM,
            "public_key": base64.b64encode(self._public).decode("ascii"),
            "key_id": key_id(self._public),
            "value": base64.b64encode(self._key.sign(data)).decode("ascii"),
        }


def load_public_key(path: str | Path) -> bytes:
    """The 32 raw bytes of the Ed25519 public key of a PEM file (a public key, or a private key's)."""
    serialization = _crypto()
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

    data = Path(path).read_bytes()
    key: Any
    try:
        key = serialization.load_pem_public_key(data)
    except ValueError:
        try:
            key = serialization.load_pem_private_key(data, password=None)
        except (ValueError, TypeError) as error:
            raise ValueError(f"{path} is not a PEM Ed25519 key: {error}") from None
        if isinstance(key, Ed25519PrivateKey):
            key = key.public_key()
    if not isinstance(key, Ed25519PublicKey):
        raise ValueError(f"{path} is not an Ed25519 key")
    return _raw_public(key)


def signature_error(signature: Any, data: bytes, public_key: bytes) -> str | None:
    """Why ``signature`` is not the holder of ``public_key``'s signature of ``data``; None when it is."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    if not isinstance(signature, dict) or signature.get("algorithm") != ALGORITHM:
        return "the signature is not an Ed25519 signature"
    try:
        value = base64.b64decode(signature["value"], validate=True)
        Ed25519PublicKey.from_public_bytes(public_key).verify(value, data)
    except (KeyError, ValueError, TypeError):
        return "the signature is malformed"
    except InvalidSignature:
        return f"the signature does not verify with the public key given (key {key_id(public_key)})"
    return None
