"""Fetch/status policy, origins, deferral, cache and settings: pure Python, no Scrapy."""
