"""Hardening tests: hostile robots.txt files, hostile servers, nothing lost (issue 6)."""
