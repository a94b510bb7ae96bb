"""A crawl in a process of its own, for tests that kill it or run two at once.

``python -m tests.audit.crawl_process [--compress] AUDIT_DIR URL [URL ...]``: requests the URLs
one at a time with the suite's base settings and ``REP_AUDIT_DIR = AUDIT_DIR`` (and
``REP_AUDIT_COMPRESS`` with ``--compress``).
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from typing import Any

from scrapy import Request, Spider

from scrapy_robots_rep.crawl.scrapy_compat import crawler_process
from tests.crawling import BASE_SETTINGS


class ListSpider(Spider):
    name = "list"
    urls: list[str]

    async def start(self) -> AsyncIterator[Request]:
        for url in self.urls:
            yield Request(url, dont_filter=True)

    def parse(self, response: Any) -> Any:
        yield {"url": response.url}


def main(arguments: list[str]) -> None:
    compress = arguments[:1] == ["--compress"]
    directory, *urls = arguments[compress:]
    settings = {
        **BASE_SETTINGS,
        "REP_AUDIT_DIR": directory,
        "REP_AUDIT_COMPRESS": compress,
        "CONCURRENT_REQUESTS": 1,
        "LOG_LEVEL": "INFO",
    }
    process = crawler_process(settings)
    process.crawl(ListSpider, urls=urls)
    process.start()


if __name__ == "__main__":
    main(sys.argv[1:])
