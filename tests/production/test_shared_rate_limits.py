"""Rate limits hold across worker processes (issue 12, item 5): under `make serve` every worker
counts in the same cache (the database's table, or Redis), so one address gets its limit once,
not once per worker, and a `Retry-After` holds whichever worker a new connection reaches.

Before, each worker counted in its own memory: 120 games an hour against a limit of 60, and 39
of 100 requests on new connections got through after a 429.
"""

from __future__ import annotations

import importlib.util
import os
import socket
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.conf import settings
from django.db import connection

from loadtest.server import RunningServer, running_server, server_environment

from .conftest import database_url

pytestmark = pytest.mark.django_db(transaction=True)

LIMIT = 10
GAMES = "/api/v1/games"
#: The tests' client address, behind a proxy the servers trust (NUM_PROXIES=1): a readiness
#: check that timed out while a worker booted may still be answered, and counted against
#: 127.0.0.1, after the counts were forgotten.
CLIENT_ADDRESS = {"X-Forwarded-For": "203.0.113.7"}


def forget_counts() -> None:
    """Empty the shared tables (all requests come from 127.0.0.1): the readiness checks of a
    server that just started counted, and the tables outlive each test's data."""
    with connection.cursor() as cursor:
        for table in (settings.RATE_LIMIT_CACHE_TABLE, settings.RATE_COUNT_TABLE):
            cursor.execute(f"DELETE FROM {connection.ops.quote_name(table)}")


@contextmanager
def throttled_server(
    workers: int, tmp_path: Path, limit: int = LIMIT, **extra: str
) -> Iterator[RunningServer]:
    """`make serve` (DEBUG off, so the default shared cache) with `limit` requests a minute per
    address and `limit` games an hour."""
    env = server_environment(
        database_url(connection.settings_dict),
        THROTTLING="on",
        THROTTLE_ADDRESS_RATE=f"{limit}/min",
        THROTTLE_GAME_CREATE_RATE=f"{limit}/hour",
        NUM_PROXIES="1",
        STATIC_ROOT=str(tmp_path),
        **extra,
    )
    forget_counts()  # an earlier test's counts would refuse the readiness checks
    try:
        with running_server(env, workers=workers, threads=2) as server:
            forget_counts()
            yield server
    finally:
        forget_counts()


def on_a_new_connection(server: RunningServer, method: str, path: str, **kwargs: Any) -> Any:
    """One request on a connection of its own: any worker may accept it."""
    with httpx.Client(base_url=server.url, timeout=30, headers=CLIENT_ADDRESS) as client:
        return client.request(method, path, **kwargs)


def worker_pids(server: RunningServer) -> set[int]:
    children = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
    return {int(pid) for pid in children}


def pid_holding(port: int, pids: set[int]) -> int | None:
    """The worker whose socket is the server's end of the client connection from `port`
    (Linux /proc): which worker answered."""
    wanted = f":{port:04X}"
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[2].endswith(wanted):  # remote address: the client's port
                inodes.add(fields[9])
    for pid in pids:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                if os.readlink(fd).removeprefix("socket:[").rstrip("]") in inodes:
                    return pid
            except OSError:
                continue
    return None


def get_on_new_connection_noting_the_worker(
    server: RunningServer, pids: set[int]
) -> tuple[int, int | None]:
    """GET the lobby on a fresh keep-alive connection; (status, pid of the worker that held
    the connection)."""
    with socket.create_connection(("127.0.0.1", int(server.url.rsplit(":", 1)[1]))) as sock:
        address = CLIENT_ADDRESS["X-Forwarded-For"].encode()
        request = b"GET /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: "
        sock.sendall(request + address + b"\r\n\r\n")
        status = int(sock.recv(65536).split(b" ", 2)[1])
        return status, pid_holding(sock.getsockname()[1], pids)


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="needs Linux /proc")
def test_a_limit_per_address_holds_across_two_workers(tmp_path: Path) -> None:
    with throttled_server(2, tmp_path) as server:
        pids = worker_pids(server)
        assert len(pids) == 2
        answers = [get_on_new_connection_noting_the_worker(server, pids) for _ in range(4 * LIMIT)]
    statuses = [status for status, _ in answers]
    assert statuses == [200] * LIMIT + [429] * (3 * LIMIT), statuses
    refusing = {pid for status, pid in answers if status == 429}
    answering = {pid for status, pid in answers if status == 200}
    # Both workers served the address; each refused it once the other had counted.
    assert answering | refusing == pids, answers


