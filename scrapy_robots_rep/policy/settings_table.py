"""The one table of ``REP_*`` settings: one keyword row per setting.

A row says what the setting is called, its default, how its value is read
(:mod:`~scrapy_robots_rep.policy.settings_reader`), the default and the line shown in the settings
table of ``docs/behaviour.md`` (a test keeps them equal), and the section that explains it. A row
with ``fallbacks`` takes, when it is not set itself, the first of those other settings that holds
a non-blank string (the agent: ``ROBOTSTXT_USER_AGENT``, else ``USER_AGENT``). Its field in
:class:`~scrapy_robots_rep.policy.settings.RepSettings` is the name without ``REP_``, lower-cased,
unless the row says otherwise. Adding a setting is one row here plus its field there.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from scrapy_robots_rep.core.modes import MATCHING_MODES
from scrapy_robots_rep.policy.settings_reader import (
    Read,
    boolean,
    choice,
    domains,
    extension_fields,
    integer,
    number,
    objects,
    optional_path,
    optional_text,
    options_else,
    purposes,
    text,
    text_unless_empty,
)
from scrapy_robots_rep.policy.status import STATUS_POLICIES

PREFIX = "REP_"
_DAY = 86400.0
NOINDEX_CHOICES = ("drop", "keep")
DEFAULT_HTTPCACHE_POLICY = "scrapy.extensions.httpcache.DummyPolicy"


class Setting(NamedTuple):
    """One ``REP_*`` setting: how it is read, where it goes in ``RepSettings``, and its doc line (a row
    of :data:`SETTINGS`)."""

    name: str
    default: Any
    read: Read
    shown_default: str
    doc: str
    section: str
    fallbacks: tuple[str, ...] = ()
    """Settings read in order when this one is not set: the first holding a non-blank string wins."""
    field: str = ""
    """The ``RepSettings`` field; a row leaves it out for the name without ``REP_``, lower-cased
    (:data:`SETTINGS` fills it in)."""

    @property
    def names(self) -> tuple[str, ...]:
        """Where the value may come from, in order: this setting, then its fallbacks."""
        return (self.name, *self.fallbacks)


_ROWS = (
    Setting(
        name="REP_ENABLED",
        default=True,
        read=boolean,
        shown_default="`True`",
        doc="`False` turns the robots.txt middleware off",
        section="7",
    ),
    Setting(
        name="REP_MATCHING",
        default="rfc9309",
        read=choice(MATCHING_MODES),
        shown_default='`"rfc9309"`',
        doc='how rules are read and matched: `"rfc9309"` or `"legacy"`',
        section="1-4",
    ),
    Setting(
        name="REP_STATUS_POLICY",
        default="rfc9309",
        read=choice(STATUS_POLICIES),
        shown_default='`"rfc9309"`',
        doc='what robots.txt\'s HTTP status means: `"rfc9309"` or `"legacy"`',
        section="5",
    ),
    Setting(
        name="REP_USER_AGENT",
        default="Scrapy",
        read=text,
        fallbacks=("ROBOTSTXT_USER_AGENT", "USER_AGENT"),
        shown_default="`ROBOTSTXT_USER_AGENT`, else `USER_AGENT`",
        doc="the agent compared with `User-agent` lines",
        section="7",
    ),
    Setting(
        name="REP_FROM",
        field="from_header",
        default=None,
        read=optional_text,
        shown_default="none",
        doc="sent as the `From` header of robots.txt requests",
        section="5",
    ),
    Setting(
        name="REP_MAX_SIZE",
        default=512_000,
        read=integer(1),
        shown_default="`512000` (500 KiB)",
        doc="bytes of robots.txt read; the rest is ignored",
        section="2",
    ),
    Setting(
        name="REP_MAX_REDIRECTS",
        default=5,
        read=integer(0),
        shown_default="`5`",
        doc="redirect hops followed for robots.txt",
        section="5",
    ),
    Setting(
        name="REP_FETCH_TIMEOUT",
        default=30.0,
        read=number(0, above=True),
        shown_default="`30` s",
        doc="time a robots.txt fetch may take",
        section="5",
    ),
    Setting(
        name="REP_UNREACHABLE_MAX_AGE",
        default=30 * _DAY,
        read=number(0),
        shown_default="`2592000` (30 days)",
        doc="how long an origin may stay unreachable before the 30-day rule applies",
        section="5",
    ),
    Setting(
        name="REP_DEFER_MAX_TIME",
        default=600.0,
        read=number(0),
        shown_default="`600` s",
        doc="how long requests wait for an unreachable robots.txt before they are dropped",
        section="5",
    ),
    Setting(
        name="REP_CACHE_TTL",
        default=_DAY,
        read=number(0),
        shown_default="`86400` (1 day)",
        doc="lifetime of an origin's rules without freshness headers",
        section="6",
    ),
    Setting(
        name="REP_CACHE_HONOR_HEADERS",
        default=True,
        read=boolean,
        shown_default="`True`",
        doc="let the response's HTTP freshness set the lifetime",
        section="6",
    ),
    Setting(
        name="REP_CACHE_TTL_MIN",
        default=60.0,
        read=number(0),
        shown_default="`60` s",
        doc="shortest lifetime freshness headers may set",
        section="6",
    ),
    Setting(
        name="REP_CACHE_TTL_MAX",
        default=7 * _DAY,
        read=number(0),
        shown_default="`604800` (7 days)",
        doc="longest lifetime freshness headers may set",
        section="6",
    ),
    Setting(
        name="REP_CACHE_MAX_ORIGINS",
        default=100_000,
        read=integer(1),
        shown_default="`100000`",
        doc="origins kept in memory, least recently used evicted",
        section="6",
    ),
    Setting(
        name="REP_CACHE_BACKEND",
        default=None,
        read=optional_text,
        shown_default="none (memory only)",
        doc='a shared store for a fleet of processes: `"scrapy_robots_rep.RedisStore"`',
        section="6",
    ),
    Setting(
        name="REP_REDIS_URL",
        default="redis://localhost:6379/0",
        read=text_unless_empty,
        fallbacks=("REDIS_URL",),
        shown_default="scrapy-redis's `REDIS_URL`, else `redis://localhost:6379/0`",
        doc="the Redis server of `RedisStore`",
        section="6",
    ),
    Setting(
        name="REP_REDIS_PARAMS",
        default={},
        read=options_else("REDIS_PARAMS"),
        shown_default="scrapy-redis's `REDIS_PARAMS`, else none",
        doc="options of `RedisStore`'s redis-py client (TLS certificates, username, password...)",
        section="6",
    ),
    Setting(
        name="REP_REDIS_PREFIX",
        default="rep:",
        read=text,
        shown_default='`"rep:"`',
        doc="prefix of every key `RedisStore` writes",
        section="6",
    ),
    Setting(
        name="REP_REDIS_LOCK_TIMEOUT",
        default=10.0,
        read=number(0, above=True),
        shown_default="`10` s",
        doc="how long a fleet's fetch lock, and the lease of requests parked in Redis, last without renewal",
        section="6",
    ),
    Setting(
        name="REP_REDIS_TIMEOUT",
        default=1.0,
        read=number(0, above=True),
        shown_default="`1` s",
        doc="how long a Redis command may take before Redis counts as away",
        section="6",
    ),
    Setting(
        name="REP_CRAWL_DELAY",
        default=True,
        read=boolean,
        shown_default="`True`",
        doc="obey `Crawl-delay` and `Request-rate`",
        section="7",
    ),
    Setting(
        name="REP_CRAWL_DELAY_MAX",
        default=60.0,
        read=number(0),
        shown_default="`60` s",
        doc="longest delay a robots.txt may impose",
        section="7",
    ),
    Setting(
        name="REP_EXEMPT_DOMAINS",
        default=(),
        read=domains,
        shown_default="empty",
        doc="domains (and their subdomains) never checked",
        section="7",
    ),
    Setting(
        name="REP_PAGE_DIRECTIVES",
        default=True,
        read=boolean,
        shown_default="`True`",
        doc="obey page-level directives (with the add-on, or the spider middleware enabled)",
        section="10",
    ),
    Setting(
        name="REP_PAGE_NOINDEX",
        default="drop",
        read=choice(NOINDEX_CHOICES),
        shown_default='`"drop"`',
        doc='items of a `noindex` page: `"drop"` or `"keep"`',
        section="10",
    ),
    Setting(
        name="REP_PAGE_REL_NOFOLLOW",
        default=False,
        read=boolean,
        shown_default="`False`",
        doc='also drop requests for links marked `rel="nofollow"`',
        section="10",
    ),
    Setting(
        name="REP_PURPOSES",
        default=(),
        read=purposes,
        shown_default="empty",
        doc="what the crawl's data is used for: `search`, `ai-input` (= `ai-use`), `ai-train` (= `train-ai`)",
        section="10",
    ),
    Setting(
        name="REP_EXTENSION_FIELDS",
        default=(),
        read=extension_fields,
        shown_default="empty",
        doc="robots.txt fields the parser does not define whose values the agent's rules keep "
        "(`AgentRules.extension`): names, kept per group, or `ExtensionField` objects",
        section="2",
    ),
    Setting(
        name="REP_HTTPCACHE_POLICY",
        default=DEFAULT_HTTPCACHE_POLICY,
        read=text,
        shown_default="Scrapy's `DummyPolicy`",
        doc="the HTTP-cache policy `RobotsCachePolicy` wraps",
        section="10",
    ),
    Setting(
        name="REP_REPORT",
        default=None,
        read=optional_path,
        shown_default="none",
        doc="write the end-of-crawl report to this JSON file, or the audit trail's HTML report to a `.html` one "
        "(`{worker}` becomes host-pid)",
        section="11",
    ),
    Setting(
        name="REP_MAX_PARKED",
        default=10_000,
        read=integer(1),
        shown_default="`10000`",
        doc="requests one process holds while they wait for robots.txt; more stay in the scheduler",
        section="5",
    ),
    Setting(
        name="REP_AUDIT_DIR",
        default=None,
        read=optional_path,
        shown_default="none (nothing written)",
        doc="keep the audit trail in this directory: robots.txt bodies, fetches, decisions, pages "
        "([evidence.md](evidence.md))",
        section="11",
    ),
    Setting(
        name="REP_AUDIT_COMPRESS",
        default=False,
        read=boolean,
        shown_default="`False`",
        doc="gzip the audit trail's JSON-lines files",
        section="11",
    ),
    Setting(
        name="REP_AUDIT_WARC",
        default=False,
        read=boolean,
        shown_default="`False`",
        doc="also write every robots.txt request and answer as WARC/1.1 records (needs the `[warc]` extra)",
        section="11",
    ),
    Setting(
        name="REP_AUDIT_SIGNING_KEY",
        default=None,
        read=optional_path,
        shown_default="none (manifests unsigned)",
        doc="sign each audit manifest with this Ed25519 private key (a PEM file; needs the `[signing]` extra)",
        section="11",
    ),
    Setting(
        name="REP_PROVENANCE_FIELD",
        default=None,
        read=optional_text,
        shown_default="none",
        doc="add each page's provenance to every item its callback yields, in this field",
        section="11",
    ),
    Setting(
        name="REP_OUTCOME_SINKS",
        default=(),
        read=objects,
        shown_default="empty",
        doc="more outcome sinks, as import paths: each told how every request and robots.txt fetch ended "
        "([operating.md](operating.md#your-own-outcome-sink))",
        section="11",
    ),
    Setting(
        name="REP_SIGNING_KEY",
        default=None,
        read=optional_path,
        shown_default="none (requests not signed)",
        doc="sign every request (Web Bot Auth) with this Ed25519 private key, a PEM or JWK file "
        "(needs the `[signing]` extra and `REP_SIGNATURE_AGENT`)",
        section="13",
    ),
    Setting(
        name="REP_SIGNATURE_AGENT",
        default=None,
        read=optional_text,
        shown_default="none",
        doc="the https URL where the key directory is published, sent as `Signature-Agent`",
        section="13",
    ),
)
SETTINGS: tuple[Setting, ...] = tuple(
    row if row.field else row._replace(field=row.name.removeprefix(PREFIX).lower()) for row in _ROWS
)
"""Every ``REP_*`` setting, in the order ``docs/behaviour.md`` lists them."""

SETTING_NAMES = frozenset(setting.name for setting in SETTINGS)
SETTING_FOR = {setting.field: setting for setting in SETTINGS}
"""Each row by its ``RepSettings`` field."""
