"""The Lua scripts ``RedisStore`` runs: each is one atomic step of the fleet's protocol.

Times that processes compare (Crawl-delay slots) are taken on
Redis's clock (``TIME``), so the fleet's machines need not agree on theirs.
"""

from __future__ import annotations

NOW_MS = "local clock = redis.call('TIME')\nlocal now = clock[1] * 1000 + math.floor(clock[2] / 1000)\n"
"""Lua prologue: ``now``, Redis's time in milliseconds."""

STORE = """
local current = redis.call('HGET', KEYS[1], 'fetched_at')
if current and tonumber(current) > tonumber(ARGV[1]) then
    return 0
end
redis.call('HSET', KEYS[1], 'fetched_at', ARGV[1], 'expires_at', ARGV[2], 'record', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PUBLISH', ARGV[5], ARGV[6])
return 1
"""
"""KEYS: record. ARGV: fetched_at, expires_at, packed record, key lifetime (ms), channel, store key.
Keeps a newer record another process stored; tells waiters that a record landed."""

ACQUIRE = """
local clock = redis.call('TIME')
local now = clock[1] + clock[2] / 1000000
local expires_at = redis.call('HGET', KEYS[2], 'expires_at')
if expires_at and tonumber(expires_at) > now then
    return 0
end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
    return 1
end
return 0
"""
"""KEYS: lock, record. ARGV: token, lock lifetime (ms). Takes the lock unless it is held or
a fresh record landed since the caller looked (then there is nothing to fetch), on Redis's clock."""

RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('DEL', KEYS[1])
end
return 0
"""
"""KEYS: lock. ARGV: token. Deletes the lock only for its owner."""

RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
"""KEYS: lock. ARGV: token, lock lifetime (ms). Extends the lock only for its owner."""

RESERVE_SLOT = (
    NOW_MS
    + """
local free = tonumber(redis.call('HGET', KEYS[1], 'free') or '0')
if free > now then
    return free - now
end
redis.call('HSET', KEYS[1], 'free', now + tonumber(ARGV[2]), 'holder', ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) + 1000)
return 0
"""
)
"""KEYS: pace. ARGV: token, lease (ms). An origin's next download slot: 0 when it is this
caller's now (held until released, at most the lease), else the milliseconds until the
origin is free or, while another process holds it, until its lease ends."""

FREE_SLOT = (
    NOW_MS
    + """
if redis.call('HGET', KEYS[1], 'holder') ~= ARGV[1] then
    return 0
end
redis.call('HSET', KEYS[1], 'free', now + tonumber(ARGV[2]))
redis.call('HDEL', KEYS[1], 'holder')
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) + 1000)
return 1
"""
)
"""KEYS: pace. ARGV: token, delay (ms). The holder's download has left the downloader: the next
slot starts a delay from now (only for the holder; a lease that ran out is not shortened)."""
