"""One crawler's ``REP_*`` settings: read and validated once, the same object for all its components.

Every component of a crawler receives that crawler's settings object (middlewares through
``crawler.settings``, the HTTP-cache policy as its constructor argument), so the validated
:class:`~scrapy_robots_rep.policy.settings.RepSettings` is kept per settings object.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from scrapy_robots_rep.policy.settings import RepSettings

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

_READ: dict[int, RepSettings] = {}


def rep_settings(settings: BaseSettings) -> RepSettings:
    """The ``REP_*`` settings of the crawler whose settings these are, read once they are final."""
    if not settings.frozen:
        return RepSettings.from_mapping(settings)
    key = id(settings)
    found = _READ.get(key)
    if found is None:
        found = _READ[key] = RepSettings.from_mapping(settings)
        weakref.finalize(settings, _READ.pop, key, None)
    return found
