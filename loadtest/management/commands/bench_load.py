"""`manage.py bench_load`: the production server under K concurrent games, over real HTTP.

It starts the server `make serve` runs (gunicorn, skyjo_service/gunicorn.conf.py) on loopback
against a database of its own, never the configured one:

* `--db sqlite`: a new SQLite file in a temporary folder (WAL, IMMEDIATE writes);
* `--db postgres`: the database named by `--postgres-url` (default `skyjo_bench` on
  127.0.0.1:5432), created with psycopg when missing; its tables are emptied at each run.

It is migrated, then the server runs with THROTTLING=off and BENCH_ENDPOINTS=on. Three phases
follow, each `--seconds` measured with `--games` concurrent clients (threads, one keep-alive
httpx connection each): the paced one (3.) first, then the saturated ones, split into
`--rounds` slices run alternately (bare,
games, games, bare, bare...), so that the machine's changing speed (other tenants, these
machines are noisy) weighs on both alike; each slice starts with `--warmup` seconds not
counted, each phase keeps its clients (and their games) from one slice to the next, and the
ratio is printed round by round too:

1. bare: each client POSTs `/bench/insert` (a DRF view inserting one row) in a loop;
2. games: each client creates a 2-seat game, joins both seats, and plays it with engine greedy
   players choosing from the served `legal_actions` (reading the view of the seat to move when
   the turn passes), then starts another game; as fast as it can (saturation);
   With `--accounts`, a third saturated phase alternates with these two: the same games,
   played by bot accounts (each client signs up two, `POST /api/v1/accounts`) with their
   personal tokens instead of seat tokens; `account_ratio` is its actions per second over the
   seat tokens' (an account's token is looked up once a second, never once per request);
3. paced: the same, the players pausing about `--think-ms` (0.5 to 1.5 times, at random)
   before each action (skipped with `--think-ms 0`). It runs first: after the saturated
   phases its latency would also carry the database catching up with them (checkpoints,
   vacuum) rather than normal play.

It prints the turn actions per second at saturation and the bare endpoint's (and their ratio:
the throughput figures), the actions' p50/p95/p99 latency in the paced phase (at saturation,
latency only measures the queue: K clients / throughput), the CPU each request cost the server,
the load generator and PostgreSQL, the CPU share other processes took (noise), and the errors:
any answer other than the expected 2xx (one client drives each game, so there is no legal
race) and any transport failure. `--json` prints one JSON object instead. The command exits
with status 1 when there were errors.
"""

from __future__ import annotations

import functools
import json
import math
import os
import platform
import random
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
import orjson
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.models import Account, InboxEntry, PersonalToken
from engine import GreedyPlayer, action_to_data
from engine.view import view_from_data
from games.api.views.turns import action_segment
from games.models import Game, GameCheckpoint, GameEvent, IdempotentResponse, Seat, Status
from loadtest.models import Ping
from loadtest.server import (
    DEFAULT_THREADS,
    DEFAULT_WORKER_CLASS,
    DEFAULT_WORKERS,
    WORKER_CLASSES,
    RunningServer,
    machine_cpu,
    process_tree_cpu,
    processes_cpu,
    run_manage,
    running_server,
    server_environment,
)

DEFAULT_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/skyjo_bench"
GAMES = "/api/v1/games"
BARE = "/bench/insert"
#: Targets on the reference machine (2 cores, PostgreSQL): see docs/PERFORMANCE.md.
TARGET_RATIO = 0.5
TARGET_P99_MS = 50.0
#: The paced phase's think time per move: a quick player (people often take several seconds).
DEFAULT_THINK_MS = 1000.0


# The database


@contextmanager
def bench_database(db: str, postgres_url: str) -> Iterator[str]:
    """The URL of an empty, dedicated database (dropped afterwards when it is SQLite)."""
    if db == "sqlite":
        with tempfile.TemporaryDirectory(prefix="skyjo-bench-") as folder:
            yield f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        return
    ensure_postgres_database(postgres_url)
    yield postgres_url


