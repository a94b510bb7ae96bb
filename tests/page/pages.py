"""HTML replies for the page-level crawl tests."""

from __future__ import annotations

from tests.sites import Reply, text

ROBOTS = text("User-agent: *\nDisallow: /private\n")
MIDDLEWARE = {"scrapy_robots_rep.page.middleware.PageDirectivesMiddleware": 950}
"""Enables the spider middleware (the add-on will do it in projects)."""


def html(head: str = "", body: str = "", **headers: str) -> Reply:
    """An HTML page; keyword arguments are response headers (``X_Robots_Tag`` is ``X-Robots-Tag``)."""
    page = f"<!DOCTYPE html><html><head><title>t</title>{head}</head><body>{body}</body></html>"
    names = {name.replace("_", "-"): value for name, value in headers.items()}
    return Reply(body=page.encode(), headers={"Content-Type": "text/html; charset=utf-8", **names})


def links(*paths: str, rel: str = "") -> str:
    attribute = f' rel="{rel}"' if rel else ""
    return "".join(f'<a href="{path}"{attribute}>{path}</a>' for path in paths)


def meta(content: str, name: str = "robots") -> str:
    return f'<meta name="{name}" content="{content}">'
