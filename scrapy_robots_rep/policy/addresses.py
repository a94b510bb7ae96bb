"""Whether an address is internal: the address rule of ``docs/behaviour.md`` §5.

An address is *internal* when the IANA special-purpose address registries say it is not globally
reachable: the most specific row holding it has "Globally Reachable" False (or blank). The
rows are those of the "IANA IPv4 Special-Purpose Address Registry" and the "IANA IPv6
Special-Purpose Address Registry" (https://www.iana.org/assignments/iana-ipv4-special-registry,
https://www.iana.org/assignments/iana-ipv6-special-registry; the IPv6 registry as updated on
2025-10-09), plus four blocks those registries leave to others, all internal too: IPv4 multicast
224.0.0.0/4 and IPv6 multicast ff00::/8 (the multicast registries), the deprecated site-local
fec0::/10 (RFC 3879), and every IPv6 address outside global unicast 2000::/3 (the IPv6 Address
Space registry: reserved by the IETF).

Addresses that carry an IPv4 address are judged by it: IPv4-mapped ``::ffff:0:0/96`` (the socket
connects to the IPv4 address), NAT64 ``64:ff9b::/96`` (a translator reaches it), and the two rows
whose column reads N/A, the tunnels 6to4 ``2002::/16`` and Teredo ``2001::/32`` (their far end;
for Teredo, both the server and the client address). The local-use NAT64 prefix
``64:ff9b:1::/48`` is internal whatever it holds, as its registry row says.

A host is read as the resolver reads it: an IPv4 address in any spelling ``inet_aton`` accepts
(``2130706433``, ``0x7f000001``, ``127.1``, ``017700000001``, ``0x7f.1``: one to four parts,
each decimal, octal with a leading 0 or hexadecimal with 0x, the last filling the bytes left), or
an IPv6 address with or without brackets and zone. ``localhost`` and names under it (RFC 6761)
are internal; other names are not addresses, the caller resolves them.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network, ip_address

Address = IPv4Address | IPv6Address
"""An IP address of either family."""


@dataclass(frozen=True, slots=True)
class Block:
    """One row of a special-purpose registry: a network, its name and whether it is globally reachable."""

    network: IPv4Network | IPv6Network
    name: str
    reachable: bool = False
    """The registry's "Globally Reachable" column (a blank counts as False)."""

    def __str__(self) -> str:
        return f"{self.network} {self.name}"


Row = tuple[str, str] | tuple[str, str, bool]
"""A registry row as written: the network, its name and, when True, "Globally Reachable"."""


def _blocks(rows: tuple[Row, ...]) -> tuple[Block, ...]:
    """The rows, most specific first, so that the first one holding an address is its row."""
    blocks = [Block(_network(row[0]), row[1], *row[2:]) for row in rows]
    return tuple(sorted(blocks, key=lambda block: -block.network.prefixlen))


def _network(text: str) -> IPv4Network | IPv6Network:
    return IPv4Network(text) if ":" not in text else IPv6Network(text)


IPV4_ROWS: tuple[Row, ...] = (
    ("0.0.0.0/8", '"this network" (RFC 791)'),
    ("10.0.0.0/8", "private-use (RFC 1918)"),
    ("100.64.0.0/10", "shared address space, carrier-grade NAT (RFC 6598)"),
    ("127.0.0.0/8", "loopback (RFC 1122)"),
    ("169.254.0.0/16", "link-local (RFC 3927)"),
    ("172.16.0.0/12", "private-use (RFC 1918)"),
    ("192.0.0.0/24", "IETF protocol assignments (RFC 6890)"),
    ("192.0.0.9/32", "Port Control Protocol anycast (RFC 7723)", True),
    ("192.0.0.10/32", "TURN anycast (RFC 8155)", True),
    ("192.0.2.0/24", "documentation, TEST-NET-1 (RFC 5737)"),
    ("192.31.196.0/24", "AS112-v4 (RFC 7535)", True),
    ("192.52.193.0/24", "AMT (RFC 7450)", True),
    ("192.88.99.0/24", "deprecated 6to4 relay anycast (RFC 7526)"),
    ("192.168.0.0/16", "private-use (RFC 1918)"),
    ("192.175.48.0/24", "AS112 direct delegation (RFC 7534)", True),
    ("198.18.0.0/15", "benchmarking (RFC 2544)"),
    ("198.51.100.0/24", "documentation, TEST-NET-2 (RFC 5737)"),
    ("203.0.113.0/24", "documentation, TEST-NET-3 (RFC 5737)"),
    ("224.0.0.0/4", "multicast (RFC 5771)"),
    ("240.0.0.0/4", "reserved (RFC 1112)"),
    ("255.255.255.255/32", "limited broadcast (RFC 919)"),
)
"""The IPv4 special-purpose registry's rows, and multicast."""

IPV6_ROWS: tuple[Row, ...] = (
    ("::/128", "unspecified (RFC 4291)"),
    ("::1/128", "loopback (RFC 4291)"),
    ("64:ff9b:1::/48", "local-use NAT64 (RFC 8215)"),
    ("100::/64", "discard-only (RFC 6666)"),
    ("100:0:0:1::/64", "dummy prefix (RFC 9780)"),
    ("2001::/23", "IETF protocol assignments (RFC 2928)"),
    ("2001:1::1/128", "Port Control Protocol anycast (RFC 7723)", True),
    ("2001:1::2/128", "TURN anycast (RFC 8155)", True),
    ("2001:1::3/128", "DNS-SD service registration anycast (RFC 9665)", True),
    ("2001:2::/48", "benchmarking (RFC 5180)"),
    ("2001:3::/32", "AMT (RFC 7450)", True),
    ("2001:4:112::/48", "AS112-v6 (RFC 7535)", True),
    ("2001:10::/28", "deprecated ORCHID (RFC 4843)"),
    ("2001:20::/28", "ORCHIDv2 (RFC 7343)", True),
    ("2001:30::/28", "drone remote ID entity tags (RFC 9374)", True),
    ("2001:db8::/32", "documentation (RFC 3849)"),
    ("2620:4f:8000::/48", "AS112 direct delegation (RFC 7534)", True),
    ("3fff::/20", "documentation (RFC 9637)"),
    ("5f00::/16", "SRv6 SIDs (RFC 9602)"),
    ("fc00::/7", "unique local (RFC 4193)"),
    ("fe80::/10", "link-local (RFC 4291)"),
    ("fec0::/10", "deprecated site-local (RFC 3879)"),
    ("ff00::/8", "multicast (RFC 4291)"),
)
"""The IPv6 special-purpose registry's rows (but the four judged by the IPv4 address they carry),
site-local and multicast."""


