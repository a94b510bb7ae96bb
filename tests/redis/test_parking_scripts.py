"""The shared-parking scripts on a real Redis: a park run again after a lost reply writes nothing,
the bound sends requests to the queue, every key expires, a sweep moves only expired leases, and
each script's keys fall in one hash slot (Redis Cluster)."""

from __future__ import annotations

import pytest
from redis.crc import key_slot

from scrapy_robots_rep.downloader import parking_scripts
from tests.redis.server import RedisServer
from tests.settings.redis_store import redis_queue

QUEUE = "fleet:requests"
LEASE_MS, LIFETIME_MS = 60_000, 600_000
ORIGIN = "https://example.com"


class Parking:
    """The scripts registered on one server, with the keys ``SharedParking`` gives them."""

    def __init__(self, server: RedisServer, queue: str = QUEUE) -> None:
        self.client = server.client()
        self.queue = queue
        self.leases = parking_scripts.parking_prefix(queue)
        self.ids = f"{self.leases}_ids"
        self.parked = f"{self.leases}:{ORIGIN}"
        self.scripts = {
            name: self.client.register_script(getattr(parking_scripts, name))
            for name in ("PARK", "RENEW", "RELEASE", "TAKE", "EXPIRED", "SWEEP")
        }

    def run(self, name: str, keys: list[str], args: list[object]) -> object:
        assert len({key_slot(key.encode()) for key in keys}) == 1, f"{name} crosses slots: {keys}"
        return self.scripts[name](keys=keys, args=args)

    def park(self, park_id: str, data: str, bound: int = 100) -> int:
        keys = [self.parked, self.leases, self.ids, self.queue]
        return int(self.run("PARK", keys, [LEASE_MS, LIFETIME_MS, bound, "zset", park_id, 0, data]))

    def release(self) -> int:
        return int(self.run("RELEASE", [self.parked, self.leases, self.queue], ["zset"]))


@pytest.fixture
def parking(redis_server: RedisServer) -> Parking:
    return Parking(redis_server)


def test_a_park_run_again_writes_nothing(parking: Parking) -> None:
    assert parking.park("id1", "request-1") == 1
    assert parking.park("id1", "request-1") == 1, "still parked"
    assert parking.client.zcard(parking.parked) == 1
    assert parking.release() == 1
    assert parking.park("id1", "request-1") == 0, "moved on: not parked again"
    assert parking.client.zrange(QUEUE, 0, -1) == [b"request-1"], "in the queue once"
    assert parking.client.exists(parking.parked) == 0


def test_past_the_bound_a_request_goes_to_the_queue(parking: Parking) -> None:
    assert [parking.park(f"id{n}", f"request-{n}", bound=2) for n in range(3)] == [1, 1, 2]
    assert parking.client.zcard(parking.parked) == 2
    assert parking.client.zrange(QUEUE, 0, -1) == [b"request-2"]


def test_every_parking_key_expires_and_renewal_extends_it(parking: Parking) -> None:
    parking.park("id1", "request-1")
    keys = [parking.parked, parking.leases, parking.ids]
    assert all(0 < parking.client.pttl(key) <= LIFETIME_MS for key in keys)
    parking.client.pexpire(parking.parked, 1000)
    assert parking.run("RENEW", [parking.leases, parking.parked], [LEASE_MS, LIFETIME_MS]) == 1
    assert parking.client.pttl(parking.parked) > 1000


def test_a_sweep_moves_only_requests_whose_lease_ran_out(parking: Parking) -> None:
    parking.park("id1", "request-1")
    assert parking.run("EXPIRED", [parking.leases], [100]) == []
    # The lease lapses (its process died): the sweep moves the requests, once.
    parking.client.zadd(parking.leases, {parking.parked: 0})
    assert parking.run("EXPIRED", [parking.leases], [100]) == [parking.parked.encode()]
    sweep_keys = [parking.leases, parking.parked, QUEUE]
    assert parking.run("SWEEP", sweep_keys, ["zset"]) == 1
    assert parking.run("SWEEP", sweep_keys, ["zset"]) == 0
    assert parking.client.zcard(QUEUE) == 1


def test_a_lease_renewed_after_the_listing_is_not_swept(parking: Parking) -> None:
    parking.park("id1", "request-1")
    assert parking.run("SWEEP", [parking.leases, parking.parked, QUEUE], ["zset"]) == 0
    assert parking.client.zcard(parking.parked) == 1


@pytest.mark.parametrize(
    ("queue", "prefix"),
    [("fleet:requests", "{fleet:requests}:rep_parked"), ("{spider}:requests", "{spider}:requests:rep_parked")],
)
def test_parking_keys_share_the_queue_s_slot(queue: str, prefix: str) -> None:
    assert parking_scripts.parking_prefix(queue) == prefix
    assert key_slot(prefix.encode()) == key_slot(queue.encode())


@pytest.mark.parametrize("meanwhile", ["nothing", "another process releases the origin"])
def test_a_park_whose_reply_is_lost_is_settled_without_a_second_copy(redis_server: RedisServer, meanwhile: str) -> None:
    """Redis stops (SIGSTOP) with the park sent: the client times out, the park runs once Redis goes
    on, and asking again (the same park, by its id) neither parks it twice nor revives a released one."""
    from scrapy import Request, Spider
    from scrapy.utils.test import get_crawler
    from scrapy_redis.scheduler import Scheduler

    from scrapy_robots_rep.crawl.parts import CrawlParts
    from scrapy_robots_rep.downloader.parking import Parked
    from scrapy_robots_rep.downloader.shared_parking import SharedParking

    settings = {
        **redis_queue(redis_server),
        "REDIS_PARAMS": {"socket_timeout": 0.5},
        "SCHEDULER_QUEUE_KEY": QUEUE,
    }
    crawler = get_crawler(Spider, settings)
    crawler.spider = crawler._create_spider("lost")
    scheduler = Scheduler.from_crawler(crawler)
    scheduler.open(crawler.spider)
    parking = SharedParking(crawler, CrawlParts.of(crawler).outcomes, scheduler, "zset", 60.0, 600.0, 100)
    client = Parking(redis_server)
    # Another origin's park loads the script; dont_filter skips the dupefilter (its own command).
    assert parking.park("https://other.example", Request("https://other.example/")) is Parked.IN_REDIS
    with redis_server.frozen():
        assert parking.park(ORIGIN, Request(f"{ORIGIN}/page", dont_filter=True)) is Parked.IN_REDIS
    assert len(parking.unsettled) == 1, "the reply was lost"
    wait_for_the_park = 50
    while not client.client.exists(client.parked) and wait_for_the_park:  # Redis runs what it was sent
        wait_for_the_park -= 1
        client.client.ping()
    assert client.client.zcard(client.parked) == 1, "the park ran once Redis went on"
    if meanwhile != "nothing":
        assert client.release() == 1
    parking._settle()

    assert parking.unsettled == []
    if meanwhile == "nothing":
        assert client.client.zcard(client.parked) == 1, "parked once"
        assert parking.held[ORIGIN] == 1
    else:
        assert client.client.exists(client.parked) == 0, "not parked again"
        assert client.client.zcard(QUEUE) == 1, "in the queue once"
        assert ORIGIN not in parking.held
