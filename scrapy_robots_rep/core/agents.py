"""Reading a configured user agent as a person means it, and reducing a group's value.

The configured agent is often a full ``User-Agent`` header. ``mybot/1.0 (+https://example.com/bot)``
names the robot ``mybot`` by its leading product token; a browser-compatible header such as
``Mozilla/5.0 (compatible; mybot/2.1; +https://example.com/bot)`` names it inside its
``(compatible; ...)`` comment, never by the browser token in front. :func:`read_agent` is the one
place that reading is done (docs/behaviour.md §3, §7).
"""

from __future__ import annotations

import re
from enum import Enum
from functools import lru_cache
from typing import NamedTuple

_PRODUCT_TOKEN = re.compile(r"[^/\s]*")
_VALUE_TOKEN = re.compile(r"[A-Za-z_-]*")
_NOT_TOKEN_CHARS = re.compile(r"[^A-Za-z_-]")
_COMMENT = re.compile(r"\(([^()]*)\)")
_PRODUCT = re.compile(r"[^\s/;()]+(?:/[^\s;()]*)?")
_BROWSER_TOKENS = frozenset({"mozilla"})
"""Leading product tokens of browsers' headers, which name no robot."""


class Reading(Enum):
    """How the robot was told from the configured agent."""

    LEADING = "its leading product token"
    COMPATIBLE = "the robot named in its '(compatible; ...)' comment"
    BROWSER = "a browser's token: no robot named"


class Robot(NamedTuple):
    """The robot a configured agent names."""

    token: str
    """Its product token, what ``rfc9309`` matching and page-level names compare: ``mybot``."""
    name: str
    """What ``legacy`` matching searches record values in: the whole configured agent, or for a
    browser-compatible header the robot's product (``mybot/2.1``)."""
    reading: Reading

    @property
    def problem(self) -> str | None:
        """Why this reading is likely not what the user meant, or None."""
        if self.reading is not Reading.BROWSER:
            return None
        return (
            f"the agent is a browser's User-Agent naming no robot, so it is read as {self.token!r}; "
            "set REP_USER_AGENT to the robot's name, e.g. 'mybot'"
        )


@lru_cache(maxsize=64)
def read_agent(configured: str) -> Robot:
    """The robot ``configured`` names: ``mybot/1.0 (+https://x)`` and
    ``Mozilla/5.0 (compatible; mybot/2.1; +https://x)`` are both ``mybot``."""
    text = configured.strip()
    leading = product_token(text)
    if leading.lower() not in _BROWSER_TOKENS:
        return Robot(leading, text, Reading.LEADING)
    for comment in _COMMENT.findall(text):
        items = [item.strip() for item in comment.split(";")]
        for position, item in enumerate(items[:-1]):
            if item.lower() == "compatible" and _PRODUCT.fullmatch(items[position + 1]):
                product = items[position + 1]
                return Robot(product_token(product), product, Reading.COMPATIBLE)
    return Robot(leading, text, Reading.BROWSER)


def robot_token(configured: str) -> str:
    """The product token of the robot ``configured`` names (see :func:`read_agent`)."""
    return read_agent(configured).token


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
