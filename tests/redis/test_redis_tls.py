"""RedisStore on a TLS-only Redis with its own CA and an ACL user (the default user off), standalone
and a Redis Cluster, as managed Redis services run: the client options (the CA as a file or as its
text) come from ``REP_REDIS_PARAMS`` or scrapy-redis's ``REDIS_PARAMS``, an option redis-py does not
take is a start-up error, and the password shows nowhere."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from scrapy_robots_rep.policy.settings import SettingsError
from scrapy_robots_rep.stores.redis import RedisStore
from tests.redis.server import TLS_PASSWORD, AnyServer, ClusterServer, ServerKind, on_kinds
from tests.stores.contract import ORIGIN, record
from tests.stores.on_asyncio import on_asyncio

on_each_tls_kind = on_kinds(ServerKind.TLS_ACL, ServerKind.TLS_CLUSTER)
"""Runs a test on the TLS-only Redis and on the TLS-only Redis Cluster (``tls_server``)."""


@pytest.fixture
def tls_server(server_of_each_kind: AnyServer) -> AnyServer:
    """The TLS-only server of the test's kind (``on_each_tls_kind``), running and empty."""
    assert server_of_each_kind.url.startswith("rediss://"), "a tls_server test is marked on_each_tls_kind"
    return server_of_each_kind


@on_each_tls_kind
@pytest.mark.parametrize(
    ("params_setting", "ca_as"),
    [("REP_REDIS_PARAMS", "ssl_ca_certs"), ("REDIS_PARAMS", "ssl_ca_certs"), ("REP_REDIS_PARAMS", "ssl_ca_data")],
)
@on_asyncio
async def test_the_store_shares_records_over_tls_as_the_acl_user_and_never_shows_the_password(
    tls_server: AnyServer, params_setting: str, ca_as: str, caplog: pytest.LogCaptureFixture
) -> None:
    ca = Path(tls_server.client_params["ssl_ca_certs"])
    params = {ca_as: str(ca) if ca_as == "ssl_ca_certs" else ca.read_text()}
    settings = {"USER_AGENT": "testbot/1.0", "REP_REDIS_URL": tls_server.url, params_setting: params}
    writer, reader = (build_from_crawler(RedisStore, get_crawler(settings_dict=settings)) for _ in range(2))
    with caplog.at_level(logging.DEBUG):
        try:
            stored = record(lifetime=60)
            await writer.store(ORIGIN, stored)
            assert await reader.acquire_fetch(ORIGIN) is False, "the fresh record is in Redis: nothing to fetch"
            loaded = await reader.load(ORIGIN)
            assert loaded is not None and loaded.to_dict() == stored.to_dict()
        finally:
            await writer.close()
            await reader.close()
    assert TLS_PASSWORD in tls_server.url
    assert "rediss://fleet:***@127.0.0.1" in writer.description
    assert ("a Redis Cluster" in writer.description) == isinstance(tls_server, ClusterServer), "found at start"
    assert TLS_PASSWORD not in writer.description
    assert "unavailable" not in caplog.text
    assert TLS_PASSWORD not in caplog.text


@on_each_tls_kind
@on_asyncio
async def test_without_the_ca_the_store_counts_redis_away_without_showing_the_password(
    tls_server: AnyServer, caplog: pytest.LogCaptureFixture
) -> None:
    store = build_from_crawler(
        RedisStore, get_crawler(settings_dict={"USER_AGENT": "testbot/1.0", "REP_REDIS_URL": tls_server.url})
    )
    with caplog.at_level(logging.INFO):
        assert await store.load(ORIGIN) is None
        await store.close()
    assert "certificate verify failed" in caplog.text
    assert TLS_PASSWORD not in caplog.text


def test_a_bad_url_is_named_without_its_password() -> None:
    url = f"redis://fleet:{TLS_PASSWORD}@127.0.0.1:notaport/0"
    with pytest.raises(SettingsError) as raised:
        build_from_crawler(RedisStore, get_crawler(settings_dict={"REP_REDIS_URL": url}))
    assert "REP_REDIS_URL" in str(raised.value)
    assert TLS_PASSWORD not in str(raised.value)


def test_client_options_must_be_a_dict_and_are_not_echoed() -> None:
    with pytest.raises(SettingsError, match="REP_REDIS_PARAMS must be a dict") as raised:
        build_from_crawler(RedisStore, get_crawler(settings_dict={"REP_REDIS_PARAMS": f"password={TLS_PASSWORD}"}))
    assert TLS_PASSWORD not in str(raised.value)


@pytest.mark.parametrize(
    ("params_setting", "params", "named"),
    [
        ("REP_REDIS_PARAMS", {"ssl": True, "password": TLS_PASSWORD}, "ssl (TLS is asked for by the URL: name the"),
        ("REDIS_PARAMS", {"ssl_ca_cert": "/etc/ca.pem", "socket_keepalive": True, "max_connections": 8}, "ssl_ca_cert"),
    ],
    ids=["ssl-as-the-cluster-client-takes-it", "a-misspelt-option"],
)
def test_client_options_redis_py_does_not_take_are_one_start_up_error(
    params_setting: str, params: dict[str, object], named: str
) -> None:
    """``ssl=True``, as redis-py's cluster client takes it, with a ``redis://`` URL: every connection
    would fail, the URL says whether it is TLS."""
    settings = {"REP_REDIS_URL": "redis://cluster-node-1.internal:7000/0", params_setting: params}
    with pytest.raises(SettingsError) as raised:
        build_from_crawler(RedisStore, get_crawler(settings_dict=settings))
    assert str(raised.value).startswith(f"{params_setting} has option(s) redis-py's client does not take: {named}")
    assert "keepalive" not in str(raised.value), "an option the connections take is not named"
    assert "max_connections" not in str(raised.value), "nor one the pool takes"
    assert TLS_PASSWORD not in str(raised.value)
