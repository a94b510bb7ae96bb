"""Scrapy commands added by scrapy_robots_rep (declared in the ``scrapy.commands`` entry point group)."""
