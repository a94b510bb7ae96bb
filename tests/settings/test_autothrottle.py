"""AutoThrottle must not undo Crawl-delay: the robots.txt delay is a floor (docs/behaviour.md §7)."""

from __future__ import annotations

import pytest_twisted

from tests.crawling import crawl
from tests.settings.measure import gaps, page_times
from tests.sites import Sites, text

PAGES = 5


@pytest_twisted.ensureDeferred
async def test_autothrottle_never_brings_pages_closer_than_the_crawl_delay(sites: Sites) -> None:
    site = sites.start({"/robots.txt": text("User-agent: *\nCrawl-delay: 1\n")})
    result = await crawl(
        [f"{site.url}/p{index}" for index in range(PAGES)],
        settings={"AUTOTHROTTLE_ENABLED": True, "AUTOTHROTTLE_START_DELAY": 0.2},
    )
    assert len(result.pages) == PAGES
    page_gaps = gaps(page_times(site))
    assert len(page_gaps) == PAGES - 1
    print(f"\ngaps between pages: {', '.join(f'{gap:.2f}' for gap in page_gaps)} s")
    assert min(page_gaps) >= 0.95, [round(gap, 2) for gap in page_gaps]
