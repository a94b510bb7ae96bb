"""The test servers themselves: each kind starts, answers, and is what it says it is."""

from __future__ import annotations

import pytest
import redis

from tests.redis.server import TLS_PASSWORD, TLS_USER, AnyServer, ClusterServer, ServerKind, started_kind


def test_each_server_kind_answers_as_the_kind_it_is(server_of_each_kind: AnyServer, request) -> None:
    kind = request.node.callspec.params["_server_of_each_kind"]
    with server_of_each_kind.client() as client:
        # two keys in different slots: on the cluster, the client follows MOVED to both owners
        client.set("a", "1")
        client.set("b", "2")
        assert client.mget(["a"]) + client.mget(["b"]) == [b"1", b"2"]
        info = client.info("server")
    version = info.get("valkey_version") or info["redis_version"]
    expected = {"redis-6.2": "6.2.", "valkey": "9."}.get(kind.value, "7.")
    assert str(version).startswith(expected), (kind, info)
    if isinstance(server_of_each_kind, ClusterServer):
        # "a" and "b" fall in slots 15495 and 3300, owned by different masters: one node sends a MOVED
        assert len(server_of_each_kind.nodes) == 3
        with server_of_each_kind.nodes[0].client() as node:
            moved = 0
            for key in ("a", "b"):
                try:
                    node.get(key)
                except redis.exceptions.MovedError:
                    moved += 1
        assert moved == 1


def test_the_tls_server_wants_tls_its_ca_and_the_acl_user(tmp_path) -> None:
    server = started_kind(ServerKind.TLS_ACL, tmp_path)
    try:
        _check_tls(server)
    finally:
        server.stop()


def _check_tls(server: AnyServer) -> None:
    plain = redis.Redis(port=server.port, socket_timeout=2)
    with pytest.raises(redis.ConnectionError):
        plain.ping()
    without_ca = redis.Redis.from_url(server.url, socket_timeout=2)
    with pytest.raises(redis.ConnectionError, match="certificate verify failed"):
        without_ca.ping()
    default_user = redis.Redis(host="127.0.0.1", port=server.port, ssl=True, socket_timeout=2, **server.client_params)
    with pytest.raises(redis.AuthenticationError):
        default_user.execute_command("AUTH", "default", TLS_PASSWORD)
    with server.client() as client:
        assert client.acl_whoami() == TLS_USER
