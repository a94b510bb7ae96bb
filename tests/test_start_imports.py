"""A crawl process loads the package's optional parts only when its settings ask for them
(docs/performance.md, "Process start"): every module a short-lived worker imports is paid at each
start. Real ``scrapy crawl`` runs of a startproject project with the add-on; an extension of the
test lists ``sys.modules`` as the process exits."""

from __future__ import annotations

import json
from pathlib import Path

from tests.page.pages import html, links, meta
from tests.project import Project
from tests.sites import Sites, text

OPTIONAL = (
    "scrapy_robots_rep.audit",
    "scrapy_robots_rep.crawl.evidence",
    "scrapy_robots_rep.signing",
    "scrapy_robots_rep.stores.redis",
    "scrapy_robots_rep.cli",
    "scrapy_robots_rep.policy.addresses",
    "scrapy_robots_rep.core.plain_data",
    "scrapy_robots_rep.core.changes",
    "scrapy_robots_rep.core.decision",
    "scrapy_robots_rep.core.content_usage",
    "scrapy_robots_rep.core.lint",
    "scrapy_robots_rep.core.rule_extras",
    "scrapy_robots_rep.core.extension_field",
    "scrapy_robots_rep.core.usage_preferences",
    "scrapy_robots_rep.crawl.page_dropped",
    "scrapy_robots_rep.policy.refusal",
    "scrapy_robots_rep.policy.failure_plan",
    "scrapy_robots_rep.downloader.fleet_pacing",
    "redis",
    "jinja2",
)
"""Modules (and their submodules) a crawl needs only for the audit trail, provenance, the HTML
report, request signing, the Redis store (and its fleet-wide Crawl-delay), the command line, a
robots.txt redirect (the address rule), rules kept outside the process (their plain data), a
refresh's change of rules, robots.txt ``Content-Usage`` rules, a refused request (the ``Decision``
that ``RobotsDisallowed`` carries), a robots.txt that is not plainly one (the lint's file-wide
warnings), a failed robots.txt fetch (its plan), rules with what few origins' have (a 404's
reason, Content-Signal, licenses, extension fields), ``REP_EXTENSION_FIELDS``, an AIPREF statement (its readers), a request
dropped by a page's directives (what the sinks are told) or a refusal in the end report."""

PROBE = '''
import atexit
import json
import sys


class ModulesProbe:
    """Writes the names of the modules the process imported, as it exits (after the crawl's close)."""

    @classmethod
    def from_crawler(cls, crawler):
        path = crawler.settings["MODULES_PROBE_FILE"]
        atexit.register(lambda: open(path, "w").write(json.dumps(sorted(sys.modules))))
        return cls()
'''


def crawled_modules(sites: Sites, tmp_path: Path, *settings: str, refusing: bool = True) -> set[str]:
    """The modules of a crawl process of the add-on (with ``settings``) over a robots.txt and two pages;
    if ``refusing``, the first page links to a disallowed path too and the second, ``nofollow``, links
    back (a request its directives drop)."""
    site = sites.start(
        {
            "/robots.txt": text("User-agent: *\nDisallow: /private\n"),
            "/": html(meta("noarchive"), links("/page", "/private/x") if refusing else links("/page")),
            "/page": html(meta("nofollow"), links("/")) if refusing else html(meta("nofollow")),
        }
    )
    (tmp_path / "probe").mkdir()
    (tmp_path / "probe" / "modules_probe.py").write_text(PROBE)
    listed = tmp_path / "modules.json"
    project = Project(tmp_path / "project", items=True)
    project.python_path.append(str(tmp_path / "probe"))
    project.add_settings(
        'EXTENSIONS = {"modules_probe.ModulesProbe": 0}', f"MODULES_PROBE_FILE = {str(listed)!r}", *settings
    )

    completed = project.crawl(f"{site.url}/")

    assert completed.returncode == 0, completed.stderr
    assert sorted(site.paths()) == ["/", "/page", "/robots.txt"], completed.stderr
    return set(json.loads(listed.read_text()))


def optional_parts(modules: set[str]) -> list[str]:
    return sorted(name for name in modules if any(name == part or name.startswith(part + ".") for part in OPTIONAL))


def test_a_crawl_without_audit_signing_or_redis_settings_loads_none_of_them(sites: Sites, tmp_path: Path) -> None:
    modules = crawled_modules(sites, tmp_path, refusing=False)

    assert "scrapy_robots_rep.downloader.middleware" in modules
    assert "scrapy_robots_rep.page.middleware" in modules
    assert optional_parts(modules) == [], optional_parts(modules)


def test_a_refused_request_and_a_dropped_link_load_their_classes_and_no_other_optional_part(
    sites: Sites, tmp_path: Path
) -> None:
    modules = crawled_modules(sites, tmp_path)

    assert optional_parts(modules) == [
        "scrapy_robots_rep.core.decision",
        "scrapy_robots_rep.crawl.page_dropped",
        "scrapy_robots_rep.policy.refusal",
    ], optional_parts(modules)


def test_a_crawl_whose_settings_ask_for_the_audit_trail_loads_it(sites: Sites, tmp_path: Path) -> None:
    modules = crawled_modules(sites, tmp_path, 'REP_AUDIT_DIR = "audit"', 'REP_REPORT = "report.html"')

    assert {
        "scrapy_robots_rep.audit.trail",
        "scrapy_robots_rep.audit.html",
        "scrapy_robots_rep.crawl.evidence",
    } <= set(optional_parts(modules))
    assert "scrapy_robots_rep.stores.redis" not in modules
