"""``keys generate`` and ``keys directory`` through every entry point of the one grammar."""

from __future__ import annotations

import base64
import hashlib
import json
import stat
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from http_sf import parse as sf_parse

from scrapy_robots_rep.cli import main
from scrapy_robots_rep.cli.keys import directory_signature
from scrapy_robots_rep.signing.keys import jwk_thumbprint, load_signing_key, private_jwk, read_key_file
from scrapy_robots_rep.signing.signature import signature_base
from tests.cli.test_entry_points import through_each
from tests.project import Project


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Project:
    return Project(tmp_path_factory.mktemp("project"))


def test_generate_writes_a_private_key_only_its_owner_reads_and_prints_only_the_public_one(
    project: Project, tmp_path: Path
) -> None:
    for kind in ("pem", "json"):
        path = tmp_path / f"bot.{kind}"
        completed = through_each(project, ["keys", "generate", "-o", str(path)])
        statuses = {name: run.returncode for name, run in completed.items()}
        # The first entry point writes the key; the others find it there and leave it alone.
        assert sorted(statuses.values()) == [0, 2, 2], completed
        first = next(run for run in completed.values() if run.returncode == 0)
        assert all("exists; it is not overwritten" in run.stderr for run in completed.values() if run.returncode)
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        key = load_signing_key(str(path))
        assert f"keyid: {key.keyid}\n" in first.stdout
        assert json.loads(first.stdout.split("public key (JWK):\n", 1)[1]) == {**key.jwk, "kid": key.keyid}
        secret = json.loads(private_jwk(key))["d"]
        assert secret not in first.stdout and "PRIVATE" not in first.stdout
        if kind == "json":
            assert json.loads(path.read_text())["d"] == secret


def test_directory_is_the_jwk_set_to_publish_with_its_own_signature(tmp_path: Path, capsys) -> None:
    for name in ("a.pem", "b.json"):
        assert main(["keys", "generate", "-o", str(tmp_path / name)]) == 0
    public_only = tmp_path / "b.pub.json"
    public_only.write_text(json.dumps(load_signing_key(str(tmp_path / "b.json")).jwk))
    capsys.readouterr()

    status = main(
        [
            "keys",
            "directory",
            str(tmp_path / "a.pem"),
            str(public_only),
            "-o",
            str(tmp_path / "dir.json"),
            "--authority",
            "Bot.Example",
        ]
    )

    assert status == 0
    body = (tmp_path / "dir.json").read_bytes()
    document = json.loads(body)
    keys = [load_signing_key(str(tmp_path / name)) for name in ("a.pem", "b.json")]
    assert document == {"keys": [{**key.jwk, "kid": key.keyid, "use": "sig"} for key in keys]}
    printed = capsys.readouterr().out
    assert "Content-Type: application/http-message-signatures-directory+json" in printed
    fields = dict(
        line.split(": ", 1) for line in printed.splitlines() if line.startswith(("Content-Digest", "Signature"))
    )
    assert fields["Content-Digest"] == f"sha-256=:{base64.b64encode(hashlib.sha256(body).digest()).decode()}:"
    # One signature, by the one private key given, verified over the base the draft describes.
    inputs = sf_parse(fields["Signature-Input"].encode(), tltype="dictionary")
    signatures = sf_parse(fields["Signature"].encode(), tltype="dictionary")
    assert list(inputs) == ["binding1"]
    params = fields["Signature-Input"].split("=", 1)[1]
    base = signature_base((('"@authority";req', "bot.example"), ('"content-digest"', fields["Content-Digest"])), params)
    public, _ = read_key_file(str(tmp_path / "a.pem"))
    public.verify(signatures["binding1"][0], base)
    assert inputs["binding1"][1]["tag"] == "http-message-signatures-directory"
    assert inputs["binding1"][1]["keyid"] == keys[0].keyid


def test_directory_signature_has_the_drafts_digest() -> None:
    """The draft's Signed Directory Response vector: the same body gives the same Content-Digest."""
    body = (
        b'{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U",'
        b'"x":"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs","use":"sig"}]}'
    )
    assert jwk_thumbprint(json.loads(body)["keys"][0]) == "poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U"

    fields = dict(directory_signature(body, "signature-agent.test", [Ed25519PrivateKey.generate()], 1735689600))
    assert fields["Content-Digest"] == "sha-256=:CADMT2aBdV/rqQr/NIru64ERQkCobVvllA4V0fLFDu0=:"


def test_an_unusable_key_file_is_a_usage_error(tmp_path: Path, capsys) -> None:
    (tmp_path / "x.pem").write_text("nope")
    with pytest.raises(SystemExit) as exited:
        main(["keys", "directory", str(tmp_path / "x.pem"), "-o", str(tmp_path / "dir.json")])
    assert exited.value.code == 2
    assert "a KEY file cannot be used: neither PEM nor a JWK" in capsys.readouterr().err
