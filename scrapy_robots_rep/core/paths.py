"""The string a URL is matched by, and percent-encoding normalisation.

Both sides of a comparison (the URL and the rule's pattern) go through the same
normalisation of their mode, so they compare as plain strings afterwards.
"""

from __future__ import annotations

import re

from scrapy_robots_rep.core.lazy_patterns import compiled_on_use

# All but the hot path's expressions are compiled at first use: plain URLs and rules (no "%", no
# character to escape) never need them.
_PATH_AND_QUERY = compiled_on_use(r"(?:[A-Za-z][A-Za-z0-9+.-]*:)?(?://[^/?#]*)?[^/?#]*([^#]*)")

# Characters both modes' normalisation leave as they are.
_PLAIN_CHARS = r"A-Za-z0-9\-._~!$&'()*+,;=:@/?\[\]"

plain_url_path = re.compile(rf"[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*(/[{_PLAIN_CHARS}%]*)").fullmatch
"""Match the common URL ``scheme://authority/path...`` (no fragment) whose path
and query hold no character either mode's normalisation changes but ``%``;
group 1 is that path and query (``url_path``), to be normalised only when it
holds ``%``. One regular expression instead of ``url_path`` plus a search: the
hot path."""

_NOT_PLAIN = re.compile(rf"[^{_PLAIN_CHARS}]").search
# A run of characters a URI cannot hold as they are (non-ASCII, controls, space, "<"...).
_UNSAFE_RUN = compiled_on_use(rf"[^{_PLAIN_CHARS}%]+")
_LEGACY_ESCAPE = compiled_on_use(rb"%[0-9A-Fa-f]{2}")

# A "%" that is not an escape, an escape with a lower-case hex digit, or the
# escape of an unreserved character: what ``normalise_rfc9309`` changes.
_ESCAPE_TO_CHANGE = compiled_on_use(
    r"%(?![0-9A-Fa-f]{2})|%(?:[0-9A-F][a-f]|[a-f][0-9A-Fa-f]|2[DE]|3[0-9]|4[1-9A-F]|5[0-9AF]|6[1-9A-F]|7[0-9AE])"
)

_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")


def _rfc9309_escape(escape: str) -> str:
    char = chr(int(escape[1:], 16))
    return char if char in _UNRESERVED else escape.upper()


_RFC9309_ESCAPES = {
    f"{high}{low}": _rfc9309_escape(f"%{high}{low}")
    for high in "0123456789ABCDEFabcdef"
    for low in "0123456789ABCDEFabcdef"
}


def url_path(url: str) -> str:
    """Path plus ``?query`` of ``url`` (no fragment); an empty path is ``/``."""
    match = _PATH_AND_QUERY().match(url)
    path = match.group(1) if match else ""
    if not path:
        return "/"
    if path[0] != "/":
        return "/" + path
    return path


def _percent_encoded(match: re.Match[str]) -> str:
    return "".join(f"%{octet:02X}" for octet in match.group().encode("utf-8", "surrogatepass"))


def needs_normalising(text: str) -> bool:
    """Whether ``normalise_rfc9309`` or ``normalise_legacy`` could change ``text``."""
    return _NOT_PLAIN(text) is not None


def normalise_rfc9309(text: str) -> str:
    """RFC 9309 section 2.2.2: percent-encode (as UTF-8) what a URI cannot hold
    as it is, including a lone ``%``; decode escapes of unreserved characters;
    upper-case the hex of all other escapes."""
    if _NOT_PLAIN(text) is None:
        return text
    return normalise_rfc9309_escapes(_UNSAFE_RUN().sub(_percent_encoded, text))


def normalise_rfc9309_escapes(text: str) -> str:
    """``normalise_rfc9309`` of a text whose only characters that it may change are
    ``%`` (such as a path ``plain_url_path`` matched): only the escapes are read."""
    return _ESCAPE_TO_CHANGE().sub(_changed_escape, text) if "%" in text else text


def _changed_escape(match: re.Match[str]) -> str:
    """An escape as ``normalise_rfc9309`` writes it; a lone ``%`` is ``%25``."""
    return _RFC9309_ESCAPES.get(match.group()[1:], "%25")


def _legacy_unescape(match: re.Match[bytes]) -> bytes:
    octet = int(match.group()[1:], 16)
    return b"%2F" if octet == 0x2F else bytes((octet,))


def normalise_legacy(text: str) -> str:
    """The 1996 draft: decode every ``%XX`` except ``%2F``, compare octets.

    The result holds one character per octet (Latin-1), so that a raw ``~`` and
    ``%7E``, or a raw non-ASCII character and its escaped UTF-8, compare equal.
    """
    if text.isascii() and "%" not in text:
        return text
    octets = text.encode("utf-8", "surrogatepass")
    if b"%" in octets:
        octets = _LEGACY_ESCAPE().sub(_legacy_unescape, octets)
    return octets.decode("latin-1")
