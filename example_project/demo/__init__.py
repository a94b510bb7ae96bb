"""The example Scrapy project: a demo spider crawling an embedded demo site with scrapy_robots_rep."""
