"""Hostile User-Agent values reaching ``RepRobotParser`` from requests (Scrapy's RobotParser interface).

Scrapy's own ``RobotsTxtMiddleware`` passes each request's ``User-Agent`` header, whatever it is,
to the parser; an agent with no usable name must be answered like any unknown agent (the ``*``
group), not raise out of the middleware.
"""

from __future__ import annotations

import pytest

from scrapy_robots_rep.core import RobotsTxt
from scrapy_robots_rep.robotparser import RepRobotParser

BODY = b"User-agent: *\nDisallow: /star-only\n\nUser-agent: mybot\nDisallow: /mybot-only\n"


@pytest.mark.parametrize("matching", ["rfc9309", "legacy"])
@pytest.mark.parametrize("user_agent", [b"", b"   ", b"/1.0", b"\t", "", "/", b"\xff\xfe", b"(compatible)"], ids=repr)
def test_agents_without_a_usable_name_get_the_star_group(matching: str, user_agent: str | bytes) -> None:
    parser = RepRobotParser(RobotsTxt.parse(BODY, matching))
    assert not parser.allowed("http://example.com/star-only", user_agent)
    assert parser.allowed("http://example.com/mybot-only", user_agent)
    assert parser.crawl_delay(user_agent) is None
