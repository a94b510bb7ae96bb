"""The Lua scripts ``RedisStore`` runs: each is one atomic step of the fleet's protocol.

Times that processes compare (Crawl-delay slots, leases of parked requests) are taken on
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

PARK = (
    NOW_MS
    + """
for index = 2, #ARGV, 2 do
    redis.call('ZADD', KEYS[1], ARGV[index], ARGV[index + 1])
end
redis.call('ZADD', KEYS[2], 'GT', now + tonumber(ARGV[1]), KEYS[1])
return redis.call('ZCARD', KEYS[1])
"""
)
"""KEYS: parked requests of an origin, leases. ARGV: lease (ms), then score and request pairs.
Parks requests (scored as the scheduler's priority queue scores them) under a lease."""

RENEW_PARKED = (
    NOW_MS
    + """
for index = 1, #KEYS do
    redis.call('ZADD', ARGV[2], 'XX', 'GT', now + tonumber(ARGV[1]), KEYS[index])
end
return #KEYS
"""
)
"""KEYS: parked-request keys this process holds. ARGV: lease (ms), leases key. Extends the
leases that still exist (another process may have released the requests)."""

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

RELEASE_PARKED = (
    _MOVE
    + """
redis.call('ZREM', KEYS[2], KEYS[1])
return move(KEYS[1], KEYS[3], ARGV[1])
"""
)
"""KEYS: parked requests of an origin, leases, the scheduler's queue. ARGV: the queue's kind
(``zset`` for scrapy-redis's priority queue, else a list). Moves them all into the queue."""

TAKE_PARKED = """
redis.call('ZREM', KEYS[2], KEYS[1])
local entries = redis.call('ZRANGE', KEYS[1], 0, -1)
redis.call('DEL', KEYS[1])
return entries
"""
"""KEYS: parked requests of an origin, leases. Removes and returns them (to be dropped)."""

SWEEP_PARKED = (
    NOW_MS
    + _MOVE
    + """
local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[2]))
local moved = 0
for _, parked in ipairs(expired) do
    redis.call('ZREM', KEYS[1], parked)
    moved = moved + move(parked, KEYS[2], ARGV[1])
end
return moved
"""
)
"""KEYS: leases, the scheduler's queue. ARGV: the queue's kind, most origins per call. Moves the
requests whose lease ran out (their process died) into the queue."""
