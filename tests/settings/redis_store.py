"""Settings sharing robots.txt records through a test redis-server (``tests.redis.server``)."""

from __future__ import annotations

from typing import Any

from tests.redis.server import AnyServer, RedisServer

REDIS_BACKEND = "scrapy_robots_rep.RedisStore"
"""``REP_CACHE_BACKEND`` of the shared Redis store."""


def shared_cache(server: AnyServer) -> dict[str, Any]:
    """Settings that share robots.txt records through ``server`` (with its client options: a CA...)."""
    return {"REP_CACHE_BACKEND": REDIS_BACKEND, "REP_REDIS_URL": server.url, "REP_REDIS_PARAMS": server.client_params}


def redis_queue(server: RedisServer) -> dict[str, Any]:
    """Settings of a scrapy-redis scheduler (requests serialised into ``server``)."""
    return {
        "SCHEDULER": "scrapy_redis.scheduler.Scheduler",
        "DUPEFILTER_CLASS": "scrapy_redis.dupefilter.RFPDupeFilter",
        "SCHEDULER_PERSIST": False,
        "REDIS_URL": server.url,
    }
