"""Ed25519 keys for Web Bot Auth: read from PEM or JWK files, made, and described as JWKs.

A key's identifier is its JWK SHA-256 thumbprint (RFC 7638 §3, with the OKP members of RFC 8037
Appendix A.3): what ``keyid`` carries in ``Signature-Input`` and ``kid`` in the key directory.
Private key material never appears in a message this module raises.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey


class KeyFileError(ValueError):
    """A key file that cannot be read as an Ed25519 key; the message never quotes the file."""


def b64url(data: bytes) -> str:
    """base64url without padding (RFC 7515 §2), as JWK members are written."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def raw_public(key: Ed25519PublicKey) -> bytes:
    """The public key's 32 raw bytes (RFC 8032 §5.1.5)."""
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def public_jwk(key: Ed25519PublicKey) -> dict[str, str]:
    """The public key as an OKP JWK (RFC 8037 §2): ``kty``, ``crv``, ``x``."""
    return {"kty": "OKP", "crv": "Ed25519", "x": b64url(raw_public(key))}


def jwk_thumbprint(jwk: dict[str, Any]) -> str:
    """The JWK SHA-256 thumbprint of an OKP key: its required members in lexicographic order, no
    white space, hashed, base64url (RFC 7638 §3.2, RFC 8037 Appendix A.3)."""
    members = {name: jwk[name] for name in ("crv", "kty", "x")}
    canonical = json.dumps(members, separators=(",", ":"), sort_keys=True).encode("utf-8")
    return b64url(hashlib.sha256(canonical).digest())


@dataclass(frozen=True, slots=True, repr=False)
class SigningKey:
    """An Ed25519 private key with its public JWK and ``keyid``; its repr shows only the ``keyid``."""

    private: Ed25519PrivateKey
    jwk: dict[str, str]
    keyid: str

    @classmethod
    def of(cls, private: Ed25519PrivateKey) -> SigningKey:
        jwk = public_jwk(private.public_key())
        return cls(private, jwk, jwk_thumbprint(jwk))

    def __repr__(self) -> str:
        return f"<SigningKey keyid={self.keyid}>"

    def sign(self, data: bytes) -> bytes:
        return self.private.sign(data)


def generate_key() -> SigningKey:
    """A new Ed25519 key pair."""
    return SigningKey.of(Ed25519PrivateKey.generate())


def private_pem(key: SigningKey) -> bytes:
    """The private key as unencrypted PKCS#8 PEM."""
    return key.private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def private_jwk(key: SigningKey) -> bytes:
    """The private key as an OKP JWK with ``d`` (RFC 8037 §2), ``kid`` the thumbprint."""
    raw = key.private.private_bytes(
        serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
    )
    return json.dumps({**key.jwk, "d": b64url(raw), "kid": key.keyid}, indent=2).encode("ascii") + b"\n"


def write_private(path: str, data: bytes) -> None:
    """Write a private key file readable by its owner only (mode 0600); an existing file is kept."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(data)


def read_key_file(path: str) -> tuple[Ed25519PublicKey, Ed25519PrivateKey | None]:
    """The key in ``path``: PEM (private PKCS#8, or public) or a JWK (private with ``d``, or public).

    Raises :class:`KeyFileError` naming what is wrong, or ``OSError`` when the file cannot be read.
    """
    with open(path, "rb") as file:
        data = file.read()
    if data.lstrip().startswith(b"{"):
        return _from_jwk(data)
    if b"PRIVATE KEY-----" in data:
        try:
            private = serialization.load_pem_private_key(data, password=None)
        except (ValueError, TypeError, UnsupportedAlgorithm):
            raise KeyFileError("not a readable unencrypted PEM private key") from None
        if not isinstance(private, Ed25519PrivateKey):
            raise KeyFileError(f"a {type(private).__name__.removeprefix('_')} PEM key, not Ed25519")
        return private.public_key(), private
    if b"PUBLIC KEY-----" in data:
        try:
            public = serialization.load_pem_public_key(data)
        except (ValueError, UnsupportedAlgorithm):
            raise KeyFileError("not a readable PEM public key") from None
        if not isinstance(public, Ed25519PublicKey):
            raise KeyFileError("a PEM public key that is not Ed25519")
        return public, None
    raise KeyFileError("neither PEM nor a JWK (JSON)")


def _from_jwk(data: bytes) -> tuple[Ed25519PublicKey, Ed25519PrivateKey | None]:
    try:
        jwk = json.loads(data)
    except ValueError:
        raise KeyFileError("not valid JSON") from None
    if not isinstance(jwk, dict) or jwk.get("kty") != "OKP" or jwk.get("crv") != "Ed25519":
        raise KeyFileError('a JWK that is not an Ed25519 key ("kty": "OKP", "crv": "Ed25519")')
    try:
        public = Ed25519PublicKey.from_public_bytes(_b64url_decode(str(jwk["x"])))
        if "d" not in jwk:
            return public, None
        private = Ed25519PrivateKey.from_private_bytes(_b64url_decode(str(jwk["d"])))
    except (KeyError, ValueError):
        raise KeyFileError('a JWK whose "x" or "d" is not a base64url Ed25519 key') from None
    if public_jwk(private.public_key()) != public_jwk(public):
        raise KeyFileError('a JWK whose "x" is not the public key of its "d"')
    return public, private


def load_signing_key(path: str) -> SigningKey:
    """The private key in ``path`` (PEM or JWK); :class:`KeyFileError` for a public key or another kind."""
    try:
        _, private = read_key_file(path)
    except OSError as error:
        raise KeyFileError(f"cannot be read: {error.strerror or error}") from None
    if private is None:
        raise KeyFileError("holds a public key; signing needs the private key")
    return SigningKey.of(private)


def directory(public_keys: list[dict[str, str]]) -> dict[str, list[dict[str, str]]]:
    """The key directory: a JWK Set (RFC 7517 §5) of the public keys, each with ``kid`` = its
    thumbprint and ``use`` = ``sig``."""
    return {"keys": [{**jwk, "kid": jwk_thumbprint(jwk), "use": "sig"} for jwk in public_keys]}
