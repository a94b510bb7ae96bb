"""The robots.txt downloader middleware and the parts only it uses.

:mod:`.middleware` is the wiring; :mod:`.fetch_tasks` obtains each origin's robots.txt once
(through :mod:`.fetcher`), :mod:`.parking` holds requests that wait for it, :mod:`.saved` keeps
them across a ``JOBDIR`` pause, :mod:`.slot_delays` turns Crawl-delay into a download-slot
floor, :mod:`.concurrency` keeps waiting work off the page downloads' capacity, and
:mod:`.startup` checks the set-up and says what is in use.
"""
