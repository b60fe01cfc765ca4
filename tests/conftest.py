"""Shared fixtures: throttling off for deterministic tests, each test starting with this
process's memory of warm games empty, and an API client.

Helpers that drive games over HTTP are in `tests/api/support.py`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from games.api.throttling import AddressRateThrottle, SeatTokenRateThrottle
from games.live.fanout import hub
from games.store.warm import WARM


@pytest.fixture(autouse=True)
def _no_throttling(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Deterministic tests: no rate limits (DRF binds throttle classes at import time, so the
    class attribute is patched; a test may patch it back to check 429)."""
    monkeypatch.setattr(APIView, "throttle_classes", [])
    cache.clear()
    yield
    cache.clear()


#: Bots at once in every test (R15): the service's default pace (700 ms between two bot
#: actions while a person is seated) would make every test with a person and bots wait, and
#: `run_jobs` runs only the jobs already due. The servers the tests start inherit this
#: environment (a caller may pass another pace: tests/web/browser/test_pace.py); this
#: process's settings are read before this file, so `_bots_at_once` sets them.
NO_PACE = "0"
os.environ.setdefault("SKYJO_BOT_PACE_MS", NO_PACE)


@pytest.fixture(autouse=True)
def _bots_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """This process's bots at once, as its servers' (`NO_PACE`); a test of the pace sets its
    own."""
    monkeypatch.setattr(settings, "SKYJO_BOT_PACE_MS", int(NO_PACE))


@pytest.fixture(autouse=True)
def _no_warm_games() -> Iterator[None]:
    """Each test's games start cold in this process (games.warm): a test's database is rolled
    back, and what this process remembered of it must go too."""
    WARM.clear()
    yield
    WARM.clear()


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.fixture
def rates(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Throttling back on, with the settings' classes; each test sets tiny rates here (the
    pages count with the API's throttles, so their tests use it too)."""
    monkeypatch.setattr(APIView, "throttle_classes", [AddressRateThrottle, SeatTokenRateThrottle])
    rates = {
        "address": "1000/min",
        "seat": "1000/min",
        "game_create": "1000/hour",
        "bot_seat": "1000/hour",
        "challenge_create": "1000/hour",
    }
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    cache.clear()
    return rates


#: This folder: the folders below are named by their path relative to it.
TESTS = Path(__file__).resolve().parent
#: Test folders whose every test starts real processes (servers, generators, npm, a browser),
#: with the folders nested in them too, unless `IN_PROCESS_FOLDERS` takes one back.
SERVER_FOLDERS = {"production", "clients", "live", "web/browser"}
#: Folders inside a server folder whose tests run in this process alone (tests/web/pages needs
#: no entry: tests/web is no server folder).
IN_PROCESS_FOLDERS = {"live/inprocess"}


def in_server_folder(path: Path) -> bool:
    """Whether the test file at `path` is in a server folder: its deepest folder listed in
    `SERVER_FOLDERS` or `IN_PROCESS_FOLDERS` decides, so that a room's in-process tests can
    sit beside the ones that need servers."""
    try:
        parts = path.parent.relative_to(TESTS).parts
    except ValueError:  # not under tests/
        return False
    for depth in range(len(parts), 0, -1):
        folder = "/".join(parts[:depth])
        if folder in IN_PROCESS_FOLDERS:
            return False
        if folder in SERVER_FOLDERS:
            return True
    return False


#: Tests that never touch the configured database: each starts its processes on an SQLite file
#: of its own whatever DATABASE_URL says (the browser tests' sites, the benchmarks' smoke runs
#: with `--db sqlite`, servers and `manage.py` commands run on a temporary SQLite file). A
#: folder, a file or a test (`file::name`), relative to this folder. `make test-postgres` leaves
#: them out (`-m "not sqlite_only"`): on PostgreSQL they would run again exactly as on SQLite.
SQLITE_ONLY = {
    "web/browser",
    "api/test_security.py::test_production_starts_sends_security_headers_and_redirects_to_https",
    "commands/test_commands_as_run.py",
    "play/test_verify_canceled_games.py",
    "production/test_bench_devserver.py",
    "production/test_bench_load.py",
    "production/test_bench_stream.py",
    "production/test_benchmarks_app.py",
    "production/test_request_turns.py",
    "production/test_stream_shutdown.py",
    "production/test_workers.py::test_manage_py_run_serves_with_a_worker_and_a_stream_tier_and_one_ctrl_c_stops_all",
}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "sqlite_only: runs on an SQLite file of its own whatever DATABASE_URL says "
        "(tests/conftest.py's SQLITE_ONLY); `make test-postgres` leaves it out",
    )
    config.addinivalue_line(
        "markers",
        "no_db: opens no database, in this process or another (tests/conftest.py's "
        "`opens_no_database`); `make test-postgres` leaves it out",
    )


#: The fixtures through which a test reaches the database in this process (pytest-django's,
#: and `django_db_setup` for a fixture that lifts the block itself).
DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
    "django_db_setup",
    "live_server",
}


def opens_no_database(item: pytest.Item) -> bool:
    """Whether `item` can open no database: pytest-django refuses every query of a test
    without the `django_db` marker or a database fixture, and a test starting no server opens
    none elsewhere (a test starting a process that opens the configured database is `server`).
    Derived, not listed, so that a test that starts using the database runs on PostgreSQL again
    without anyone remembering to say so. A `server` test whose processes open no database
    says so itself (`pytest.mark.no_db`)."""
    fixtures = set(getattr(item, "fixturenames", ()))
    return (
        item.get_closest_marker("django_db") is None
        and not fixtures & DATABASE_FIXTURES
        and item.get_closest_marker("server") is None
    )


def is_sqlite_only(item: pytest.Item) -> bool:
    """Whether the test `item`, its file or a folder of it is listed in `SQLITE_ONLY`."""
    try:
        relative = item.path.relative_to(TESTS)
    except ValueError:  # not under tests/
        return False
    test = f"{relative.as_posix()}::{getattr(item, 'originalname', item.name)}"
    return test in SQLITE_ONLY or any(
        "/".join(relative.parts[:depth]) in SQLITE_ONLY
        for depth in range(1, len(relative.parts) + 1)
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark as `server` every test that starts a live server or lives in a server folder, so
    `make test-fast` (`-m "not server and not slow"`) leaves them out without a list to keep;
    as `sqlite_only` those of `SQLITE_ONLY`, and as `no_db` those that open no database: on
    PostgreSQL both would only run again as on SQLite, so `make test-postgres` leaves them out."""
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        if "live_server" in fixtures or in_server_folder(item.path):
            item.add_marker(pytest.mark.server)
        if is_sqlite_only(item):
            item.add_marker(pytest.mark.sqlite_only)
        if opens_no_database(item):
            item.add_marker(pytest.mark.no_db)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None) -> Iterator[None]:
    """pytest-django's test databases, and at their end this process's live hub stopped (an
    in-process stream starts its PostgreSQL listener, whose connection would keep the test
    database from being dropped)."""
    yield
    hub.stop()
