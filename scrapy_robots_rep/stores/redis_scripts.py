"""The Lua scripts ``RedisStore`` runs: each is one atomic step of the fleet's protocol.

Every time that processes compare (which record is newer, whether one is fresh, Crawl-delay
slots) is taken on Redis's clock (``TIME``), so the fleet's machines need not agree on theirs:
a process hands in durations on its own clock (a record's age, the freshness it has left), and
the script places them on Redis's.
"""

from __future__ import annotations

import struct

NOW_MS = "local clock = redis.call('TIME')\nlocal now = clock[1] * 1000 + math.floor(clock[2] / 1000)\n"
"""Lua prologue: ``now``, Redis's time in milliseconds."""

RECORD_HEADER = struct.Struct(">dd")
"""What precedes the packed record in a record key's value: when the record was fetched and when
it expires, ms on Redis's clock, as big-endian doubles (Lua's ``struct.pack('>dd', ...)``).
The scripts read the two times with ``GETRANGE`` and never the record itself."""

STORE = (
    NOW_MS
    + """
local fetched = now - tonumber(ARGV[1])
local current = redis.call('GETRANGE', KEYS[1], 0, 7)
if #current == 8 and struct.unpack('>d', current) > fetched then
    return 0
end
redis.call('SET', KEYS[1], struct.pack('>dd', fetched, now + tonumber(ARGV[2])) .. ARGV[3], 'PX', ARGV[4])
redis.call('PUBLISH', ARGV[5], ARGV[6])
return 1
"""
)
"""KEYS: record. ARGV: the record's age and the freshness it has left (ms, on the writer's clock),
packed record, key lifetime (ms), channel, store key. Keeps a newer record another process
stored (fetched later on Redis's clock); tells waiters that a record landed."""

READ = (
    NOW_MS
    + """
local value = redis.call('GET', KEYS[1])
local age = 0
if value and #value >= 16 then
    age = now - struct.unpack('>d', value)
end
return {value, age, redis.call('EXISTS', KEYS[2])}
"""
)
"""KEYS: record, lock. The record key's value (nil when none), the record's age (ms on Redis's
clock: the reader places the record on its own clock with it), and whether the lock is held."""

ACQUIRE = (
    NOW_MS
    + """
local expires = redis.call('GETRANGE', KEYS[2], 8, 15)
if #expires == 8 and struct.unpack('>d', expires) > now then
    return 0
end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
    return 1
end
return 0
"""
)
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
