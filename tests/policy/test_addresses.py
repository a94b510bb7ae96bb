"""The address rule's classifier: every special-purpose range of both families, in every spelling."""

from __future__ import annotations

import socket
from ipaddress import IPv4Address, ip_address

import pytest

from scrapy_robots_rep.policy.addresses import (
    AddressRule,
    internal_block,
    ipv4_blocks,
    ipv6_blocks,
    is_internal,
    parse_host,
)

INTERNAL = [
    # (an address, the range that makes it internal)
    ("0.0.0.0", "0.0.0.0/8"),
    ("0.255.1.2", "0.0.0.0/8"),
    ("10.0.0.1", "10.0.0.0/8"),
    ("10.255.255.255", "10.0.0.0/8"),
    ("100.64.0.0", "100.64.0.0/10"),
    ("100.100.100.200", "100.64.0.0/10"),  # a cloud's metadata service
    ("100.127.255.255", "100.64.0.0/10"),
    ("127.0.0.1", "127.0.0.0/8"),
    ("127.255.255.254", "127.0.0.0/8"),
    ("169.254.169.254", "169.254.0.0/16"),  # the metadata endpoint of most clouds
    ("172.16.0.1", "172.16.0.0/12"),
    ("172.31.255.255", "172.16.0.0/12"),
    ("192.0.0.1", "192.0.0.0/24"),
    ("192.0.0.8", "192.0.0.0/24"),
    ("192.0.0.170", "192.0.0.0/24"),
    ("192.0.2.7", "192.0.2.0/24"),
    ("192.88.99.1", "192.88.99.0/24"),
    ("192.168.1.1", "192.168.0.0/16"),
    ("198.18.0.1", "198.18.0.0/15"),
    ("198.19.255.255", "198.18.0.0/15"),
    ("198.51.100.1", "198.51.100.0/24"),
    ("203.0.113.9", "203.0.113.0/24"),
    ("224.0.0.1", "224.0.0.0/4"),
    ("239.255.255.250", "224.0.0.0/4"),
    ("240.0.0.1", "240.0.0.0/4"),
    ("255.255.255.254", "240.0.0.0/4"),
    ("255.255.255.255", "255.255.255.255/32"),
    ("::", "::/128"),
    ("::1", "::1/128"),
    ("::ffff:127.0.0.1", "127.0.0.0/8"),  # IPv4-mapped: the IPv4 address decides
    ("::ffff:a9fe:a9fe", "169.254.0.0/16"),
    ("64:ff9b::10.0.0.1", "10.0.0.0/8"),  # NAT64: the IPv4 address decides
    ("64:ff9b::a9fe:a9fe", "169.254.0.0/16"),
    ("64:ff9b:1::8.8.8.8", "64:ff9b:1::/48"),  # local-use NAT64: internal whatever it holds
    ("100::1", "100::/64"),
    ("100:0:0:1::1", "100:0:0:1::/64"),
    ("2001:0:4136:e378:8000:63bf:80ff:fffe", "127.0.0.0/8"),  # Teredo, client 127.0.0.1
    ("2001:0:a9fe:a9fe::f7f7:f7f7", "169.254.0.0/16"),  # Teredo, server 169.254.169.254
    ("2001:1::4", "2001::/23"),
    ("2001:2::1", "2001:2::/48"),
    ("2001:10::1", "2001:10::/28"),
    ("2001:db8::1", "2001:db8::/32"),
    ("2002:7f00:1::1", "127.0.0.0/8"),  # 6to4 carrying 127.0.0.1
    ("2002:c0a8:101::", "192.168.0.0/16"),
    ("3fff::1", "3fff::/20"),
    ("5f00::1", "5f00::/16"),
    ("fc00::1", "fc00::/7"),
    ("fd00:ec2::254", "fc00::/7"),  # a cloud's IPv6 metadata endpoint
    ("fe80::1", "fe80::/10"),
    ("fec0::1", "fec0::/10"),
    ("ff02::1", "ff00::/8"),
    ("::127.0.0.1", "::/0"),  # deprecated IPv4-compatible: outside 2000::/3
    ("400::1", "::/0"),
]

PUBLIC = [
    "8.8.8.8",
    "93.184.216.34",
    "100.63.255.255",
    "100.128.0.0",
    "172.32.0.1",
    "192.0.0.9",  # Port Control Protocol anycast: globally reachable
    "192.0.0.10",  # TURN anycast
    "192.31.196.1",  # AS112-v4
    "192.52.193.1",  # AMT
    "192.175.48.1",  # AS112 direct delegation
    "198.20.0.1",
    "223.255.255.255",
    "::ffff:8.8.8.8",  # mapped, NAT64, 6to4 and Teredo carrying a public IPv4 address
    "64:ff9b::8.8.8.8",
    "2002:808:808::1",
    "2001:0:808:808::f7f7:f7f7",
    "2001:1::1",
    "2001:1::2",
    "2001:1::3",
    "2001:3::1",
    "2001:4:112::1",
    "2001:20::1",
    "2001:30::1",
    "2001:4860:4860::8888",
    "2620:4f:8000::1",
    "2606:4700::1111",
]

