"""Pure decisions and state, no Scrapy: settings, origins, status policies, freshness, records,
deferral, the record cache, accounting and reports."""
