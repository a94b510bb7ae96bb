"""Running asyncio code (redis.asyncio) in pytest-twisted tests on the asyncio reactor."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar, cast

import pytest_twisted  # type: ignore[import-untyped]
from twisted.internet.defer import Deferred

_T = TypeVar("_T")


def on_asyncio(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., Deferred[None]]:
    """Run an ``async def`` test that awaits asyncio code on the reactor's event loop.

    pytest-twisted calls the test inside the reactor and waits for the Deferred it returns.
    """

    @functools.wraps(test)
    def wrapper(*args: Any, **kwargs: Any) -> Deferred[None]:
        return Deferred.fromFuture(asyncio.ensure_future(test(*args, **kwargs)))

    return wrapper


def run(coroutine: Coroutine[Any, Any, _T]) -> _T:
    """Run an asyncio coroutine to its end from a fixture (outside the reactor's greenlet)."""
    return cast(_T, pytest_twisted.blockon(Deferred.fromFuture(asyncio.ensure_future(coroutine))))