@functools.cache
def ipv4_blocks() -> tuple[Block, ...]:
    """:data:`IPV4_ROWS` as blocks, most specific first; made on first use, as a crawl whose
    robots.txt files never redirect never judges an address."""
    return _blocks(IPV4_ROWS)


@functools.cache
def ipv6_blocks() -> tuple[Block, ...]:
    """:data:`IPV6_ROWS` as blocks, most specific first; made on first use."""
    return _blocks(IPV6_ROWS)


GLOBAL_UNICAST = IPv6Network("2000::/3")
OUTSIDE_GLOBAL_UNICAST = Block(IPv6Network("::/0"), "outside global unicast 2000::/3, reserved by the IETF (RFC 4291)")
LOCALHOST = Block(IPv4Network("127.0.0.0/8"), "the name localhost (RFC 6761)")

_MAPPED = IPv6Network("::ffff:0:0/96")
_NAT64 = IPv6Network("64:ff9b::/96")
_SIX_TO_FOUR = IPv6Network("2002::/16")
_TEREDO = IPv6Network("2001::/32")
_PART = re.compile(r"0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*")


def parse_host(host: str) -> Address | None:
    """The address ``host`` spells, read as the resolver reads a numeric host; None for a name.

    IPv4 in every form ``inet_aton`` accepts (see the module's docstring); IPv6 as ``inet_pton``
    does, with the URL's brackets and a zone (``%eth0``, ``%25eth0``) allowed.
    """
    text = host.strip().lower()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    if ":" in text:
        try:
            address = ip_address(text.partition("%")[0])
        except ValueError:
            return None
        return address if isinstance(address, IPv6Address) else None
    return _inet_aton(text)


def _inet_aton(text: str) -> IPv4Address | None:
    parts = text.split(".")
    if not 1 <= len(parts) <= 4 or not all(_PART.fullmatch(part) for part in parts):
        return None
    values = [int(part, 16) if part[:2] == "0x" else int(part, 8) if part[0] == "0" else int(part) for part in parts]
    *leading, last = values
    if any(value > 0xFF for value in leading) or last >= 1 << (8 * (4 - len(leading))):
        return None
    number = last
    for index, value in enumerate(leading):
        number |= value << (24 - 8 * index)
    return IPv4Address(number)


def internal_block(host: str) -> Block | None:
    """The registry row that makes ``host`` internal, or None when it is globally reachable or a name.

    ``host`` is an address in any spelling :func:`parse_host` reads, or a host name (of names,
    only ``localhost`` and names under it are internal).
    """
    name = host.strip().lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return LOCALHOST
    address = parse_host(host)
    return None if address is None else address_block(address)


def address_block(address: Address) -> Block | None:
    """The registry row that makes ``address`` internal, or None when it is globally reachable."""
    if isinstance(address, IPv4Address):
        return _row(address, ipv4_blocks())
    embedded = _embedded(address)
    if embedded:
        return next(filter(None, (_row(carried, ipv4_blocks()) for carried in embedded)), None)
    if address not in GLOBAL_UNICAST and _row(address, ipv6_blocks()) is None:
        return OUTSIDE_GLOBAL_UNICAST
    return _row(address, ipv6_blocks())


def _row(address: Address, blocks: tuple[Block, ...]) -> Block | None:
    for block in blocks:
        if address in block.network:
            return None if block.reachable else block
    return None


def _embedded(address: IPv6Address) -> tuple[IPv4Address, ...]:
    """The IPv4 addresses an IPv6 address carries: mapped, NAT64, 6to4, Teredo server and client."""
    number = int(address)
    if address in _MAPPED or address in _NAT64:
        return (IPv4Address(number & 0xFFFFFFFF),)
    if address in _SIX_TO_FOUR:
        return (IPv4Address((number >> 80) & 0xFFFFFFFF),)
    if address in _TEREDO:
        return (IPv4Address((number >> 64) & 0xFFFFFFFF), IPv4Address(~number & 0xFFFFFFFF))
    return ()


def is_internal(host: str) -> bool:
    """Whether ``host`` (an address in any spelling, or a name) is internal: see :func:`internal_block`."""
    return internal_block(host) is not None


@dataclass(frozen=True, slots=True)
class AddressRule:
    """Judges the addresses of a robots.txt fetch and its redirects by :func:`address_block`.

    ``public_stand_ins`` are addresses judged public although they are not: a seam for tests, whose
    servers can only listen on loopback, to let one of them play a public origin. Empty in a crawl.
    """

    public_stand_ins: frozenset[Address] = frozenset()

    def block(self, host: str) -> Block | None:
        """The row that makes ``host`` (an address in any spelling, or a name) internal, or None."""
        address = parse_host(host)
        if address is not None and address in self.public_stand_ins:
            return None
        return internal_block(host)

    def is_internal(self, host: str) -> bool:
        return self.block(host) is not None
