"""Waiting for an event a test cannot be told of: poll a condition until it holds, up to a deadline."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


def wait_until(condition: Callable[[], object], timeout: float, what: str) -> None:
    """Poll ``condition`` until it is true; fail naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.05)


async def until(condition: Callable[[], object], what: str, timeout: float = 30.0) -> None:
    """``wait_until`` for a test running on the event loop: polls without blocking the loop."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        await asyncio.sleep(0.05)
