"""The page-level half of the protocol in Scrapy: the spider middleware and the HTTP-cache policy.

The Scrapy layer over :mod:`scrapy_robots_rep.core.page`, which reads what a page says
(the same idea, as pure parsing): :mod:`.middleware` applies it to what callbacks yield,
:mod:`.cache_policy` keeps ``noarchive`` pages out of Scrapy's HTTP cache.
"""
