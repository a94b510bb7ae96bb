"""A real crawl against sites that verify every request against the key directory its
``Signature-Agent`` names, as a site following the draft would, and answer 403 otherwise."""

from __future__ import annotations

import base64
import json
import re
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import pytest_twisted
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from http_sf import parse as sf_parse

from scrapy_robots_rep.signing.keys import directory, generate_key, jwk_thumbprint, private_jwk, private_pem
from scrapy_robots_rep.signing.signature import DIRECTORY_MEDIA_TYPE, DIRECTORY_PATH
from tests.audit.files import lines
from tests.crawling import crawl
from tests.signing.verifiers import python_verdict
from tests.sites import Hit, Reply, Sites, redirect, text

ROBOTS = "User-agent: *\nDisallow: /private\n"
SLOW_ROBOTS = ROBOTS + "Crawl-delay: 2\n"


@dataclass
class Guard:
    """Verifies each request: fetches the directory its ``Signature-Agent`` names (once per origin),
    checks the signature with http-message-signatures, and answers 403 unless it verifies."""

    seen: list[tuple[str, str, str]] = field(default_factory=list)
    received: dict[str, tuple[float, int]] = field(default_factory=dict)
    """Each path's last receipt time and the ``created`` it was signed at."""
    _directories: dict[str, dict[str, Ed25519PublicKey]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def answer(self, reply: Reply) -> object:
        def guarded(hit: Hit) -> Reply:
            verdict = self.verdict(hit)
            created = re.search(r";created=(\d+)", hit.headers.get("Signature-Input", ";created=0"))
            with self._lock:
                self.seen.append((hit.headers.get("Host", ""), hit.path, verdict))
                self.received[hit.path] = (time.time(), int(created.group(1)) if created else 0)
            return reply if verdict.startswith("verified") else Reply(status=403, body=verdict.encode())

        return guarded

    def verdict(self, hit: Hit) -> str:
        agent = hit.headers.get("Signature-Agent")
        if agent is None:
            return "invalid: unsigned"
        member = sf_parse(agent.encode(), tltype="dictionary").get("sig1")
        if member is None:
            return "invalid: no sig1 member in Signature-Agent"
        keys = self._keys(member[0])
        return python_verdict(keys, hit.method, f"http://{hit.headers['Host']}{hit.path}", hit.headers)

    def _keys(self, origin: str) -> dict[str, Ed25519PublicKey]:
        if origin not in self._directories:
            with urllib.request.urlopen(origin + DIRECTORY_PATH, timeout=10) as answer:
                assert answer.headers["Content-Type"] == DIRECTORY_MEDIA_TYPE
                document = json.load(answer)
            self._directories[origin] = {
                jwk_thumbprint(jwk): Ed25519PublicKey.from_public_bytes(
                    base64.urlsafe_b64decode(jwk["x"] + "=" * (-len(jwk["x"]) % 4))
                )
                for jwk in document["keys"]
            }
        return self._directories[origin]


def refused(request: urllib.request.Request) -> int | None:
    """The status a site refused ``request`` with, None when it let it through."""
    try:
        with urllib.request.urlopen(request, timeout=10):
            return None
    except urllib.error.HTTPError as error:
        return error.code


@pytest_twisted.ensureDeferred
async def test_every_request_sent_is_signed_afresh_and_verified(
    sites: Sites, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Requests that wait in the download slot's queue (here Crawl-delay: 2) for more than a second
    # after they were signed are signed again as they are sent.
    monkeypatch.setattr("scrapy_robots_rep.downloader.signing.RESIGN_AFTER", 1.0)
    key = generate_key()
    key_file = tmp_path / "bot.pem"
    key_file.write_bytes(private_pem(key))
    published = sites.start(
        {
            DIRECTORY_PATH: Reply(
                body=json.dumps(directory([key.jwk])).encode(), headers={"Content-Type": DIRECTORY_MEDIA_TYPE}
            )
        }
    )
    guard = Guard()
    other = sites.start({"/robots.txt": guard.answer(text(ROBOTS)), "/landing": guard.answer(Reply(body=b"landed"))})
    site = sites.start(
        {
            "/robots.txt": guard.answer(text(SLOW_ROBOTS)),
            "/page": guard.answer(Reply(body=b"page")),
            "/retried": [guard.answer(Reply(status=503)), guard.answer(Reply(body=b"second time"))],
            "/moved": guard.answer(redirect(f"{other.url}/landing")),
        }
    )
    audit = tmp_path / "audit"
    host, other_host = f"{site.host}:{site.port}", f"{other.host}:{other.port}"

    result = await crawl(
        [f"{site.url}/page", f"{site.url}/retried", f"{site.url}/moved", f"{site.url}/private"],
        settings={
            "DOWNLOADER_MIDDLEWARES": {},
            "ADDONS": {"scrapy_robots_rep.Addon": 0},
            "ROBOTSTXT_OBEY": True,
            "REP_SIGNING_KEY": str(key_file),
            "REP_SIGNATURE_AGENT": published.url,
            "REP_AUDIT_DIR": str(audit),
        },
        loggers=("scrapy", "scrapy_robots_rep", "py.warnings"),
    )

    assert sorted(result.pages) == sorted([f"{site.url}/page", f"{site.url}/retried", f"{other.url}/landing"])
    assert sorted((seen_host, path) for seen_host, path, _ in guard.seen) == sorted(
        [
            (host, "/robots.txt"),
            (host, "/page"),
            (host, "/retried"),
            (host, "/retried"),
            (host, "/moved"),
            (other_host, "/robots.txt"),
            (other_host, "/landing"),
        ]
    )
    assert {verdict for _, _, verdict in guard.seen} == {f"verified keyid={key.keyid}"}
    retried = [hit.headers["Signature"] for hit in site.hits("/retried")]
    assert len(set(retried)) == 2, "the retry carries a signature of its own"
    assert all("private" not in path for path in site.paths())
    # /moved was signed with the others, as they left the scheduler, but sent two Crawl-delays
    # after /page: it was signed again when it was sent.
    page_received, _ = guard.received["/page"]
    _, moved_created = guard.received["/moved"]
    assert moved_created >= page_received
    # What the servers refuse: a request without a signature, and one whose signature was lifted
    # from another request.
    for headers in ({}, dict(site.hits("/page")[0].headers)):
        headers.pop("Host", None)
        assert refused(urllib.request.Request(f"{other.url}/landing", headers=headers)) == 403
    # The key is never logged: neither its PEM nor its JWK "d".
    secret_d = json.loads(private_jwk(key))["d"]
    pem_body = private_pem(key).decode().splitlines()[1]
    assert not [entry.message for entry in result.logs if secret_d in entry.message or pem_body in entry.message]
    assert result.messages(contains=f"keyid {key.keyid}")
    # The audit trail says with which key what was sent was signed.
    decisions = {line["url"]: line for line in lines(audit, "decisions")}
    assert decisions[f"{site.url}/page"]["keyid"] == key.keyid
    assert decisions[f"{site.url}/private"]["keyid"] is None
    fetches = lines(audit, "fetches")
    assert [line["keyid"] for line in fetches] == [key.keyid, key.keyid]
