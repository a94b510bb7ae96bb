"""The one table of ``Request.meta`` / ``Response.meta`` keys the package sets or reads.

Each key is a constant here and a row of :data:`META_KEYS` (the key and what it holds), which the
meta-keys table of ``docs/operating.md`` shows exactly (a test keeps them equal). Keys of
Scrapy's own downloader (``download_slot``, ``dont_redirect``, ...) are Scrapy's and not listed,
except ``dont_obey_robotstxt``, the convention this package obeys.
"""

from __future__ import annotations

DONT_OBEY = "dont_obey_robotstxt"
"""Scrapy's convention: a request (or a page fetched) with it true is not checked."""

PAGE_DIRECTIVES = "robots"
"""``response.meta`` key holding the page's ``PageDirectives``."""

PROVENANCE = "robots_provenance"
"""``request.meta`` / ``response.meta`` key of a request's provenance mapping."""

CONTENT_SIGNALS = "rep_content_signals"
"""Where the robots.txt middleware puts the origin's ``Content-Signal`` (a ``{purpose: bool}``
mapping) when it allows a request; folded into the page's directives."""

CONTENT_USAGE = "rep_content_usage"
"""Where the robots.txt middleware puts what the origin's ``Content-Usage`` rules say of the
request's path (``({purpose: bool}, the rules and their lines)``) when it allows a request."""

ROBOTS_FETCH = "rep_robots_fetch"
"""Marks the fetcher's own robots.txt requests (the audit trail tells them from pages)."""

SCHEDULED = "rep_scheduled"
"""Marks requests the scheduler handed out (as opposed to those that bypassed it)."""

RELEASED = "rep_released"
"""Marks parked requests given back to the engine, until they are decided."""

FLEET_SLOT = "rep_fleet_slot"
"""A request holding its origin's fleet-wide download slot: the slot's token."""

REFILTERED = "rep_refiltered"
"""Marks a request that goes into the scheduler again with ``dont_filter`` set only so that the
dupefilter, which saw it once, lets it through: it gets ``dont_filter = False`` back when the
scheduler hands it out, so that what it leads to (a redirect, say) is filtered as usual."""

PARK_ID = "rep_park_id"
"""A request parked in the shared scheduler's Redis: its park id (it makes each parked entry
unique, and a park run again after a lost reply a no-op)."""

META_KEYS: dict[str, str] = {
    DONT_OBEY: "Scrapy's: set it true and the request, and what its page yields, is neither checked nor dropped",
    PAGE_DIRECTIVES: "on each response: its `PageDirectives` (what the page's robots meta tags and "
    "`X-Robots-Tag` headers allow)",
    PROVENANCE: "with `REP_AUDIT_DIR` or `REP_PROVENANCE_FIELD`: the robots.txt evidence behind an allowed "
    "request ([evidence.md](evidence.md))",
    CONTENT_SIGNALS: "on an allowed request: the origin's `Content-Signal`, for the page-level middleware",
    CONTENT_USAGE: "on an allowed request: what `Content-Usage` says of its path, for the page-level middleware",
    ROBOTS_FETCH: "on the package's own robots.txt requests",
    SCHEDULED: "on requests the scheduler handed out",
    RELEASED: "on parked requests given back to the engine, until they are decided",
    FLEET_SLOT: "with `RedisStore`: the token of the fleet-wide download slot a request holds",
    REFILTERED: "on a request sent through the dupefilter once more (parked, or waiting for robots.txt): "
    "its own `dont_filter` is false, and comes back when the scheduler hands it out",
    PARK_ID: "with scrapy-redis: the park id of a request parked in the scheduler's Redis",
}
"""Every meta key, with what it holds, in the order ``docs/operating.md`` lists them."""
