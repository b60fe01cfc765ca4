"""Two real server processes (gunicorn, as `make serve` runs it) on loopback, serving the test
database that pytest-django created: `test_<name>_<pid>` on PostgreSQL, the test file on SQLite.

Tests that use them must commit their data (`django_db(transaction=True)`), since the servers
read it through their own connections. The servers stop before the test database is dropped.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
from django.db import connection

from loadtest.server import RunningServer, run_manage, running_server, server_environment

from .support import database_url


@pytest.fixture(scope="package")
def servers(
    django_db_setup: Any, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[RunningServer]]:
    """Two gunicorn servers (one worker process each, threaded) on the test database, with
    static files collected as `make serve` does (into a temporary STATIC_ROOT)."""
    with django_db_blocker.unblock():
        url = database_url(connection.settings_dict)
    static_root = tmp_path_factory.mktemp("static")
    # As deployed: gthread workers, persistent connections, whitenoise (DEBUG off).
    env = server_environment(url, STATIC_ROOT=str(static_root))
    run_manage(env, "collectstatic", "--noinput", "--verbosity", "0")
    with ExitStack() as stack:
        started = [stack.enter_context(running_server(env, workers=1, threads=6)) for _ in range(2)]
        yield started


@pytest.fixture
def http(servers: list[RunningServer]) -> Iterator[list[httpx.Client]]:
    """A client for each server."""
    with ExitStack() as stack:
        yield [stack.enter_context(httpx.Client(base_url=s.url, timeout=60)) for s in servers]
