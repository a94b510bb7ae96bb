"""What one crawler's ``REP_*`` settings come to: :class:`RepSettings`, and where each value came from.

The settings are declared once, in :data:`~scrapy_robots_rep.policy.settings_table.SETTINGS`; the
values are read by :mod:`~scrapy_robots_rep.policy.settings_reader`. :meth:`RepSettings.from_mapping`
reads every row and keeps, per field, the setting its value came from (the row's own, one of its
fallbacks, or none: the default), so the start-up line, ``scrapy robots check`` and the shared
store name it without working it out again. A bad value raises :class:`SettingsError`
naming the setting and what it accepts; the Scrapy layer turns that into a start-up error.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from scrapy_robots_rep.policy.settings_reader import SettingsError, SettingsReader
from scrapy_robots_rep.policy.settings_table import (
    DEFAULT_HTTPCACHE_POLICY,
    NOINDEX_CHOICES,
    SETTING_FOR,
    SETTING_NAMES,
    SETTINGS,
    Setting,
)

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

    from scrapy_robots_rep.core.extension_field import ExtensionField

__all__ = [
    "DEFAULT_HTTPCACHE_POLICY",
    "NOINDEX_CHOICES",
    "REDIS_URL_SETTINGS",
    "SETTINGS",
    "SETTING_NAMES",
    "RepSettings",
    "Setting",
    "SettingsError",
    "SettingsReader",
    "configured_source",
    "rep_settings",
]

REDIS_URL_SETTINGS = SETTING_FOR["redis_url"].names
"""Where the shared store's Redis URL is read from, in order."""


_READ: dict[int, RepSettings] = {}


def rep_settings(settings: BaseSettings) -> RepSettings:
    """The ``REP_*`` settings of the crawler whose Scrapy settings these are, read once they are final.

    Every component of a crawler receives that crawler's settings object (middlewares and stores
    through ``crawler.settings``, the HTTP-cache policy as its constructor argument), so the
    validated :class:`RepSettings` is kept per settings object (only its ``frozen`` flag is read:
    no Scrapy import).
    """
    if not settings.frozen:
        return RepSettings.from_mapping(settings)
    key = id(settings)
    found = _READ.get(key)
    if found is None:
        found = _READ[key] = RepSettings.from_mapping(settings)
        weakref.finalize(settings, _READ.pop, key, None)
    return found


def read_setting(reader: SettingsReader, setting: Setting) -> tuple[Any, str | None]:
    """One row's value and the setting it came from (``None``: the row's default).

    A row's own setting counts when its reader finds a value; then its fallbacks, in order, the
    first holding a non-blank string.
    """
    if not setting.fallbacks:
        value = setting.read(reader, setting.name, setting.default)
        return value, setting.name if reader.raw(setting.name) is not None else None
    value = setting.read(reader, setting.name, None)
    if value is not None:
        return value, setting.name
    for fallback in setting.fallbacks:
        found = (reader.optional_text(fallback) or "").strip()
        if found:
            return found, fallback
    return setting.default, None


def configured_source(settings: Mapping[str, Any], field_name: str) -> str | None:
    """The setting that configures ``field_name`` in ``settings``, ``None`` when it keeps its default.

    Reads that one row only (an add-on's ``update_settings`` runs before the settings are final); a
    value it cannot read counts as configured and is reported at start-up like any other.
    """
    setting = SETTING_FOR[field_name]
    try:
        return read_setting(SettingsReader(settings), setting)[1]
    except SettingsError:
        return setting.name


class RepSettings(NamedTuple):
    """Every ``REP_*`` setting of one crawler, validated; one field per row of :data:`SETTINGS`.

    ``user_agent`` is the configured agent string, not reduced: the matching mode reduces it
    (``matching_mode(matching).agent_token(user_agent)``). ``matching`` and ``status_policy``
    are keys of ``MATCHING_MODES`` and ``STATUS_POLICIES``. ``defer_max_time`` 0 means
    requests of an unreachable origin are dropped at once.

    A named tuple (one per crawler's settings): defining a 41-field dataclass would cost about 11 M
    instructions at every crawl's start. Not hashable (``redis_params`` is a dict).
    """

    enabled: bool
    matching: str
    status_policy: str
    user_agent: str
    from_header: str | None
    max_size: int
    max_redirects: int
    fetch_timeout: float
    unreachable_max_age: float
    defer_max_time: float
    cache_ttl: float
    cache_honor_headers: bool
    cache_ttl_min: float
    cache_ttl_max: float
    cache_max_origins: int
    cache_backend: str | None
    redis_url: str
    redis_params: dict[str, Any]
    redis_prefix: str
    redis_lock_timeout: float
    redis_timeout: float
    crawl_delay: bool
    crawl_delay_max: float
    exempt_domains: tuple[str, ...]
    page_directives: bool
    page_noindex: str
    page_rel_nofollow: bool
    purposes: tuple[str, ...]
    extension_fields: tuple[ExtensionField, ...]
    httpcache_policy: str
    report: str | None
    max_parked: int
    audit_dir: str | None
    audit_compress: bool
    audit_warc: bool
    audit_signing_key: str | None
    provenance_field: str | None
    outcome_sinks: tuple[Any, ...]
    signing_key: str | None
    signature_agent: str | None
    sources: Mapping[str, str] = MappingProxyType({})
    """The setting each field's value came from, by field; a field not in it has its default."""

    @classmethod
    def from_mapping(cls, settings: Mapping[str, Any]) -> RepSettings:
        """Build from Scrapy settings or any mapping of setting names to values (absent: the default)."""
        reader = SettingsReader(settings)
        values: dict[str, Any] = {}
        sources: dict[str, str] = {}
        for setting in SETTINGS:
            values[setting.field], source = read_setting(reader, setting)
            if source is not None:
                sources[setting.field] = source
        result = cls(**values, sources=sources)
        if result.cache_ttl_min > result.cache_ttl_max:
            raise SettingsError(
                f"REP_CACHE_TTL_MIN ({result.cache_ttl_min:g}) must not be greater than "
                f"REP_CACHE_TTL_MAX ({result.cache_ttl_max:g})"
            )
        if result.audit_warc and result.audit_dir is None:
            raise SettingsError("REP_AUDIT_WARC = True needs REP_AUDIT_DIR: the directory the WARC file is written to")
        if result.audit_signing_key is not None and result.audit_dir is None:
            raise SettingsError("REP_AUDIT_SIGNING_KEY needs REP_AUDIT_DIR: the directory whose manifests it signs")
        if (result.signing_key is None) != (result.signature_agent is None):
            raise SettingsError(
                "REP_SIGNING_KEY and REP_SIGNATURE_AGENT go together: the key signs, the URL says where its "
                "public key is published"
            )
        return result

    def source(self, field_name: str) -> str | None:
        """The setting ``field_name``'s value came from (``user_agent``: maybe ``USER_AGENT``); ``None``
        when it is the default."""
        return self.sources.get(field_name)

    @property
    def keeps_evidence(self) -> bool:
        """Whether the crawl keeps evidence: an audit directory, or provenance added to items."""
        return bool(self.audit_dir or self.provenance_field)