def ensure_postgres_database(url: str) -> None:
    import psycopg
    from psycopg import sql

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if not name:
        raise CommandError("--postgres-url must name a database")
    configured = settings.DATABASES["default"]
    if configured["ENGINE"].endswith("postgresql") and configured["NAME"] == name:
        # Each run empties the benchmark's tables: never the service's own database.
        raise CommandError(f"{name!r} is the configured database; name a dedicated one")
    maintenance = urlunsplit(parts._replace(path="/postgres"))
    try:
        with psycopg.connect(maintenance, autocommit=True, connect_timeout=5) as conn:
            found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
            if found is None:
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    except psycopg.OperationalError as error:
        raise CommandError(f"PostgreSQL is not reachable at {maintenance}: {error}") from None


def empty_tables(url: str) -> None:
    """Start each PostgreSQL run from empty tables (comparable runs)."""
    import psycopg

    models = (
        IdempotentResponse,
        GameCheckpoint,
        GameEvent,
        Seat,
        Game,
        Ping,
        InboxEntry,
        PersonalToken,
        Account,
    )
    tables = [m._meta.db_table for m in models]
    with psycopg.connect(url, autocommit=True) as conn:
        # CASCADE: also the tables that refer to these (holds, rematches...), whichever exist.
        conn.execute("TRUNCATE " + ", ".join(f'"{table}"' for table in tables) + " CASCADE")


# Measuring


@dataclass
class Tally:
    """What one client thread saw: (finish time, latency) per counted request, and errors."""

    samples: list[tuple[float, float]] = field(default_factory=list)
    others: list[float] = field(default_factory=list)  # finish times of the other requests
    games_started: int = 0
    games_finished: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    first_errors: list[str] = field(default_factory=list)

    def error(self, what: str, detail: str) -> None:
        self.errors[what] += 1
        if len(self.first_errors) < 5:
            self.first_errors.append(f"{what}: {detail[:300]}")


class Failed(Exception):
    """A request answered something else than expected (counted as an error)."""


@dataclass(frozen=True)
class Window:
    start: float  # measuring starts (after the warm-up)
    stop: float


@dataclass
class CpuUse:
    """CPU seconds spent during the measured window: by the server (gunicorn and its workers),
    by this load generator, by PostgreSQL (every process called postgres, SQLite runs inside
    the server), and by everything else on the machine."""

    server: float = 0.0
    client: float = 0.0
    database: float = 0.0
    machine: float = 0.0

    @classmethod
    def now(cls, server_pid: int, *, postgres: bool) -> CpuUse:
        times = os.times()
        return cls(
            process_tree_cpu(server_pid),
            times.user + times.system,
            processes_cpu("postgres") if postgres else 0.0,  # SQLite runs in the server
            machine_cpu(),
        )

    def __add__(self, other: CpuUse) -> CpuUse:
        return CpuUse(
            self.server + other.server,
            self.client + other.client,
            self.database + other.database,
            self.machine + other.machine,
        )

    def __sub__(self, other: CpuUse) -> CpuUse:
        return CpuUse(
            self.server - other.server,
            self.client - other.client,
            self.database - other.database,
            self.machine - other.machine,
        )

    def per_request_ms(self, requests: int) -> dict[str, float]:
        """Milliseconds of CPU per request, by consumer."""
        if not requests or not self.machine:
            return {}
        rest = max(0.0, self.machine - self.server - self.client - self.database)
        return {
            name: round(seconds / requests * 1000, 2)
            for name, seconds in (
                ("server", self.server),
                ("load_generator", self.client),
                ("postgres", self.database),
                ("other", rest),
            )
            if name != "postgres" or self.database
        }

    def other_share(self, seconds: float) -> float:
        """The share of the machine's CPUs that processes foreign to the benchmark used (other
        sessions, the kernel): high values mean noisy figures."""
        rest = max(0.0, self.machine - self.server - self.client - self.database)
        return round(rest / (seconds * (os.cpu_count() or 1)), 3) if seconds else 0.0


