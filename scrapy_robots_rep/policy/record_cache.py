"""Per-origin robots.txt records, their plain-data form, and the bounded in-process cache.

:class:`MemoryCache` is the LRU every crawl has; a fleet shares records through a
store of :mod:`scrapy_robots_rep.stores`, which keeps them as :meth:`CacheRecord.to_dict`.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from typing import Any, NamedTuple

from scrapy_robots_rep.core import AgentRules
from scrapy_robots_rep.core.agent_rules import ACTIVE_ORIGINS, ActiveRules
from scrapy_robots_rep.policy.freshness import LifetimeSource, Validators
from scrapy_robots_rep.policy.status import Outcome

RECORD_VERSION = 2
"""Version of :meth:`CacheRecord.to_dict`; 2 added the validators and the lifetime source."""

_SAME_AS_RULES = "rules"
"""``last_good`` in plain data when it is the record's own rules (the usual case), to store them once."""


class CacheRecord(NamedTuple):
    """What is known about one origin's robots.txt; what a fleet shares.

    ``rules`` decide requests now. ``last_good`` is the last copy of rules obtained (the
    record's own rules after a success), kept through failures for stale-on-error.
    ``unreachable_since`` is when the origin started failing (None while it answers).
    ``validators`` revalidate the rules with a conditional request; ``lifetime_source``
    says where the lifetime of a success came from (None for a failure, whose
    ``expires_at`` is the time of the next attempt). ``sha256`` names the robots.txt body the
    rules were read from (None when they come from no body: a 404, a failure).
    """

    rules: AgentRules
    outcome: Outcome
    status: int | None
    fetched_at: float
    expires_at: float
    unreachable_since: float | None = None
    last_good: AgentRules | None = None
    validators: Validators | None = None
    lifetime_source: LifetimeSource | None = None
    sha256: str | None = None

    def is_fresh(self, now: float) -> bool:
        return now < self.expires_at

    def shifted(self, seconds: float) -> CacheRecord:
        """This record with its times moved by ``seconds``: read on a clock that runs that much ahead
        of its writer's."""
        since = self.unreachable_since
        return self._replace(
            fetched_at=self.fetched_at + seconds,
            expires_at=self.expires_at + seconds,
            unreachable_since=None if since is None else since + seconds,
        )

    @property
    def holds_rules(self) -> bool:
        """True when the record holds rules obtained from the site: a success, or a failure with a last good copy.

        Such a record decides requests even once expired (stale-while-revalidate, stale-on-error).
        """
        return not self.outcome.failed or self.last_good is not None

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe plain data, versioned."""
        if self.last_good is None:
            last_good: Any = None
        elif self.last_good is self.rules:
            last_good = _SAME_AS_RULES
        else:
            last_good = self.last_good.to_dict()
        validators = self.validators
        return {
            "v": RECORD_VERSION,
            "rules": self.rules.to_dict(),
            "outcome": self.outcome.value,
            "status": self.status,
            "fetched_at": self.fetched_at,
            "expires_at": self.expires_at,
            "unreachable_since": self.unreachable_since,
            "last_good": last_good,
            "validators": None
            if validators is None
            else {"etag": validators.etag, "last_modified": validators.last_modified},
            "lifetime_source": None if self.lifetime_source is None else self.lifetime_source.value,
            "sha256": self.sha256,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CacheRecord:
        """Rebuild from :meth:`to_dict` output; ``ValueError`` if malformed or of another version.

        Records of other versions are refused rather than converted: a store
        reads them as missing, and the origin's robots.txt is fetched again.
        """
        if not isinstance(data, Mapping):
            raise ValueError(f"a cache record must be a mapping, got {type(data).__name__}")
        if data.get("v") != RECORD_VERSION:
            raise ValueError(f"cache record of version {data.get('v')!r}, expected {RECORD_VERSION}")
        try:
            rules = AgentRules.from_dict(data["rules"])
            status = data["status"]
            source = data["lifetime_source"]
            return cls(
                rules=rules,
                outcome=Outcome(data["outcome"]),
                status=None if status is None else int(status),
                fetched_at=float(data["fetched_at"]),
                expires_at=float(data["expires_at"]),
                unreachable_since=_optional_float(data["unreachable_since"]),
                last_good=_last_good(data["last_good"], rules),
                validators=_validators(data["validators"]),
                lifetime_source=None if source is None else LifetimeSource(source),
                sha256=_optional_text(data.get("sha256")),
            )
        except (KeyError, TypeError, AttributeError) as error:
            raise ValueError(f"malformed cache record: {error!r}") from error


def _optional_text(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise TypeError(f"expected a string or None, got {type(value).__name__}")


def _optional_float(value: Any) -> float | None:
    return None if value is None else float(value)


def _last_good(data: Any, rules: AgentRules) -> AgentRules | None:
    if data is None:
        return None
    if data == _SAME_AS_RULES:
        return rules
    return AgentRules.from_dict(data)


def _validators(data: Any) -> Validators | None:
    if data is None:
        return None
    etag, last_modified = data["etag"], data["last_modified"]
    if not all(value is None or isinstance(value, str) for value in (etag, last_modified)):
        raise ValueError(f"malformed cache record: validators {data!r:.200}")
    return Validators(etag=etag, last_modified=last_modified)


class MemoryCache:
    """In-process LRU of :class:`CacheRecord` per origin, bounded by ``max_origins``.

    The rules it keeps share its :class:`ActiveRules`: of them, the ``active_origins`` most
    recently read keep their table or compiled index (one set per cache, so two crawlers of
    one process never drop each other's)."""

    def __init__(self, max_origins: int, active_origins: int = ACTIVE_ORIGINS) -> None:
        if max_origins < 1:
            raise ValueError(f"max_origins must be at least 1, got {max_origins}")
        self._max_origins = max_origins
        self._records: OrderedDict[str, CacheRecord] = OrderedDict()
        self.active = ActiveRules(active_origins)
        self.evictions = 0

    def get(self, origin: str) -> CacheRecord | None:
        """The record of ``origin``, marked as most recently used; ``None`` if absent."""
        record = self._records.get(origin)
        if record is not None:
            self._records.move_to_end(origin)
        return record

    def put(self, origin: str, record: CacheRecord) -> None:
        """Store a record, evicting the least recently used origins beyond the bound."""
        self.active.adopt(record.rules)
        if record.last_good is not None and record.last_good is not record.rules:
            self.active.adopt(record.last_good)
        self._records[origin] = record
        self._records.move_to_end(origin)
        while len(self._records) > self._max_origins:
            self._records.popitem(last=False)
            self.evictions += 1

    def __len__(self) -> int:
        return len(self._records)
