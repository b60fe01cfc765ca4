"""Real servers for the live tests, started as `make serve` starts them (gunicorn with
skyjo_service/gunicorn.conf.py, DEBUG off), since a stream needs a real server: pytest-django's
`live_server` is a plain threaded WSGI server.

They serve a database of their own that this session creates and migrates: a temporary SQLite
file, or, when the run is on PostgreSQL (DATABASE_URL), a database beside the test database,
dropped at the end. The tests reach them over HTTP only, so no test needs `django_db`.

Five servers, started at once, shared by every live test:

- `main`: the deployed shape (a worker per CPU), with short live timings so that streams close,
  and clients resume, within a test's time;
- `other`: a second server, one worker: an action through `main` must reach a stream held here
  (PostgreSQL: by a notification alone, its poll set to 30 s; SQLite: by the poll);
- `small`: one worker, seven threads, at most six streams, no connection kept after use: what
  a disconnected client frees is counted there;
- `tier` and `other_tier`: the stream tier (`python -m skyjo_service.stream_tier`, ASGI), with
  `main`'s and `other`'s live settings. The stream tests take their streams from the fixture
  `tiers`, once from the API servers (`wsgi`) and once from the stream tier (`asgi`): the same
  frames.

Every server sends a comment at least every half second on an idle stream, so that a client
that went away is noticed (its next write fails) within a second.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import httpx
import psycopg
import pytest
from django.conf import settings

from loadtest.server import ROOT, free_port, run_manage, server_environment, stop, wait_until_ready
from tests.api.support import engine_actions

from .support import Follower, Table, act, engine_game, start_game

#: `main`: a comment every half second when idle, a stream closed (and resumed by its client)
#: every 3 s, clients told to reconnect after 250 ms; a stream holds a thread, and an 8-seat
#: game has 9 viewers (some resuming) besides the players' requests.
MAIN = {
    "THREADS": "32",
    "LIVE_HEARTBEAT_SECONDS": "0.5",
    "LIVE_STREAM_SECONDS": "3",
    "LIVE_RETRY_MS": "250",
}
#: `other`: a second server process; a stream starts at most 20 events back.
OTHER = {
    "WORKERS": "1",
    "THREADS": "8",
    "LIVE_HEARTBEAT_SECONDS": "0.5",
    "LIVE_STREAM_BACKLOG": "20",
}
#: `small`: few threads and streams; every connection closed after use (CONN_MAX_AGE=0) and
#: no pool (whose idle connections would be counted too), so the connections counted are the
#: ones held at that moment.
SMALL = {
    "WORKERS": "1",
    "THREADS": "7",
    "LIVE_MAX_STREAMS": "6",
    "LIVE_HEARTBEAT_SECONDS": "0.2",
    "CONN_MAX_AGE": "0",
    "DB_POOL_SIZE": "0",
}
#: Seconds from an action's answer to its view on a stream in the other process.
BOUND = 1.5
#: Settings the live tests choose per server, never inherited from the shell (besides LIVE_*).
_SIZING = ("WORKERS", "THREADS", "CONN_MAX_AGE", "DB_POOL_SIZE")
#: PostgreSQL sessions of `small` carry this name (pg_stat_activity.application_name).
SMALL_APPLICATION = "skyjo-live-small"


@dataclass(frozen=True)
class Database:
    """The servers' database: its URL, and on SQLite its file."""

    url: str
    vendor: str
    path: Path | None = None

    def url_for(self, application: str | None) -> str:
        """The URL, PostgreSQL sessions named `application` (SQLite has no such name)."""
        if self.vendor != "postgresql" or application is None:
            return self.url
        return f"{self.url}?application_name={application}"


@dataclass(frozen=True)
class Server:
    url: str
    pid: int  # gunicorn's master; its workers are its children

    def workers(self) -> list[int]:
        children = Path(f"/proc/{self.pid}/task/{self.pid}/children").read_text().split()
        return [int(child) for child in children]


@dataclass(frozen=True)
class Servers:
    main: Server
    other: Server
    small: Server
    tier: Server
    other_tier: Server
    database: Database


@dataclass(frozen=True)
class Tiers:
    """Where a test opens its streams: `main`'s (actions go to `main` whatever the tier)
    and `other`'s, a server of another process."""

    kind: str  # "wsgi": the API servers; "asgi": the stream tier
    main: str
    other: str


@pytest.fixture(scope="session")
def live_database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    """A database migrated for the servers, of the run's kind."""
    engine = settings.DATABASES["default"]["ENGINE"]
    if engine.endswith("sqlite3"):
        path = tmp_path_factory.mktemp("live") / "live.sqlite3"
        database = Database(f"sqlite:///{path}", "sqlite", path=path)
        _migrate(database)
        yield database
    elif engine.endswith("postgresql"):
        with _postgres_database() as database:
            _migrate(database)
            yield database
    else:
        pytest.skip(f"no live server test for {engine}")


