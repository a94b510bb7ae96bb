"""Reducing a configured user agent, and a group's user-agent value, to what is compared.

The configured agent is often a full ``User-Agent`` header (``mybot/1.0
(+https://example.com/bot)``); RFC 9309 matches groups by the product token
only (docs/behaviour.md §3, §7).
"""

from __future__ import annotations

import re

_PRODUCT_TOKEN = re.compile(r"[^/\s]*")
_VALUE_TOKEN = re.compile(r"[A-Za-z_-]*")
_NOT_TOKEN_CHARS = re.compile(r"[^A-Za-z_-]")


def product_token(user_agent: str) -> str:
    """The leading product token of ``user_agent``: ``mybot/1.0 (+https://x)`` gives ``mybot``."""
    match = _PRODUCT_TOKEN.match(user_agent.strip())
    return match.group() if match else ""


def value_token(value: str) -> str:
    """The lower-cased leading run of ``A-Z a-z _ -`` of a group's user-agent
    value: what ``rfc9309`` matching compares (``mybot/1.2`` and ``mybot*`` are ``mybot``)."""
    match = _VALUE_TOKEN.match(value)
    return match.group().lower() if match else ""


def token_problem(token: str) -> str | None:
    """Why groups naming ``token`` can never match it in ``rfc9309`` matching, or None."""
    if not token:
        return "the agent's product token is empty: configure the robot's name first, e.g. 'mybot/1.0'"
    bad = sorted(set(_NOT_TOKEN_CHARS.findall(token)))
    if not bad:
        return None
    match = _VALUE_TOKEN.match(token)
    read_as = match.group() if match else ""
    return (
        f"the product token {token!r} has characters outside A-Z, a-z, '_' and '-' ({''.join(bad)!r}); "
        f"a robots.txt group naming it is read as {read_as!r}, so it can never match this agent"
    )