def percentile(sorted_values: list[float], fraction: float) -> float:
    """Nearest-rank percentile of sorted values (0 when there are none)."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


@dataclass
class Gate:
    """When a pool's clients may send requests: open during their phase's slices, closed in
    between (a client in the middle of a game waits there, its game kept), and finished once
    the benchmark is over."""

    _open: threading.Event = field(default_factory=threading.Event)
    finished: bool = False

    def wait(self) -> bool:
        """Block while closed; answers False once finished (the client stops)."""
        self._open.wait()
        return not self.finished

    def open(self) -> None:
        self._open.set()

    def close(self) -> None:
        self._open.clear()

    def finish(self) -> None:
        self.finished = True
        self._open.set()


@dataclass
class Pool:
    """One phase's clients (threads) and what was measured of them: each client's tally, the
    measured windows of the phase's slices, and the CPU used during them."""

    tallies: list[Tally]
    gate: Gate = field(default_factory=Gate)
    windows: list[Window] = field(default_factory=list)
    cpu: CpuUse = field(default_factory=CpuUse)


@contextmanager
def client_pool(
    server: RunningServer, clients: int, body: Callable[[httpx.Client, int, Gate, Tally], None]
) -> Iterator[Pool]:
    """`clients` threads, each running `body(client, index, gate, tally)` with one keep-alive
    connection, sending requests only while the pool's gate is open."""
    pool = Pool([Tally() for _ in range(clients)])

    def thread_main(index: int) -> None:
        limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
        with httpx.Client(base_url=server.url, timeout=30, limits=limits) as client:
            try:
                body(client, index, pool.gate, pool.tallies[index])
            except Exception as error:  # a client that stops is an error, not a crash
                pool.tallies[index].error("exception", repr(error))

    threads = [threading.Thread(target=thread_main, args=(i,), daemon=True) for i in range(clients)]
    for thread in threads:
        thread.start()
    try:
        yield pool
    finally:
        pool.gate.finish()
        for thread in threads:
            thread.join(timeout=60)


def run_slice(
    pool: Pool, server: RunningServer, warmup: float, seconds: float, *, postgres: bool
) -> None:
    """Let the pool's clients work for `warmup` seconds, then measure `seconds` more."""
    pool.gate.open()
    time.sleep(warmup)
    before, start = CpuUse.now(server.pid, postgres=postgres), time.monotonic()
    time.sleep(seconds)
    used, stop = CpuUse.now(server.pid, postgres=postgres) - before, time.monotonic()
    pool.gate.close()
    pool.windows.append(Window(start, stop))
    pool.cpu += used


def _within(moment: float, windows: list[Window]) -> bool:
    return any(window.start <= moment <= window.stop for window in windows)


def summarise(pool: Pool) -> dict[str, Any]:
    """A phase's figures over its measured windows (requests finishing in between are left
    out: they belong to no measured stretch)."""
    latencies = sorted(
        latency
        for tally in pool.tallies
        for finished, latency in tally.samples
        if _within(finished, pool.windows)
    )
    seconds = sum(window.stop - window.start for window in pool.windows)
    errors: Counter[str] = Counter()
    for tally in pool.tallies:
        errors.update(tally.errors)
    others = sum(
        1 for tally in pool.tallies for moment in tally.others if _within(moment, pool.windows)
    )
    return {
        "count": len(latencies),
        "per_s": round(len(latencies) / seconds, 1),
        "other_per_s": round(others / seconds, 1),
        "cpu_ms": pool.cpu.per_request_ms(len(latencies)),
        "other_cpu_share": pool.cpu.other_share(seconds),
        "p50_ms": round(percentile(latencies, 0.50) * 1000, 2),
        "p95_ms": round(percentile(latencies, 0.95) * 1000, 2),
        "p99_ms": round(percentile(latencies, 0.99) * 1000, 2),
        "max_ms": round((latencies[-1] if latencies else 0) * 1000, 2),
        "errors": sum(errors.values()),
        "error_kinds": dict(errors),
        "first_errors": [e for tally in pool.tallies for e in tally.first_errors][:5],
        "games_started": sum(tally.games_started for tally in pool.tallies),
        "games_finished": sum(tally.games_finished for tally in pool.tallies),
    }


