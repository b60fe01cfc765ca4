"""Counting requests against a limit in fixed windows, atomically, wherever the settings keep
the counts: every worker process and server that shares the store shares each count.

A window starts with the first request a key counts and lasts its period; every request in it,
refused ones included, adds one, and the request that makes the count pass the limit is refused
until the window ends (then the next request starts a new one). A fixed window, not a sliding
one: a client may spend one window's allowance at its very end and the next at once, so at
most twice the limit passes in any one period; the limit itself is never exceeded within a
window, however many requests arrive at once, because each one is counted by a single atomic
step of the store:

- Redis (Django's RedisCache): `SET NX EX` to open the window, `INCR` to count.
- The database (Django's DatabaseCache, whose own `incr` is a read and then a write, so two
  workers at once both write the same count): one `INSERT ... ON CONFLICT DO UPDATE SET hits =
  hits + 1 ... RETURNING` into a table of its own (`settings.RATE_COUNT_TABLE`).
- Any other cache (LocMemCache: a process's memory, whose `add` and `incr` hold its lock): its
  `add` and `incr`.

Nothing here knows what is counted: callers pass a key, a limit and a period.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.db import DatabaseCache
from django.db import DEFAULT_DB_ALIAS, connections

#: Seconds between two purges of ended windows from the table, in each process.
PURGE_EVERY = 60.0
_next_purge = 0.0


def take(key: str, limit: int, period: int) -> float | None:
    """Count one request for `key`: None while the window's count is within `limit`, else the
    seconds until the window of `period` seconds ends (the client's Retry-After: at least one,
    so that it never says to come back at once and find the window still open)."""
    store = caches[DEFAULT_CACHE_ALIAS]
    if isinstance(store, DatabaseCache):
        hits, ends = _count_in_table(store.make_and_validate_key(key), period)
    else:
        hits, ends = _count_in_cache(store, key, period)
    return None if hits <= limit else max(ends() - time.time(), 1.0)


def _count_in_cache(store: BaseCache, key: str, period: int) -> tuple[int, Callable[[], float]]:
    """(count, a function giving the window's end): `add` opens a window atomically, `incr`
    counts in it; the end is kept beside the count and read only when a request is refused."""
    ends_key = f"{key}:ends"
    while True:
        latest_end = time.time() + period
        if store.add(key, 0, period):
            store.set(ends_key, latest_end, period)
        try:
            hits = store.incr(key)
        except ValueError:  # the window ended between add and incr: open the next one
            continue
        return hits, lambda end=latest_end: store.get(ends_key) or end


def _upsert_sql(table: str) -> str:
    """The one statement that counts: a new key or an ended window starts at 1, with a new end;
    else its count goes up by one. The row is locked for the statement, so none is lost."""
    return (
        f"INSERT INTO {table} (counter_key, hits, ends) VALUES (%s, 1, %s) "
        f"ON CONFLICT (counter_key) DO UPDATE SET "
        f"hits = CASE WHEN {table}.ends <= %s THEN 1 ELSE {table}.hits + 1 END, "
        f"ends = CASE WHEN {table}.ends <= %s THEN excluded.ends ELSE {table}.ends END "
        f"RETURNING hits, ends"
    )


def _count_in_table(key: str, period: int) -> tuple[int, Callable[[], float]]:
    connection = connections[DEFAULT_DB_ALIAS]
    table = connection.ops.quote_name(settings.RATE_COUNT_TABLE)
    now = time.time()
    with connection.cursor() as cursor:
        cursor.execute(_upsert_sql(table), [key, now + period, now, now])
        hits, ends = cursor.fetchone()
        if hits == 1:
            _purge_ended_windows(cursor, table, now)
    return hits, lambda: ends


def _purge_ended_windows(cursor: Any, table: str, now: float) -> None:
    """Rows of keys no longer counting, deleted now and then: the table holds the keys of the
    windows still open, not every address ever seen."""
    global _next_purge
    if now >= _next_purge:
        _next_purge = now + PURGE_EVERY
        cursor.execute(f"DELETE FROM {table} WHERE ends < %s", [now])


def create_table(using: str = DEFAULT_DB_ALIAS) -> None:
    """The database's counts' table, if it is not there yet (every `migrate` calls this)."""
    connection = connections[using]
    table = connection.ops.quote_name(settings.RATE_COUNT_TABLE)
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TABLE IF NOT EXISTS {table} (counter_key varchar(255) NOT NULL PRIMARY KEY, "
            "hits integer NOT NULL, ends double precision NOT NULL)"
        )
