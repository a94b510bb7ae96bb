"""One crawler's ``REP_*`` settings, read and validated once: :func:`rep_settings`.

It lives in :mod:`scrapy_robots_rep.policy.settings` (it reads only the settings object's
``frozen`` flag, so the stores can use it without the Scrapy side); the Scrapy components import
it from here.
"""

from __future__ import annotations

from scrapy_robots_rep.policy.settings import rep_settings

__all__ = ["rep_settings"]