def round_ratios(bare: Pool, games: Pool) -> list[float]:
    """Actions per second over bare inserts per second, round by round (their spread)."""

    def rate(pool: Pool, window: Window) -> float:
        count = sum(
            1
            for tally in pool.tallies
            for finished, _ in tally.samples
            if window.start <= finished <= window.stop
        )
        return count / (window.stop - window.start)

    ratios = []
    for bare_window, games_window in zip(bare.windows, games.windows, strict=True):
        bare_rate = rate(bare, bare_window)
        ratios.append(round(rate(games, games_window) / bare_rate, 3) if bare_rate else 0.0)
    return ratios


def bare_client(client: httpx.Client, index: int, gate: Gate, tally: Tally) -> None:
    while gate.wait():
        started = time.monotonic()
        try:
            answer = client.post(BARE, json={"note": f"client {index}"})
        except httpx.TransportError as error:
            tally.error("transport", repr(error))
            continue
        finished = time.monotonic()
        if answer.status_code != 201:
            tally.error(str(answer.status_code), answer.text)
            continue
        tally.samples.append((finished, finished - started))


def game_client(
    client: httpx.Client,
    index: int,
    gate: Gate,
    tally: Tally,
    *,
    think: float = 0.0,
    accounts: bool = False,
) -> None:
    """Play games one after another; with `think` (seconds), the player pauses about that long
    (0.5 to 1.5 times, at random) before each of its actions; with `accounts`, as two bot
    accounts of its own, by their personal tokens."""
    player = GreedyPlayer()
    rng = random.Random(index)
    games = 0
    personal = _sign_up_two(client, index) if accounts else None
    while gate.wait():
        games += 1
        pause = (lambda: rng.uniform(0.5, 1.5) * think) if think else None
        try:
            play_one_game(
                client,
                player,
                seed=index * 1_000_000 + games,
                gate=gate,
                tally=tally,
                pause=pause,
                personal=personal,
            )
        except Failed as failure:
            tally.error(*failure.args)
        except httpx.TransportError as error:
            tally.error("transport", repr(error))


def _sign_up_two(client: httpx.Client, index: int) -> list[str]:
    """Two bot accounts for client `index` (handles of its own), their first tokens."""
    made = []
    for seat in range(2):
        body = {"handle": f"bench{index}s{seat}", "kind": "bot"}
        made.append(expect(client.post("/api/v1/accounts", json=body), 201)["token"])
    return made


def expect(answer: httpx.Response, status: int) -> dict[str, Any]:
    if answer.status_code != status:
        code = ""
        if answer.headers.get("content-type", "").startswith("application/problem+json"):
            code = " " + str(answer.json().get("code"))
        raise Failed(f"{answer.status_code}{code}", f"{answer.request.url}: {answer.text}")
    data: dict[str, Any] = orjson.loads(answer.content)  # the load generator's CPU is shared
    return data


