"""Robots Exclusion Protocol for Scrapy, with its own parser.

The core parsers (``RobotsTxt``, ``PageDirectives``) need no Scrapy; the Scrapy-facing
names (and ``RedisStore``, which needs the ``redis`` client) are imported on first use so
that ``from scrapy_robots_rep import RobotsTxt`` works in a process without them.

Names and module paths of earlier releases still work for one more release, with a
``DeprecationWarning`` (CHANGELOG.md, "Deprecated"): the old modules are not files at the package
root, they are entries of ``sys.modules`` whose attributes lead to the new places.
"""

from __future__ import annotations

import sys
import warnings
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any

from scrapy_robots_rep.core import AgentRules, RobotsTxt
from scrapy_robots_rep.core.page import PageDirectives
from scrapy_robots_rep.crawl.scrapy_compat import installed_scrapy, unsupported_message

if TYPE_CHECKING:
    from scrapy_robots_rep.addon import Addon
    from scrapy_robots_rep.audit import AuditDirectory
    from scrapy_robots_rep.core.changes import RulesChange
    from scrapy_robots_rep.core.decision import Decision, Rule
    from scrapy_robots_rep.core.extension_field import ExtensionField
    from scrapy_robots_rep.crawl.outcomes import OutcomeSink
    from scrapy_robots_rep.downloader.middleware import RobotsMiddleware
    from scrapy_robots_rep.downloader.signing import SigningMiddleware
    from scrapy_robots_rep.exceptions import RobotsDisallowed, RobotsUnreachable
    from scrapy_robots_rep.page.cache_policy import RobotsCachePolicy
    from scrapy_robots_rep.page.middleware import PageDirectivesMiddleware
    from scrapy_robots_rep.robotparser import RepRobotParser
    from scrapy_robots_rep.spiders import RobotsSitemapSpider
    from scrapy_robots_rep.stores import MemoryStore, RedisStore, SharedStore

__version__ = "0.1.0"

__all__ = [
    "Addon",
    "AgentRules",
    "AuditDirectory",
    "Decision",
    "ExtensionField",
    "MemoryStore",
    "OutcomeSink",
    "PageDirectives",
    "PageDirectivesMiddleware",
    "RedisStore",
    "RepRobotParser",
    "RobotsCachePolicy",
    "RobotsDisallowed",
    "RobotsMiddleware",
    "RobotsSitemapSpider",
    "RobotsTxt",
    "RobotsUnreachable",
    "Rule",
    "RulesChange",
    "SharedStore",
    "SigningMiddleware",
]

_LAZY_NAMES = {
    "Addon": "scrapy_robots_rep.addon",
    "AuditDirectory": "scrapy_robots_rep.audit",
    "RulesChange": "scrapy_robots_rep.core.changes",
    "MemoryStore": "scrapy_robots_rep.stores",
    "OutcomeSink": "scrapy_robots_rep.crawl.outcomes",
    "PageDirectivesMiddleware": "scrapy_robots_rep.page.middleware",
    "RedisStore": "scrapy_robots_rep.stores",
    "RepRobotParser": "scrapy_robots_rep.robotparser",
    "RobotsCachePolicy": "scrapy_robots_rep.page.cache_policy",
    "RobotsDisallowed": "scrapy_robots_rep.exceptions",
    "RobotsMiddleware": "scrapy_robots_rep.downloader.middleware",
    "RobotsSitemapSpider": "scrapy_robots_rep.spiders",
    "RobotsUnreachable": "scrapy_robots_rep.exceptions",
    "SharedStore": "scrapy_robots_rep.stores",
    "SigningMiddleware": "scrapy_robots_rep.downloader.signing",
}


_CORE_ON_FIRST_USE = frozenset({"Decision", "Rule", "ExtensionField"})
"""Core names (no Scrapy needed) a crawl makes only to explain a refusal or with ``REP_EXTENSION_FIELDS``:
``scrapy_robots_rep.core`` imports their modules on first use."""

_RENAMED = {"RedisCache": "RedisStore"}
"""Old public name -> the name that replaced it (both at the package root)."""

_MOVED_MODULES: dict[str, dict[str, str] | str] = {
    "scrapy_robots_rep.middleware": {"RobotsMiddleware": "scrapy_robots_rep.downloader.middleware"},
    "scrapy_robots_rep.page_middleware": {"PageDirectivesMiddleware": "scrapy_robots_rep.page.middleware"},
    "scrapy_robots_rep.cache_policy": {"RobotsCachePolicy": "scrapy_robots_rep.page.cache_policy"},
    "scrapy_robots_rep.redis_cache": {"RedisCache": "scrapy_robots_rep.stores.redis"},
    "scrapy_robots_rep.downloader.scrapy_compat": "scrapy_robots_rep.crawl.scrapy_compat",
    "scrapy_robots_rep.crawl.report": "scrapy_robots_rep.downloader.report",
}
"""Old module path -> the names users wrote from it (in settings) and the module each lives in now,
or the one module all of its names moved to."""

_SCRAPY_PROBLEM = unsupported_message(installed_scrapy())
if _SCRAPY_PROBLEM is not None:
    warnings.warn(_SCRAPY_PROBLEM, RuntimeWarning, stacklevel=1)


def __getattr__(name: str) -> Any:
    if name in _RENAMED:
        new_name = _RENAMED[name]
        _warn_deprecated(f"scrapy_robots_rep.{name}", f"scrapy_robots_rep.{new_name}")
        name = new_name
    if name in _CORE_ON_FIRST_USE:
        return getattr(import_module("scrapy_robots_rep.core"), name)
    module_name = _LAZY_NAMES.get(name)
    if module_name is None:
        raise AttributeError(f"module 'scrapy_robots_rep' has no attribute {name!r}")
    if _SCRAPY_PROBLEM is not None:
        raise ImportError(_SCRAPY_PROBLEM)
    return getattr(import_module(module_name), name)


def _warn_deprecated(old: str, new: str) -> None:
    warnings.warn(
        f"{old} is deprecated and will be removed in the next release; use {new}",
        DeprecationWarning,
        stacklevel=3,
    )


def _moved_module(old_path: str, names: dict[str, str] | str) -> ModuleType:
    """A stand-in for a module that moved: each of its names warns and comes from the new place."""
    module = ModuleType(old_path, f"Deprecated: moved; see {__name__}.__doc__")

    def moved_name(name: str) -> Any:
        if name.startswith("__"):  # the import system's questions (__path__, ...): a plain module
            raise AttributeError(name)
        if isinstance(names, str):
            _warn_deprecated(f"{old_path}.{name}", f"{names}.{name}")
            return getattr(import_module(names), name)
        new_module = names.get(name)
        if new_module is None:
            raise AttributeError(f"module {old_path!r} has no attribute {name!r}")
        new_name = _RENAMED.get(name, name)
        _warn_deprecated(f"{old_path}.{name}", f"scrapy_robots_rep.{new_name}")
        return getattr(import_module(new_module), new_name)

    module.__getattr__ = moved_name  # type: ignore[method-assign]
    return module


sys.modules.update(
    {path: _moved_module(path, names) for path, names in _MOVED_MODULES.items() if path not in sys.modules}
)
