"""The package's one compiled part, optional: a faster search for ``<meta`` tags in HTML pages.

Everything else is configured in setup.cfg and pyproject.toml. Without a C compiler the build
skips the extension and the package uses the same search written in Python.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "scrapy_robots_rep.core.page._tag_search",
            ["scrapy_robots_rep/core/page/_tag_search.c"],
            optional=True,
        )
    ]
)
