"""``python -m scrapy_robots_rep``: the command-line tool (see :mod:`scrapy_robots_rep.cli`)."""

from scrapy_robots_rep.cli import main

raise SystemExit(main())