def test_retry_after_holds_on_new_connections_whichever_worker(tmp_path: Path) -> None:
    with throttled_server(2, tmp_path) as server:
        for _ in range(LIMIT):
            assert on_a_new_connection(server, "GET", GAMES).status_code == 200
        later = [on_a_new_connection(server, "GET", GAMES) for _ in range(3 * LIMIT)]
    assert [answer.status_code for answer in later] == [429] * (3 * LIMIT)
    for answer in later:
        assert answer.headers["content-type"] == "application/problem+json"
        assert 1 <= int(answer.headers["Retry-After"]) <= 60
        assert answer.json()["code"] == "throttled"


def test_games_created_per_address_hold_across_two_servers(tmp_path: Path) -> None:
    """Two gunicorn processes on the same database alternate deterministically: the limit of
    games an hour is the address's, not each server's."""
    with throttled_server(1, tmp_path) as first, throttled_server(1, tmp_path) as second:
        forget_counts()
        created = [
            on_a_new_connection(server, "POST", GAMES, json={"seats": 2}).status_code
            for server in [first, second] * LIMIT
        ]
    assert created == [201] * LIMIT + [429] * LIMIT, created


def in_parallel(server: RunningServer, clients: int, requests: int) -> list[int]:
    """`clients` kept-alive connections at once from `CLIENT_ADDRESS`, each sending `requests`
    GETs of the rules as fast as it is answered; every status."""

    def one_client(_: int) -> list[int]:
        with httpx.Client(base_url=server.url, timeout=30, headers=CLIENT_ADDRESS) as client:
            return [client.get("/api/v1/rules").status_code for _ in range(requests)]

    with ThreadPoolExecutor(clients) as pool:
        return [status for statuses in pool.map(one_client, range(clients)) for status in statuses]


PARALLEL_LIMIT = 30


def test_parallel_clients_get_the_limit_exactly(tmp_path: Path) -> None:
    """Counted with a read and then a write, concurrent requests overwrote each other's counts
    and parallel clients got far more than the limit; each is now counted atomically."""
    with throttled_server(2, tmp_path, limit=PARALLEL_LIMIT) as server:
        statuses = in_parallel(server, clients=4, requests=20)
    assert statuses.count(200) == PARALLEL_LIMIT, statuses
    assert statuses.count(429) == 80 - PARALLEL_LIMIT, statuses


def redis_reachable() -> bool:
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=1).close()
    except OSError:
        return False
    return True


needs_redis = pytest.mark.skipif(
    importlib.util.find_spec("redis") is None or not redis_reachable(),
    reason="needs the redis package and a Redis server on 127.0.0.1:6379",
)

REDIS_URL = "redis://127.0.0.1:6379/15"


def our_keys(prefix: str) -> list[bytes]:
    """The Redis keys under `prefix` (Django's cache keys are `<prefix>:<version>:<key>`)."""
    import redis

    return list(redis.Redis.from_url(REDIS_URL).scan_iter(match=f"{prefix}:*"))


@contextmanager
def redis_prefix_of_our_own() -> Iterator[str]:
    """A key prefix no other test run uses (REDIS_KEY_PREFIX); only the keys under it are
    deleted afterwards, never the database another run may be counting in."""
    import redis

    prefix = f"skyjo-test-{uuid.uuid4().hex}"
    try:
        yield prefix
    finally:
        if keys := our_keys(prefix):
            redis.Redis.from_url(REDIS_URL).delete(*keys)


@needs_redis
def test_with_redis_url_the_workers_count_in_redis(tmp_path: Path) -> None:
    with redis_prefix_of_our_own() as prefix:
        environment = {"REDIS_URL": REDIS_URL, "REDIS_KEY_PREFIX": prefix}
        with throttled_server(2, tmp_path, **environment) as server:
            statuses = [
                on_a_new_connection(server, "GET", GAMES).status_code for _ in range(3 * LIMIT)
            ]
            keys = our_keys(prefix)
    assert any(b"throttle_address" in key for key in keys), keys
    assert statuses == [200] * LIMIT + [429] * (2 * LIMIT), statuses


@needs_redis
def test_parallel_clients_get_the_limit_exactly_in_redis(tmp_path: Path) -> None:
    with redis_prefix_of_our_own() as prefix:
        environment = {"REDIS_URL": REDIS_URL, "REDIS_KEY_PREFIX": prefix}
        with throttled_server(2, tmp_path, limit=PARALLEL_LIMIT, **environment) as server:
            statuses = in_parallel(server, clients=4, requests=20)
    assert statuses.count(200) == PARALLEL_LIMIT, statuses
    assert statuses.count(429) == 80 - PARALLEL_LIMIT, statuses