def play_one_game(
    client: httpx.Client,
    player: GreedyPlayer,
    *,
    seed: int,
    gate: Gate,
    tally: Tally,
    pause: Callable[[], float] | None = None,
    personal: list[str] | None = None,
) -> None:
    """Create a 2-seat game, join it (as guests, or with the `personal` tokens of two
    accounts), play it with `player` until it ends or the benchmark does, waiting whenever the
    gate closes (`pause()`: seconds to think before each action)."""
    game = expect(client.post(GAMES, json={"seats": 2, "seed": seed}), 201)
    url = f"{GAMES}/{game['id']}"
    tokens = []
    last: dict[str, Any] = {}
    for seat in range(2):
        if personal is None:
            joined = expect(client.post(f"{url}/players", json={"name": f"Bot {seat}"}), 201)
            tokens.append(joined["token"])
        else:
            headers = {"Authorization": f"Bearer {personal[seat]}"}
            joined = expect(client.post(f"{url}/players", json={}, headers=headers), 201)
            tokens.append(personal[seat])
        last = joined["game"]
    tally.others.extend([time.monotonic()] * 3)
    tally.games_started += 1
    seats = len(tokens)
    while gate.wait():
        if last["status"] == Status.FINISHED:
            tally.games_finished += 1
            return
        if not last["legal_actions"]:  # the turn passed: read the view of the seat to move
            seat = last["current_seat"]
            if seat is None:  # setup: the next seat with reveals left
                seat = (last["you"] + 1) % seats
            headers = {"Authorization": f"Bearer {tokens[seat]}"}
            last = expect(client.get(url, headers=headers), 200)
            tally.others.append(time.monotonic())
            continue
        seat = last["you"]
        data = action_to_data(player.choose(view_from_data(last)))
        kind = data.pop("action")
        if pause is not None:
            time.sleep(pause())
            if not gate.wait():
                return
        headers = {"Authorization": f"Bearer {tokens[seat]}"}
        started = time.monotonic()
        answer = client.post(f"{url}/actions/{action_segment(kind)}", json=data, headers=headers)
        finished = time.monotonic()
        last = expect(answer, 200)
        tally.samples.append((finished, finished - started))


# The command


