"""The fixed-window counter under the rate limits, on each store it counts in: a window opens
with a key's first request, the request past the limit is refused with the time left in the
window, and the next window starts afresh. (Parallel clients through real servers:
tests/production/test_shared_rate_limits.py.)"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import override_settings

from games.api import window_counter
from games.api.window_counter import take

pytestmark = pytest.mark.django_db

DATABASE_CACHE = {
    "default": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": settings.RATE_LIMIT_CACHE_TABLE,
    }
}
MEMORY_CACHE = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


@pytest.fixture(params=["database", "memory"])
def store(request: pytest.FixtureRequest) -> Iterator[str]:
    with override_settings(CACHES=DATABASE_CACHE if request.param == "database" else MEMORY_CACHE):
        cache.clear()
        yield request.param


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The counter's time, moved by the test."""
    now = [1_000_000.0]
    monkeypatch.setattr(window_counter.time, "time", lambda: now[0])
    return now


def test_the_request_past_the_limit_waits_for_the_window_to_end(
    store: str, clock: list[float]
) -> None:
    assert [take("k", 2, 60), take("k", 2, 60)] == [None, None]
    clock[0] += 20
    assert take("k", 2, 60) == pytest.approx(40)
    assert take("other", 2, 60) is None  # each key its own count


def test_the_next_window_starts_afresh(store: str, clock: list[float]) -> None:
    for _ in range(3):
        take("k", 2, 60)
    clock[0] += 61
    assert take("k", 2, 60) is None


@override_settings(CACHES=DATABASE_CACHE)
def test_the_database_counts_in_a_table_of_its_own() -> None:
    """Not in the database cache, whose `incr` reads and then writes."""
    for _ in range(3):
        take("k", 5, 60)
    table = connection.ops.quote_name(settings.RATE_COUNT_TABLE)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT counter_key, hits FROM {table}")
        assert cursor.fetchall() == [(":1:k", 3)]
