"""The test servers themselves: each kind starts, answers, and is what it says it is."""

from __future__ import annotations

import pytest
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from tests.redis.server import TLS_PASSWORD, TLS_USER, AnyServer, ClusterServer, RedisServer, ServerKind, on_kinds


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


@on_kinds(ServerKind.TLS_ACL, ServerKind.TLS_CLUSTER)
def test_the_tls_servers_want_tls_their_ca_and_the_acl_user(server_of_each_kind: AnyServer) -> None:
    server = server_of_each_kind
    for node in server.nodes if isinstance(server, ClusterServer) else [server]:
        _check_tls(node)
    with server.client() as client:
        assert client.acl_whoami() == TLS_USER


def _check_tls(node: RedisServer) -> None:
    once = {"socket_timeout": 2, "retry": Retry(NoBackoff(), 0)}  # each refusal is final: not tried again
    plain = redis.Redis(port=node.port, **once)
    with pytest.raises(redis.ConnectionError):
        plain.ping()
    without_ca = redis.Redis.from_url(node.url, **once)
    with pytest.raises(redis.ConnectionError, match="certificate verify failed"):
        without_ca.ping()
    default_user = redis.Redis(host="127.0.0.1", port=node.port, ssl=True, **once, **node.client_params)
    with pytest.raises(redis.AuthenticationError):
        default_user.execute_command("AUTH", "default", TLS_PASSWORD)
    with node.client() as client:
        assert client.acl_whoami() == TLS_USER