IPV4_SPELLINGS = [
    # (a spelling, the address inet_aton reads in it)
    ("2130706433", "127.0.0.1"),
    ("0x7f000001", "127.0.0.1"),
    ("0X7F000001", "127.0.0.1"),
    ("017700000001", "127.0.0.1"),
    ("127.1", "127.0.0.1"),
    ("127.0.1", "127.0.0.1"),
    ("0x7f.1", "127.0.0.1"),
    ("0177.0.0.1", "127.0.0.1"),
    ("0177.0x0.00.1", "127.0.0.1"),
    ("127.000.000.001", "127.0.0.1"),
    ("0x00007f000001", "127.0.0.1"),
    ("2852039166", "169.254.169.254"),
    ("0xa9fea9fe", "169.254.169.254"),
    ("0251.0376.0251.0376", "169.254.169.254"),
    ("169.254.43518", "169.254.169.254"),
    ("169.16689662", "169.254.169.254"),
    ("0xa9.0xfe.0xa9.0xfe", "169.254.169.254"),
    ("100.6579400", "100.100.100.200"),
    ("10.1", "10.0.0.1"),
    ("0", "0.0.0.0"),
    ("0xc0a80101", "192.168.1.1"),
]

NOT_ADDRESSES = ["127.0.0.1.", "08.0.0.1", "1.2.3.256", "4294967296", "0x100000000", "0x", "1.2.3.4.5", "1..2", ""]


def test_every_internal_range_of_the_registries_is_in_the_table() -> None:
    ranges = {expected for _, expected in INTERNAL}
    internal_rows = {str(block.network) for block in (*ipv4_blocks(), *ipv6_blocks()) if not block.reachable}
    assert internal_rows <= ranges


@pytest.mark.parametrize(("address", "expected"), INTERNAL)
def test_internal_ranges(address: str, expected: str) -> None:
    block = internal_block(address)
    assert block is not None and str(block.network) == expected
    assert is_internal(f"[{address}]" if ":" in address else address)


@pytest.mark.parametrize("address", PUBLIC)
def test_globally_reachable_addresses(address: str) -> None:
    assert internal_block(address) is None
    assert not is_internal(address)


@pytest.mark.parametrize(("spelling", "address"), IPV4_SPELLINGS)
def test_every_spelling_the_resolver_accepts_is_read_as_it_reads_it(spelling: str, address: str) -> None:
    assert socket.inet_ntoa(socket.inet_aton(spelling)) == address, "the C library's reading"
    assert parse_host(spelling) == IPv4Address(address)
    assert is_internal(spelling)


@pytest.mark.parametrize("spelling", NOT_ADDRESSES)
def test_what_the_resolver_does_not_read_as_an_address_is_a_name(spelling: str) -> None:
    with pytest.raises(OSError):
        socket.inet_aton(spelling)
    assert parse_host(spelling) is None


@pytest.mark.parametrize(
    ("spelling", "address"),
    [
        ("[::1]", "::1"),
        ("0:0:0:0:0:0:0:1", "::1"),
        ("[::FFFF:7F00:1]", "::ffff:127.0.0.1"),
        ("0000:0000:0000:0000:0000:ffff:127.0.0.1", "::ffff:127.0.0.1"),
        ("[fe80::1%25eth0]", "fe80::1"),
        ("fe80::1%eth0", "fe80::1"),
        ("[64:FF9B::A9FE:A9FE]", "64:ff9b::a9fe:a9fe"),
    ],
)
def test_ipv6_spellings(spelling: str, address: str) -> None:
    bare = spelling.strip("[]").partition("%")[0]
    assert ip_address(socket.inet_pton(socket.AF_INET6, bare)) == ip_address(address), "the C library's reading"
    assert parse_host(spelling) == ip_address(address)
    assert is_internal(spelling)


@pytest.mark.parametrize("name", ["localhost", "LOCALHOST.", "api.localhost"])
def test_localhost_names_are_internal(name: str) -> None:
    assert is_internal(name)


@pytest.mark.parametrize("name", ["example.com", "localhost.example.com", "127.0.0.1.nip.io", "0x7f000001.example"])
def test_other_names_are_not_addresses(name: str) -> None:
    assert parse_host(name) is None and not is_internal(name)


def test_a_stand_in_plays_a_public_address_and_nothing_else_changes() -> None:
    rule = AddressRule(frozenset({IPv4Address("127.0.0.7")}))
    assert not rule.is_internal("127.0.0.7") and not rule.is_internal("2130706439")
    assert rule.is_internal("127.0.0.8") and rule.is_internal("localhost")
    assert AddressRule().is_internal("127.0.0.7")