class Command(BaseCommand):
    help = "Load-test the production server: K concurrent games over HTTP vs a bare insert."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
        parser.add_argument("--postgres-url", default=DEFAULT_POSTGRES_URL)
        parser.add_argument("--games", type=int, default=32, help="concurrent games (clients)")
        parser.add_argument("--seconds", type=float, default=20.0, help="measured, per phase")
        parser.add_argument(
            "--rounds",
            type=int,
            default=4,
            help="the bare and games phases each split into this many slices, alternated",
        )
        parser.add_argument("--warmup", type=float, default=1.0, help="not counted, per slice")
        parser.add_argument("--worker-class", choices=sorted(WORKER_CLASSES))
        parser.add_argument("--workers", type=int, default=None, help="gunicorn processes")
        parser.add_argument("--threads", type=int, default=None, help="threads per worker")
        parser.add_argument(
            "--conn-max-age", type=int, default=None, help="CONN_MAX_AGE for the server"
        )
        parser.add_argument(
            "--think-ms",
            type=float,
            default=DEFAULT_THINK_MS,
            help="a third phase: players pause about this long before each action; its "
            "latencies are p50/p95/p99 (0: no such phase, the saturated latencies are)",
        )
        parser.add_argument(
            "--accounts",
            action="store_true",
            help="a third saturated phase: the same games played with personal tokens of bot "
            "accounts; `account_ratio` is its actions per second over the seat tokens'",
        )
        parser.add_argument("--server-log", default=None, help="append the server's output here")
        parser.add_argument(
            "--profile",
            default=None,
            metavar="DIR",
            help="profile the server's requests (cProfile, by kind) into DIR; print the top "
            "entries with `python -m loadtest.profiling DIR` (slows the server: figures of such "
            "a run are not comparable)",
        )
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args: Any, **options: Any) -> None:
        worker_class = options["worker_class"] or DEFAULT_WORKER_CLASS
        workers = options["workers"] or DEFAULT_WORKERS
        threads = options["threads"] or DEFAULT_THREADS
        conn_max_age = options["conn_max_age"]
        if conn_max_age is None:  # ASGI: Django wants no persistent connections
            conn_max_age = 0 if worker_class == "uvicorn" else 60
        clients, warmup, seconds = options["games"], options["warmup"], options["seconds"]
        think = options["think_ms"] / 1000
        if clients < 1 or seconds <= 0 or warmup < 0 or think < 0:
            raise CommandError("--games must be at least 1, --seconds positive")
        rounds = options["rounds"]
        if rounds < 1:
            raise CommandError("--rounds must be at least 1")
        pools: dict[str, Pool] = {}
        with ExitStack() as stack:
            url = stack.enter_context(bench_database(options["db"], options["postgres_url"]))
            env = server_environment(url, CONN_MAX_AGE=str(conn_max_age))
            if options["profile"]:
                env["SKYJO_PROFILE_DIR"] = str(Path(options["profile"]).resolve())
            run_manage(env, "migrate", "--noinput")
            if options["db"] == "postgres":
                empty_tables(url)
            log = open(options["server_log"], "a") if options["server_log"] else None  # noqa: SIM115
            if log is not None:
                stack.enter_context(log)
            server = stack.enter_context(
                running_server(
                    env, workers=workers, threads=threads, worker_class=worker_class, log=log
                )
            )
            postgres = options["db"] == "postgres"
            if think:
                # First: measured after the saturated phases, latency also carried the
                # database's catching up with them (checkpoints, vacuum), not normal play.
                paced = functools.partial(game_client, think=think)
                with client_pool(server, clients, paced) as paced_pool:
                    pools["paced"] = paced_pool
                    # Every client creates and joins its first game at once: let that pass.
                    run_slice(paced_pool, server, warmup + 2 * think, seconds, postgres=postgres)
            as_accounts = functools.partial(game_client, accounts=True)
            with (
                client_pool(server, clients, bare_client) as bare_pool,
                client_pool(server, clients, game_client) as games_pool,
                client_pool(server, clients if options["accounts"] else 0, as_accounts) as mine,
            ):
                pools.update(bare=bare_pool, games=games_pool)
                phases = [bare_pool, games_pool]
                if options["accounts"]:
                    pools["accounts"] = mine
                    phases.append(mine)
                for index in range(rounds):
                    # ABBA (bare, games, games, bare...): a drift of the machine's speed weighs
                    # on both alike. The clients keep their games between slices.
                    for pool in phases if index % 2 == 0 else phases[::-1]:
                        run_slice(pool, server, warmup, seconds / rounds, postgres=postgres)
        summary = {name: summarise(pool) for name, pool in pools.items()}
        bare, play = summary["bare"], summary["games"]
        latency = summary.get("paced", play)
        errors = sum(phase["errors"] for phase in summary.values())
        result = {
            "db": options["db"],
            "server": {
                "worker_class": worker_class,
                "workers": workers,
                "threads": threads if worker_class == "gthread" else 1,
                "conn_max_age": conn_max_age,
            },
            "games": clients,
            "seconds": seconds,
            "warmup": warmup,
            "think_ms": options["think_ms"],
            "cpus": _cpus(),
            # Throughput: every client as fast as it can (saturation).
            "actions_per_s": play["per_s"],
            "actions": play["count"],
            "other_requests_per_s": play["other_per_s"],
            "bare_per_s": bare["per_s"],
            "ratio": round(play["per_s"] / bare["per_s"], 3) if bare["per_s"] else 0.0,
            "rounds": rounds,
            "round_ratios": round_ratios(pools["bare"], pools["games"]),
            # Latency of the actions at `games` concurrent games whose players think
            # `think_ms` per move (the saturated figures when --think-ms is 0).
            "p50_ms": latency["p50_ms"],
            "p95_ms": latency["p95_ms"],
            "p99_ms": latency["p99_ms"],
            "max_ms": latency["max_ms"],
            "paced_actions_per_s": latency["per_s"],
            "saturated_p50_ms": play["p50_ms"],
            "saturated_p95_ms": play["p95_ms"],
            "saturated_p99_ms": play["p99_ms"],
            "bare_p50_ms": bare["p50_ms"],
            "bare_p99_ms": bare["p99_ms"],
            "cpu_ms_per_action": play["cpu_ms"],
            "cpu_ms_per_bare": bare["cpu_ms"],
            # CPU share used by processes foreign to the benchmark, per phase: noise.
            "other_cpu_share": {name: phase["other_cpu_share"] for name, phase in summary.items()},
            "games_started": play["games_started"],
            "games_finished": play["games_finished"],
            "errors": errors,
            "error_kinds": {
                k: v for phase in summary.values() for k, v in phase["error_kinds"].items()
            },
            "first_errors": [e for phase in summary.values() for e in phase["first_errors"]][:5],
        }
        if "accounts" in summary:
            account_phase = summary["accounts"]
            result["account_actions_per_s"] = account_phase["per_s"]
            result["account_ratio"] = (
                round(account_phase["per_s"] / play["per_s"], 3) if play["per_s"] else 0
            )
            result["account_round_ratios"] = round_ratios(pools["games"], pools["accounts"])
        result["targets_met"] = (
            result["ratio"] >= TARGET_RATIO and result["p99_ms"] < TARGET_P99_MS and errors == 0
        )
        if options["json"]:
            self.stdout.write(json.dumps(result))
        else:
            self.stdout.write(report(result))
        if errors:
            raise CommandError(f"{errors} errors: {result['first_errors']}")


