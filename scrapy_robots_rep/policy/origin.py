"""Origins (scheme + lower-cased host, IDN as punycode, + port, default port folded) and exempt hosts."""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import urlsplit

DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_of(url: str) -> str | None:
    """The origin of an http(s) URL, e.g. ``https://xn--bcher-kva.example:8443``.

    ``None`` for other schemes and for URLs without a usable host.
    """
    parts = urlsplit(url)
    return origin_from_parts(parts.scheme.lower(), parts.netloc)


@lru_cache(maxsize=65536)
def origin_from_parts(scheme: str, netloc: str) -> str | None:
    """:func:`origin_of` for an already split URL (lower-case scheme, raw netloc); cached."""
    if scheme not in DEFAULT_PORTS:
        return None
    hostport = netloc.rpartition("@")[2]
    if hostport.startswith("["):
        host, _, rest = hostport[1:].partition("]")
        host = f"[{host.lower()}]"
        port_text = rest[1:] if rest.startswith(":") else ""
    else:
        host, _, port_text = hostport.partition(":")
        host = ascii_host(host)
    if not host or host == "[]":
        return None
    if port_text and not port_text.isdigit():
        return None
    port = int(port_text) if port_text else DEFAULT_PORTS[scheme]
    if port > 65535:
        return None
    if port == DEFAULT_PORTS[scheme]:
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


def ascii_host(host: str) -> str:
    """``host`` lower-cased, without a trailing dot, IDN as punycode; ``""`` if it cannot be encoded."""
    host = host.rstrip(".").lower()
    if host.isascii():
        return host
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        return ""


def is_exempt(host: str, domains: tuple[str, ...]) -> bool:
    """True when ``host`` is one of ``domains`` or a subdomain of one (``REP_EXEMPT_DOMAINS``).

    ``domains`` are normalised as :func:`ascii_host` gives them (the settings do that).
    """
    if not domains:
        return False
    host = ascii_host(host)
    return any(host == domain or host.endswith("." + domain) for domain in domains)


def robots_url(origin: str) -> str:
    """The robots.txt URL of an origin."""
    return f"{origin}/robots.txt"
