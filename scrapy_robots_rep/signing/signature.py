"""Web Bot Auth request signatures (HTTP Message Signatures, RFC 9421, with Ed25519), no Scrapy.

:class:`RequestSigner` gives the three header fields of one request from its method, authority,
path and the time: ``Signature-Agent`` (where the key directory is), ``Signature-Input`` (what is
covered, ``created``/``expires``, a nonce, ``keyid`` and ``tag="web-bot-auth"``) and
``Signature``. The readings of draft-ietf-webbotauth-httpsig-protocol behind each choice are in
``docs/decisions.md``.
"""

from __future__ import annotations

import base64
import os
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from scrapy_robots_rep.signing.keys import SigningKey

DIRECTORY_PATH = "/.well-known/http-message-signatures-directory"
"""Where an origin publishes its key directory."""
DIRECTORY_MEDIA_TYPE = "application/http-message-signatures-directory+json"
"""The media type the key directory is served with."""
LABEL = "sig1"
"""The signature's label, and the key of its ``Signature-Agent`` member."""
TAG = "web-bot-auth"
LIFETIME = 300
"""Seconds from ``created`` to ``expires``: the window in which a captured signature can be replayed."""
NONCE_BYTES = 64
COVERED = ("@method", "@authority", "@path", f'signature-agent";key="{LABEL}')
"""What each signature covers: the request's method, authority and path, and the ``Signature-Agent``
member keyed to the label (written as it appears inside quotes in ``Signature-Input``)."""

_KEYID = re.compile(r';keyid="([^"\\]*)"')
_DEFAULT_PORTS = {"http": 80, "https": 443}


def sf_string(value: str) -> str:
    """``value`` as a Structured Field String (RFC 9651 §4.1.6); ValueError if it cannot be one."""
    if not value.isascii() or not value.isprintable():
        raise ValueError(f"{value!r} has characters a structured-field string cannot hold")
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def signature_agent_member(url: str) -> str:
    """The ``Signature-Agent`` member value for the directory published at ``url``.

    An origin, or a URL whose path is the well-known directory path, is sent as the origin (the
    ``directory`` type, the default); any other URL is sent with ``type=jwks_uri``. Raises
    ValueError for a URL that is neither http nor https or has no host.
    """
    parts = urlsplit(url)
    if parts.scheme not in _DEFAULT_PORTS or not parts.hostname or parts.username is not None:
        raise ValueError(f"{url!r} is not an https URL of the key directory")
    if parts.path in ("", "/", DIRECTORY_PATH) and not parts.query and not parts.fragment:
        return sf_string(f"{parts.scheme}://{parts.netloc.lower()}")
    return sf_string(url) + ";type=jwks_uri"


def authority(scheme: str, host: str, port: int | None) -> str:
    """The ``@authority`` of a request (RFC 9421 §2.2.3): the host in lower case, an IPv6 address in
    brackets, the port only when it is not the scheme's default."""
    host = host.lower()
    if ":" in host:
        host = f"[{host}]"
    if port is None or port == _DEFAULT_PORTS.get(scheme):
        return host
    return f"{host}:{port}"


def signature_base(components: Sequence[tuple[str, str]], signature_params: str) -> bytes:
    """The signature base (RFC 9421 §2.5): one ``identifier: value`` line per covered component,
    then the ``@signature-params`` line. Identifiers are given serialized (``"@authority"``)."""
    lines = [f"{identifier}: {value}" for identifier, value in components]
    lines.append(f'"@signature-params": {signature_params}')
    return "\n".join(lines).encode("ascii")


def keyid_of(signature_input: str) -> str | None:
    """The ``keyid`` a ``Signature-Input`` value names, or None."""
    found = _KEYID.search(signature_input)
    return found.group(1) if found is not None else None


class RequestSigner:
    """Signs requests with one key for one ``Signature-Agent``; see the module docstring."""

    def __init__(self, key: SigningKey, signature_agent: str, lifetime: int = LIFETIME) -> None:
        member = signature_agent_member(signature_agent)
        self.keyid = key.keyid
        self.signature_agent = f"{LABEL}={member}"
        """The ``Signature-Agent`` field value, the same on every request."""
        self._key = key
        self._lifetime = lifetime
        self._agent_component = (f'"signature-agent";key="{LABEL}"', member)
        self._covered = "(" + " ".join(f'"{identifier}"' for identifier in COVERED) + ")"
        self._trailer = f";keyid={sf_string(key.keyid)};tag={sf_string(TAG)}"

    def headers(self, method: str, authority: str, path: str, now: float) -> dict[str, str]:
        """The ``Signature-Agent``, ``Signature-Input`` and ``Signature`` fields of one request sent at ``now``."""
        created = int(now)
        nonce = base64.b64encode(os.urandom(NONCE_BYTES)).decode("ascii")
        params = f'{self._covered};created={created};expires={created + self._lifetime};nonce="{nonce}"{self._trailer}'
        components = (
            ('"@method"', method.upper()),
            ('"@authority"', authority),
            ('"@path"', path),
            self._agent_component,
        )
        signature = self._key.sign(signature_base(components, params))
        return {
            "Signature-Agent": self.signature_agent,
            "Signature-Input": f"{LABEL}={params}",
            "Signature": f"{LABEL}=:{base64.b64encode(signature).decode('ascii')}:",
        }