def _cpus() -> int:
    return os.cpu_count() or 1


def report(r: dict[str, Any]) -> str:
    server = r["server"]
    ok = {True: "met", False: "MISSED"}
    paced = r["think_ms"] > 0
    lines = [
        f"bench_load: {r['games']} concurrent games, {r['seconds']:g} s measured per phase "
        f"(bare and games alternated in {r['rounds']} rounds, {r['warmup']:g} s warm-up per "
        f"slice), db={r['db']}, {r['cpus']} CPUs, "
        f"Python {platform.python_version()}",
        f"server: gunicorn {server['worker_class']}, {server['workers']} workers x "
        f"{server['threads']} threads, CONN_MAX_AGE={server['conn_max_age']}",
        "saturation (every client as fast as it can):",
        f"  actions:     {r['actions_per_s']:7.1f}/s ({r['actions']} actions), "
        f"p50 {r['saturated_p50_ms']:.1f} ms, p95 {r['saturated_p95_ms']:.1f} ms, "
        f"p99 {r['saturated_p99_ms']:.1f} ms",
        f"               + {r['other_requests_per_s']:.1f}/s other requests (views of the seat "
        f"to move, creates, joins); {r['games_started']} games started, "
        f"{r['games_finished']} finished",
        f"  bare insert: {r['bare_per_s']:7.1f}/s, p50 {r['bare_p50_ms']:.1f} ms, "
        f"p99 {r['bare_p99_ms']:.1f} ms",
        f"  CPU ms per action (with its share of reads): {_cpu(r['cpu_ms_per_action'])}",
        f"  CPU ms per bare insert: {_cpu(r['cpu_ms_per_bare'])}",
        f"  ratio actions/bare: {r['ratio']:.3f} (target >= {TARGET_RATIO}: "
        f"{ok[r['ratio'] >= TARGET_RATIO]}); round by round: "
        + " ".join(f"{ratio:.3f}" for ratio in r["round_ratios"]),
    ]
    if "account_ratio" in r:
        lines.append(
            f"  with personal tokens of accounts: {r['account_actions_per_s']:7.1f}/s, "
            f"{r['account_ratio']:.3f} of the seat tokens' (target >= 0.95); round by round: "
            + " ".join(f"{ratio:.3f}" for ratio in r["account_round_ratios"])
        )
    if paced:
        lines.append(
            f"paced ({r['games']} games, players thinking ~{r['think_ms']:g} ms per move):"
        )
    lines += [
        f"  actions:     {r['paced_actions_per_s']:7.1f}/s, p50 {r['p50_ms']:.1f} ms, "
        f"p95 {r['p95_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms, max {r['max_ms']:.1f} ms "
        f"(p99 target < {TARGET_P99_MS:g} ms: {ok[r['p99_ms'] < TARGET_P99_MS]})"
    ]
    noise = ", ".join(f"{name} {share:.0%}" for name, share in r["other_cpu_share"].items())
    lines.append(f"CPU used by other processes (noise): {noise}")
    lines.append(f"errors: {r['errors']}" + (f" {r['error_kinds']}" if r["errors"] else ""))
    return "\n".join(lines)


def _cpu(split: dict[str, float]) -> str:
    if not split:
        return "n/a"
    return " + ".join(f"{name} {ms:.2f}" for name, ms in split.items())
