"""The Lua scripts ``SharedParking`` runs on the scheduler's Redis: each is one atomic step.

Every key a script touches is in its ``KEYS`` and shares one hash tag with the scheduler's
queue (``parking_prefix``), so each script runs in one slot, as Redis Cluster requires. Each
script checks before it writes and uses only commands of Redis 6.2 and Valkey 7.2 that cannot
fail on well-formed keys, so it does all of its work or none of it (Lua does not roll back).
Times are Redis's (``TIME``), so the fleet's machines need not agree on their clocks.
"""

from __future__ import annotations

import re

NOW_MS = "local clock = redis.call('TIME')\nlocal now = clock[1] * 1000 + math.floor(clock[2] / 1000)\n"
"""Lua prologue: ``now``, Redis's time in milliseconds."""

_HASH_TAG = re.compile(r"\{[^}]+\}")


def parking_prefix(queue_key: str) -> str:
    """The prefix of the parking keys of ``queue_key``: in the queue key's hash slot (its own hash
    tag when it has one, else the whole key made the tag)."""
    opening = queue_key.find("{")
    if opening >= 0 and _HASH_TAG.match(queue_key, opening):
        return f"{queue_key}:rep_parked"
    return f"{{{queue_key}}}:rep_parked"


_LEASE = """
local function lease(leases, parked, expiry)
    local current = redis.call('ZSCORE', leases, parked)
    if not current or tonumber(current) < expiry then
        redis.call('ZADD', leases, expiry, parked)
    end
end
"""

_MOVE = """
local function move(parked, queue, kind)
    local entries = redis.call('ZRANGE', parked, 0, -1, 'WITHSCORES')
    for index = 1, #entries, 2 do
        if kind == 'zset' then
            redis.call('ZADD', queue, entries[index + 1], entries[index])
        else
            redis.call('LPUSH', queue, entries[index])
        end
    end
    redis.call('DEL', parked)
    return #entries / 2
end
"""

PARK = (
    NOW_MS
    + _LEASE
    + """
local lease_ms, ttl, bound = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
if redis.call('ZSCORE', KEYS[3], ARGV[5]) then
    if redis.call('ZSCORE', KEYS[1], ARGV[7]) then
        return 1
    end
    return 0
end
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - ttl)
redis.call('ZADD', KEYS[3], now, ARGV[5])
redis.call('PEXPIRE', KEYS[3], ttl)
if redis.call('ZCARD', KEYS[1]) >= bound then
    if ARGV[4] == 'zset' then
        redis.call('ZADD', KEYS[4], ARGV[6], ARGV[7])
    else
        redis.call('LPUSH', KEYS[4], ARGV[7])
    end
    return 2
end
redis.call('ZADD', KEYS[1], ARGV[6], ARGV[7])
redis.call('PEXPIRE', KEYS[1], ttl)
lease(KEYS[2], KEYS[1], now + lease_ms)
redis.call('PEXPIRE', KEYS[2], ttl)
return 1
"""
)
"""KEYS: parked requests of an origin, leases, park ids, the scheduler's queue. ARGV: lease (ms),
key lifetime (ms), most requests parked per origin, the queue's kind, park id, score, request.
Parks the request under a lease: 1. Run again with the same park id (the reply of the first run
was lost) it writes nothing: 1 while the request is still parked, 0 once it was moved on.
Past the bound the request goes into the queue instead: 2."""

RENEW = (
    NOW_MS
    + _LEASE
    + """
local lease_ms, ttl = tonumber(ARGV[1]), tonumber(ARGV[2])
for index = 2, #KEYS do
    if redis.call('EXISTS', KEYS[index]) == 1 then
        lease(KEYS[1], KEYS[index], now + lease_ms)
        redis.call('PEXPIRE', KEYS[index], ttl)
    end
end
if redis.call('EXISTS', KEYS[1]) == 1 then
    redis.call('PEXPIRE', KEYS[1], ttl)
end
return #KEYS - 1
"""
)
"""KEYS: leases, then the parked-request keys this process holds. ARGV: lease (ms), key lifetime
(ms). Extends the leases and lifetimes of those that still exist (another process may have
released the requests)."""

RELEASE = (
    _MOVE
    + """
redis.call('ZREM', KEYS[2], KEYS[1])
return move(KEYS[1], KEYS[3], ARGV[1])
"""
)
"""KEYS: parked requests of an origin, leases, the scheduler's queue. ARGV: the queue's kind
(``zset`` for scrapy-redis's priority queue, else a list). Moves them all into the queue."""

TAKE = """
redis.call('ZREM', KEYS[2], KEYS[1])
local entries = redis.call('ZRANGE', KEYS[1], 0, -1)
redis.call('DEL', KEYS[1])
return entries
"""
"""KEYS: parked requests of an origin, leases. Removes and returns them (to be dropped)."""

EXPIRED = (
    NOW_MS
    + """
return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[1]))
"""
)
"""KEYS: leases. ARGV: most keys. The parked-request keys whose lease ran out (their process died)."""

SWEEP = (
    NOW_MS
    + _MOVE
    + """
local expiry = redis.call('ZSCORE', KEYS[1], KEYS[2])
if expiry and tonumber(expiry) > now then
    return 0
end
redis.call('ZREM', KEYS[1], KEYS[2])
return move(KEYS[2], KEYS[3], ARGV[1])
"""
)
"""KEYS: leases, parked requests of an origin, the scheduler's queue. ARGV: the queue's kind.
Moves the requests into the queue unless their lease was renewed since ``EXPIRED`` listed it."""
