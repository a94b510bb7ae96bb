"""The audit trail (``docs/evidence.md``): what robots.txt and each page said, kept as files.

Plain Python, no Scrapy import: :class:`AuditTrail` writes one process's files into an audit
directory, :class:`AuditDirectory` reads a whole directory back (a fleet's processes' files as
one) for ``scrapy-robots audit``.
"""

from scrapy_robots_rep.audit.reader import AuditDirectory, Finding
from scrapy_robots_rep.audit.trail import AuditTrail

__all__ = ["AuditDirectory", "AuditTrail", "Finding"]
