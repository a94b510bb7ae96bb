"""``python -m scrapy_robots_rep``: the command-line tool."""

from scrapy_robots_rep.cli import main

raise SystemExit(main())
