"""The address rule in a live crawl: a public origin's robots.txt cannot steer the crawler into an internal address.

Every address a test can serve from is loopback, so the crawl's classifier is told that one of them
(the origins') plays a public address; everything else runs for real: the redirect, the resolution
of its name through the crawl's own resolver (set with Scrapy's resolver setting), the request that
is or is not sent, the servers' logs and the audit trail.
"""

from __future__ import annotations

import logging
from ipaddress import ip_address
from pathlib import Path

import pytest
import pytest_twisted
from scrapy.utils.test import get_crawler

from scrapy_robots_rep import RobotsDisallowed, RobotsUnreachable
from scrapy_robots_rep.crawl.outcomes import Outcomes
from scrapy_robots_rep.downloader import fetcher as fetcher_module
from scrapy_robots_rep.downloader.fetcher import RobotsFetcher
from scrapy_robots_rep.policy.addresses import AddressRule
from scrapy_robots_rep.policy.settings import RepSettings
from tests.audit.files import lines
from tests.crawling import RESOLVER_SETTING, crawl
from tests.sites import NAMES_SETTING, MappedNames, Sites, redirect, text
from tests.stores.on_asyncio import on_asyncio

SECRET = "User-agent: *\nDisallow: /secret-of-the-intranet\n"


@pytest_twisted.ensureDeferred
async def test_a_public_origin_cannot_redirect_robots_txt_to_a_name_of_an_internal_address(
    sites: Sites, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    internal = sites.start({"/robots.txt": text(SECRET)})
    rebound = sites.start({"/robots.txt": text(SECRET)})
    steering = sites.start({"/robots.txt": redirect(f"http://intranet.test:{internal.port}/robots.txt")})
    # Its name first answers the public address, then, when the request connects, an internal one.
    rebinding = sites.start(
        {"/robots.txt": redirect(f"http://rebinding.test:{rebound.port}/robots.txt")}, host=steering.host
    )
    monkeypatch.setattr(RobotsFetcher, "address_rule", AddressRule(frozenset({ip_address(steering.host)})))
    audit = tmp_path / "audit"

    result = await crawl(
        [f"{steering.url}/page", f"{rebinding.url}/page"],
        settings={
            RESOLVER_SETTING: "tests.sites.MappedNames",
            NAMES_SETTING: {"intranet.test": [internal.host], "rebinding.test": [steering.host, rebound.host]},
            "REP_AUDIT_DIR": str(audit),
            "REP_DEFER_MAX_TIME": 2.5,
            "REP_FETCH_TIMEOUT": 1,
        },
    )

    assert internal.hits() == [], "refused before the request: the internal server saw nothing"
    assert "intranet.test" in MappedNames.lookups, "resolved through the crawl's own resolver"
    assert rebound.paths() and set(rebound.paths()) == {"/robots.txt"}, "rebinding is seen only in the answer"
    assert len(steering.hits("/robots.txt")) >= 2, "unreachable: fetched again with backoff"
    assert steering.hits("/page") == [] and rebinding.hits("/page") == []
    assert result.failures == {f"{steering.url}/page": RobotsUnreachable, f"{rebinding.url}/page": RobotsUnreachable}

    before = f"from the public address {steering.host} to the internal address intranet.test ({internal.host}), in 127"
    after = f"from the public address {steering.host} to the internal address rebinding.test ({rebound.host}), in 127"
    logged = result.messages(logging.INFO, "address rule: ")
    assert any(before in message and "no request sent" in message for message in logged), logged
    assert any(after in message and "answer discarded" in message for message in logged), logged

    fetches = {
        origin: [line for line in lines(audit, "fetches") if line["origin"] == origin]
        for origin in (steering.url, rebinding.url)
    }
    for origin, expected in ((steering.url, before), (rebinding.url, after)):
        assert fetches[origin], origin
        for line in fetches[origin]:
            assert line["outcome"] == "unreachable" and line["sha256"] is None
            assert line["error"].startswith("address rule: ") and expected in line["error"]
    assert not any(SECRET.encode() in path.read_bytes() for path in audit.rglob("*") if path.is_file())


@pytest_twisted.ensureDeferred
async def test_behind_a_proxy_addresses_are_judged_by_name_and_literal(
    sites: Sites, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A proxy on a private address answers every request: its address must not make a public origin
    look internal (the redirect to an internal literal is still refused), and the start-up line says so."""
    proxy = sites.start(
        {
            "http://public.example/robots.txt": redirect("http://0x0a000001/robots.txt"),
            "http://named.example/robots.txt": redirect("http://intranet.example/robots.txt"),
            "http://intranet.example/robots.txt": text("User-agent: *\nDisallow: /\n"),
        }
    )
    for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "no_proxy", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("http_proxy", proxy.url)

    result = await crawl(
        ["http://public.example/page", "http://named.example/page"],
        settings={"REP_DEFER_MAX_TIME": 2.5, "REP_FETCH_TIMEOUT": 1},
    )

    assert result.messages(logging.INFO, "behind the HTTP proxy, redirects into internal addresses are checked by name")
    assert "http://0x0a000001/robots.txt" not in proxy.paths(), "an internal literal: refused, no request sent"
    assert result.failures == {
        "http://public.example/page": RobotsUnreachable,
        "http://named.example/page": RobotsDisallowed,
    }
    refusal = "from the public address public.example to the internal address 0x0a000001 (10.0.0.1), in 10.0.0.0/8"
    assert any(refusal in message for message in result.messages(logging.INFO, "address rule: "))
    # A name is the proxy's to resolve: followed, and its rules apply.
    assert "http://intranet.example/robots.txt" in proxy.paths()


@pytest.mark.parametrize("reactor", [True, False])
@on_asyncio
async def test_a_name_is_resolved_by_the_resolver_downloads_connect_through(
    reactor: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reactor's resolver, or, in a crawl without a Twisted reactor, the event loop's (both answer
    ``localhost`` from the hosts file); a name that does not resolve gives no address."""
    monkeypatch.setattr(fetcher_module, "is_reactor_installed", lambda: reactor)
    crawler = get_crawler()
    fetcher = RobotsFetcher(crawler, Outcomes.from_crawler(crawler), RepSettings.from_mapping({"REP_FETCH_TIMEOUT": 5}))

    assert "127.0.0.1" in await fetcher._resolved("localhost")
    assert await fetcher._resolved("nothing.invalid") == []
