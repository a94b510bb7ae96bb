"""Signals of the robots middleware, for per-origin reports.

Connect with ``crawler.signals.connect(handler, signal=...)``. Only events
other than "allowed" are signalled, so the allowed hot path stays cheap.
Scrapy's own ``robots_parsed`` signal is also sent when a robots.txt body
has been parsed.
"""

robots_obtained = object()
"""An origin's robots.txt fetch resolved (rules, allow/disallow all, unreachable or dropped).

Arguments: ``origin`` (str, e.g. ``"https://example.com"``) and ``record``
(:class:`scrapy_robots_rep.policy.record_cache.CacheRecord`: the rules in force,
the outcome, the HTTP status, lifetimes).
"""

request_disallowed = object()
"""A request was dropped because robots.txt disallows it.

Arguments: ``request`` and ``decision`` (:class:`scrapy_robots_rep.Decision`:
the group, the deciding rule with its line number, the reason).
"""

request_deferred = object()
"""A request is held until its origin's robots.txt is obtained.

Arguments: ``request`` and ``origin``.
"""

request_dropped_unreachable = object()
"""A request was dropped because its origin's robots.txt stayed unreachable.

Arguments: ``request`` and ``origin``.
"""