@contextmanager
def _postgres_database() -> Iterator[Database]:
    """A new database on the run's PostgreSQL server, named after this process (several
    runs may share the server), dropped at the end."""
    config = settings.DATABASES["default"]
    name = f"{config['NAME']}_live_{os.getpid()}"[:63]
    user, password = config.get("USER") or "", config.get("PASSWORD") or ""
    host, port = config.get("HOST") or "127.0.0.1", config.get("PORT") or 5432
    credentials = f"{quote(user)}:{quote(password)}" if password else quote(user)
    admin = {"host": host, "port": port, "user": user, "password": password, "dbname": "postgres"}
    with psycopg.connect(**admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield Database(f"postgres://{credentials}@{host}:{port}/{name}", "postgresql")
    finally:
        with psycopg.connect(**admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _environment(database: Database, application: str | None = None, **live: str) -> dict[str, str]:
    """A production environment (DEBUG off, as `make serve`), without the benchmarks' app, and
    with the server's own defaults for what `live` does not set (not this shell's)."""
    env = server_environment(database.url_for(application), BENCH_ENDPOINTS="off")
    for name in [n for n in env if n.startswith("LIVE_") or n in _SIZING]:
        del env[name]
    env.update(live)
    return env


def _migrate(database: Database) -> None:
    run_manage(_environment(database), "migrate", "--noinput", "--verbosity", "0")


def _terminate(processes: list[subprocess.Popen[bytes]]) -> None:
    """Ask every server to stop at once (then `stop` waits for each in turn)."""
    for process in processes:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)


def _command(name: str, port: int) -> list[str]:
    """`make serve`'s command lines: gunicorn (the configuration file says the rest: worker
    class, application, timeouts; WORKERS and THREADS come from the environment, as there),
    and for the tiers `python -m skyjo_service.stream_tier`."""
    bind = f"127.0.0.1:{port}"
    if name.endswith("tier"):
        return [sys.executable, "-m", "skyjo_service.stream_tier", bind]
    config = ROOT / "skyjo_service" / "gunicorn.conf.py"
    return [sys.executable, "-m", "gunicorn", "--config", str(config), "--bind", bind,
            "--no-control-socket"]  # fmt: skip


@pytest.fixture(scope="session")
def servers(live_database: Database, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Servers]:
    """`main`, `other` and `small`, started together; their output in the session's
    temporary folder (`log`), or in the file LIVE_TESTS_LOG names."""
    database = live_database
    other = dict(OTHER)
    if database.vendor == "postgresql":
        other["LIVE_POLL_SECONDS"] = "30"  # only a notification can wake a stream in time
    static = tmp_path_factory.mktemp("static")  # whitenoise's folder; the API needs no file
    environments = {
        "main": _environment(database, **MAIN),
        "other": _environment(database, **other),
        "small": _environment(database, SMALL_APPLICATION, **SMALL),
        "tier": _environment(database, **MAIN),
        "other_tier": _environment(database, **other),
    }
    log_path = Path(os.environ.get("LIVE_TESTS_LOG") or tmp_path_factory.getbasetemp() / "log")
    with ExitStack() as stack, log_path.open("a") as log:
        started = {}
        for name, env in environments.items():
            env["STATIC_ROOT"] = str(static)
            port = free_port()
            command = _command(name, port)
            process = subprocess.Popen(
                command, env=env, cwd=ROOT, stdout=log, stderr=log, start_new_session=True
            )
            stack.callback(stop, process)
            started[name] = (f"http://127.0.0.1:{port}", process)
        stack.callback(_terminate, [process for _, process in started.values()])
        for url, process in started.values():
            wait_until_ready(url, process, timeout=60)
        made = {name: Server(url, process.pid) for name, (url, process) in started.items()}
        yield Servers(**made, database=database)


@pytest.fixture(scope="session", params=["wsgi", "asgi"])
def tiers(request: pytest.FixtureRequest, servers: Servers) -> Tiers:
    """The streams' servers: the API's (gunicorn's threads), then the stream tier's."""
    if request.param == "wsgi":
        return Tiers("wsgi", servers.main.url, servers.other.url)
    return Tiers("asgi", servers.tier.url, servers.other_tier.url)


@pytest.fixture
def streams(tiers: Tiers) -> Iterator[httpx.Client]:
    """A client of the streams' server of `main`'s settings."""
    with httpx.Client(base_url=tiers.main, timeout=30) as client:
        yield client


@pytest.fixture
def client(servers: Servers) -> Iterator[httpx.Client]:
    """A client of `main`."""
    with httpx.Client(base_url=servers.main.url, timeout=30) as client:
        yield client


@pytest.fixture(scope="session")
def finished_table(servers: Servers) -> Table:
    """A 2-seat game played to its end on `main`."""
    with httpx.Client(base_url=servers.main.url, timeout=30) as client:
        table = start_game(client, 2, seed=3)
        for seat, action in engine_actions(2, 3, end_score=1):
            act(client, table.game_id, table.tokens[seat], action)
    return table


@pytest.fixture(scope="session")
def listening(servers: Servers) -> None:
    """`other` hears of `main`'s actions (`hear`)."""
    hear(servers, servers.other.url)


@pytest.fixture(scope="session")
def tiers_listening(servers: Servers, tiers: Tiers) -> None:
    """The streams' `other` (`other` or `other_tier`) hears of `main`'s actions (`hear`)."""
    hear(servers, tiers.other)


def hear(servers: Servers, other: str) -> None:
    """The server at `other` hears of `main`'s actions. Its listener connects at its first
    stream, and an action before that is heard only at the next poll (30 s on PostgreSQL):
    act on a game it streams until an action is heard within the bound, then once more, where
    it stops."""
    actions, states = engine_game(2, seed=13)
    with httpx.Client(base_url=servers.main.url, timeout=30) as client:
        table = start_game(client, 2, seed=13)
        follower = Follower(other, table.game_id, None, until=states[-1].version)
        follower.start()
        follower.wait_version(states[0].version, timeout=10)
        heard = False
        for (seat, action), state in zip(actions, states[1:], strict=True):
            follower.until = state.version if heard else follower.until
            act(client, table.game_id, table.tokens[seat], action)
            if heard:
                break
            heard = follower.arrival(state.version, BOUND) is not None
        follower.finish()
    assert heard, "the other server never heard of an action in time"
