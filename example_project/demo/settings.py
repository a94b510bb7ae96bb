"""Settings of the example project: Scrapy with scrapy_robots_rep obeying robots.txt."""

BOT_NAME = "demo"
SPIDER_MODULES = ["demo.spiders"]
NEWSPIDER_MODULE = "demo.spiders"

# The robot's name, sent as the User-Agent header of every request, robots.txt included.
USER_AGENT = "demobot/1.0 (+https://github.com/scrapy-robots-rep/example)"

# The whole set-up: the add-on enables scrapy_robots_rep and keeps Scrapy's own robots.txt
# middleware from running, so the ROBOTSTXT_OBEY = True that `scrapy startproject` writes can stay.
ADDONS = {"scrapy_robots_rep.Addon": 0}
ROBOTSTXT_OBEY = True

# The agent matched against User-agent lines (default: ROBOTSTXT_USER_AGENT, else USER_AGENT;
# in rfc9309 matching it is reduced to its product token, "demobot").
REP_USER_AGENT = "demobot"
# How rules are matched: "rfc9309" (longest match wins, '*' and '$' are wildcards) or "legacy"
# (the 1996 draft: the first matching prefix wins, no wildcards).
REP_MATCHING = "rfc9309"
# What robots.txt's HTTP status means: "rfc9309" (401/403: allow all; 5xx: unreachable, retry)
# or "legacy" (401/403: the site is closed to robots; 5xx: defer, retry).
REP_STATUS_POLICY = "rfc9309"
# Give up on a robots.txt answer after this many seconds (default 30).
REP_FETCH_TIMEOUT = 10
# Drop an origin's requests if its robots.txt stays unreachable this long (default 600 s).
REP_DEFER_MAX_TIME = 60
# Obey Crawl-delay / Request-rate, but never wait more than this many seconds per request.
REP_CRAWL_DELAY = True
REP_CRAWL_DELAY_MAX = 5

# Page-level directives (the add-on enables them): items of noindex pages are dropped ("keep" keeps
# them; pipelines can read response.meta["robots"]), and links marked rel="nofollow" are not followed.
REP_PAGE_NOINDEX = "drop"
REP_PAGE_REL_NOFOLLOW = True
# The crawl's data is given to models as input: robots.txt Content-Usage (or Content-Signal) that
# refuses it keeps a page from being fetched, a page's own Content-Usage header drops its item.
REP_PURPOSES = ["ai-use"]

# Keep the evidence (docs/evidence.md): each robots.txt as received, each fetch, each decision and
# what each page said, as files in audit/; `scrapy-robots audit audit URL`, run in this folder,
# answers for one URL (the demo prints the command with absolute paths, to run from anywhere).
REP_AUDIT_DIR = "audit"
# ... and, at the end of the crawl, all of it as one HTML page to open in a browser (a name ending
# in .json would write the JSON report instead); `scrapy-robots audit report` writes it any time.
REP_REPORT = "report.html"

# Quiet logs, so that the report printed at the end stands out; DEBUG logs every decision.
LOG_LEVEL = "WARNING"
TELNETCONSOLE_ENABLED = False
DOWNLOAD_TIMEOUT = 10
