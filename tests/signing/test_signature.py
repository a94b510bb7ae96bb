"""Web Bot Auth signatures checked by verifiers no one here wrote, and against the draft's vectors."""

from __future__ import annotations

import base64
import json
import time
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from scrapy_robots_rep.signing.keys import (
    KeyFileError,
    SigningKey,
    directory,
    generate_key,
    jwk_thumbprint,
    load_signing_key,
    private_jwk,
    private_pem,
)
from scrapy_robots_rep.signing.signature import RequestSigner, authority, signature_agent_member, signature_base
from tests.signing.verifiers import node_verdicts, python_verdict

# RFC 9421 Appendix B.1.4's Ed25519 test key, which the draft's test vectors use.
RFC9421_JWK = {
    "kty": "OKP",
    "crv": "Ed25519",
    "d": "n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU",
    "x": "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs",
}
AGENT = "https://signature-agent.test"
URL = "https://example.com/a/page.html?q=1"


def write_jwk(path: Path, jwk: dict[str, str]) -> str:
    path.write_text(json.dumps(jwk))
    return str(path)


def test_thumbprint_is_rfc8037s_example() -> None:
    jwk = {"crv": "Ed25519", "kty": "OKP", "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}
    assert jwk_thumbprint(jwk) == "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"


def test_the_drafts_ed25519_vector_gives_its_signature(tmp_path: Path) -> None:
    """draft-meunier-webbotauth-httpsig-protocol, Test Vectors, EdDSA: the same base, the same bytes."""
    key = load_signing_key(write_jwk(tmp_path / "k.jwk", RFC9421_JWK))
    assert key.keyid == "poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U"
    params = (
        '("@authority" "signature-agent");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U"'
        ';alg="ed25519";expires=1735693200'
        ';nonce="e8N7S2MFd/qrd6T2R3tdfAuuANngKI7LFtKYI/vowzk4lAZYadIX6wW25MwG7DCT9RUKAJ0qVkU0mEeLElW1qg=="'
        ';tag="web-bot-auth"'
    )
    base = signature_base((('"@authority"', "example.com"), ('"signature-agent"', f'"{AGENT}"')), params)
    assert base.decode().startswith('"@authority": example.com\n"signature-agent": "https://signature-agent.test"\n')
    assert base64.b64encode(key.sign(base)).decode() == (
        "jdq0SqOwHdyHr9+r5jw3iYZH6aNGKijYp/EstF4RQTQdi5N5YYKrD+mCT1HA1nZDsi6nJKuHxUi/5Syp3rLWBA=="
    )


def signed(key: SigningKey, url: str = URL, now: float | None = None, method: str = "GET") -> dict[str, str]:
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    sent_to = authority(parts.scheme, parts.hostname or "", parts.port)
    return RequestSigner(key, AGENT).headers(method, sent_to, parts.path or "/", time.time() if now is None else now)


def test_headers_are_the_drafts_form() -> None:
    key = generate_key()
    headers = signed(key, now=1_800_000_000)
    assert headers["Signature-Agent"] == 'sig1="https://signature-agent.test"'
    assert headers["Signature-Input"].startswith(
        'sig1=("@method" "@authority" "@path" "signature-agent";key="sig1");created=1800000000;expires=1800000300;nonce="'
    )
    assert headers["Signature-Input"].endswith(f';keyid="{key.keyid}";tag="web-bot-auth"')
    assert headers["Signature"].startswith("sig1=:") and headers["Signature"].endswith(":")
    assert signed(key)["Signature"] != signed(key)["Signature"], "a fresh nonce each time"


def test_python_verifier_accepts_ours_and_rejects_tampered_expired_and_wrong_keys() -> None:
    key, other = generate_key(), generate_key()
    keys = {key.keyid: key.private.public_key()}
    good = signed(key)
    assert python_verdict(keys, "GET", URL, good) == f"verified keyid={key.keyid}"
    assert python_verdict(keys, "GET", URL, {**good, "Signature-Agent": 'sig1="https://evil.test"'}).startswith(
        "invalid"
    )
    assert python_verdict(keys, "GET", "https://example.com/other", good).startswith("invalid")
    assert python_verdict(keys, "GET", "https://example.org/a/page.html", good).startswith("invalid")
    assert python_verdict(keys, "GET", URL, signed(key, now=time.time() - 3600)).startswith("invalid")
    impostor = SigningKey(other.private, key.jwk, key.keyid)
    assert python_verdict(keys, "GET", URL, signed(impostor)).startswith("invalid")
    assert python_verdict(keys, "GET", URL, signed(other)).startswith("invalid")


def test_cloudflares_verifier_accepts_ours_and_rejects_tampered_expired_and_wrong_keys() -> None:
    key, other = generate_key(), generate_key()
    now = int(time.time())
    good = signed(key, now=now)
    requests = [
        {"method": "GET", "url": URL, "headers": good},
        {"method": "GET", "url": "https://example.org/a/page.html", "headers": good},
        {"method": "GET", "url": URL, "headers": {**good, "Signature-Agent": 'sig1="https://evil.test"'}},
        {"method": "POST", "url": URL, "headers": good},
        {"method": "GET", "url": URL, "headers": signed(key, now=now - 3600)},
        {"method": "GET", "url": URL, "headers": signed(SigningKey(other.private, key.jwk, key.keyid), now=now)},
        {"method": "GET", "url": URL, "headers": signed(other, now=now)},
    ]
    verdicts = node_verdicts(directory([key.jwk]), AGENT, now, requests)
    # The tampered Signature-Agent is judged against the tampered value, so that the signature decides.
    tampered = node_verdicts(directory([key.jwk]), "https://evil.test", now, requests[2:3])
    assert verdicts[0] == f"verified keyid={key.keyid}"
    assert verdicts[1] == "invalid: Signature verification failed"
    assert tampered == ["invalid: Signature verification failed"]
    assert verdicts[3] == "invalid: Signature verification failed"
    assert verdicts[4] == "invalid: Signature has expired"
    assert verdicts[5] == "invalid: Signature verification failed"
    assert verdicts[6].startswith("invalid: Verifier resolution failed (unknown keyid")


@pytest.mark.parametrize(
    ("url", "member"),
    [
        ("https://bot.example", '"https://bot.example"'),
        ("https://Bot.Example/", '"https://bot.example"'),
        ("https://bot.example/.well-known/http-message-signatures-directory", '"https://bot.example"'),
        ("https://bot.example/keys.json", '"https://bot.example/keys.json";type=jwks_uri'),
    ],
)
def test_signature_agent_member(url: str, member: str) -> None:
    assert signature_agent_member(url) == member


@pytest.mark.parametrize("url", ["ftp://bot.example", "bot.example", "https://user@bot.example/"])
def test_signature_agent_must_be_an_http_url(url: str) -> None:
    with pytest.raises(ValueError, match="not an https URL"):
        signature_agent_member(url)


def test_pem_and_jwk_files_give_the_same_key(tmp_path: Path) -> None:
    key = generate_key()
    (tmp_path / "k.pem").write_bytes(private_pem(key))
    (tmp_path / "k.jwk").write_bytes(private_jwk(key))
    assert load_signing_key(str(tmp_path / "k.pem")).keyid == key.keyid
    assert load_signing_key(str(tmp_path / "k.jwk")).keyid == key.keyid
    assert key.keyid in repr(key) and "private" not in repr(key).lower()


def test_unusable_key_files_are_refused_without_quoting_them(tmp_path: Path) -> None:
    key = generate_key()
    rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    files = {
        "public.pem": key.private.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        ),
        "rsa.pem": rsa_key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        ),
        "mismatch.jwk": json.dumps({**json.loads(private_jwk(key)), "x": generate_key().jwk["x"]}).encode(),
        "text.txt": b"not a key",
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
        with pytest.raises(KeyFileError) as raised:
            load_signing_key(str(tmp_path / name))
        assert json.loads(private_jwk(key))["d"] not in str(raised.value)
    with pytest.raises(KeyFileError, match="cannot be read"):
        load_signing_key(str(tmp_path / "absent.pem"))
