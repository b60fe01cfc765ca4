"""`manage.py bench_stream`: live streams held open against the production server, over HTTP.

It starts the server `make serve` runs (gunicorn, skyjo_service/gunicorn.conf.py, its threads
left to the configuration: THREADS + LIVE_MAX_STREAMS per worker) on loopback against a database
of its own (PostgreSQL by default: `skyjo_bench_stream`, emptied at each run; `--db sqlite`: a
temporary file), creates `--games` games of `--seats` seats and joins them, then:

1. opens `--streams` streams at once, spread over the games: each game's seats first (with
   their tokens), the rest spectators; they are held by a process of their own
   (`loadtest.stream_client`: one asyncio loop over raw sockets), which notes when each event
   frame arrives;
2. *paced*: plays every game with engine greedy players (one thread each, choosing from the
   served `legal_actions`) that think about `--think-ms` before each action, for `--seconds`
   measured; the delay of a frame is from the answer to the action that appended its event
   (as the player saw it) to the frame's arrival at each stream;
3. *saturated*: `--clients` more clients play games of their own as fast as they can (as
   `bench_load`'s), and the same number post the bare endpoint (`/bench/insert`), in slices of
   `--slice-seconds` in three states: *live* (the streams open and their games still played
   at the paced rate, so every action of theirs fans out to their streams; its actions count
   the paced ones too), *idle* (the streams open, their games paused: only comments flow) and
   *none* (the streams closed, their games paused: the server as `bench_load` sees it), in
   `--rounds` rounds alternating the order (live, idle, none, none, idle, live...: a drift of
   the machine's speed weighs on all alike); streams closed for a slice reopen after their
   last id (`Last-Event-ID`);
4. the players stop, every stream catches up, and each stream's frames are checked against its
   game's log: every event once, in order.

It prints (`--json`: one object) the streams held, the frames expected and delivered, the
duplicates and frames out of order, the paced frames' p50/p99 delay, the errors, the server's
resident memory with the streams open and its CPU in the paced phase, the saturated actions per
second with the streams live (`actions_per_s`), their ratio to the same server's rate without
streams (`actions_ratio`; `actions_ratio_idle` for idle streams), and the saturated actions
over the bare endpoint's rate with the streams open (`bare_ratio`: `bench_load`'s ratio, in
the idle state, where both rates are the saturating clients' alone; `bare_ratio_live` in the
live state, where both pay for the paced games alike; `bare_ratio_without_streams`). The
command exits with status 1 when there were errors.
"""

from __future__ import annotations

import bisect
import json
import os
import platform
import random
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx
from django.core.management.base import BaseCommand, CommandError, CommandParser

from engine import GreedyPlayer, action_to_data
from engine.view import view_from_data
from games.api.views.turns import action_segment
from games.models import Status
from loadtest.management.commands.bench_load import (
    GAMES,
    CpuUse,
    Failed,
    Gate,
    Pool,
    Tally,
    Window,
    bare_client,
    bench_database,
    client_pool,
    empty_tables,
    expect,
    game_client,
    percentile,
    run_slice,
    summarise,
)
from loadtest.server import (
    DEFAULT_WORKERS,
    WORKER_CLASSES,
    RunningServer,
    process_tree_cpu,
    process_tree_rss,
    run_manage,
    running_server,
    running_stream_tier,
    server_environment,
)
from loadtest.stream_client import StreamHolder, StreamSpec

DEFAULT_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/skyjo_bench_stream"
#: Targets on the reference machine (2 cores, PostgreSQL): see docs/PERFORMANCE.md.
TARGET_P99_MS = 250.0
TARGET_ACTIONS_RATIO = 0.9
TARGET_BARE_RATIO = 0.5
#: Seconds the streams get to deliver the last events once the players stop.
CATCH_UP_SECONDS = 20.0


# The games and their players


@dataclass
class BenchGame:
    """A game the streams watch: its seats' tokens, the last view its player saw, and the
    (version, time) of every action's answer, in order."""

    id: str
    tokens: list[str]
    last: dict[str, Any]
    answers: list[tuple[int, float]] = field(default_factory=list)

    def answered_at(self, sequence: int) -> float | None:
        """When the answer came to the action that appended event `sequence` (None for the
        events before the first action)."""
        index = bisect.bisect_left(self.answers, (sequence, 0.0))
        return self.answers[index][1] if index < len(self.answers) else None


def create_games(client: httpx.Client, games: int, seats: int) -> list[BenchGame]:
    """Create the games and join every seat (round 1 is dealt)."""
    created = []
    for index in range(games):
        game = expect(client.post(GAMES, json={"seats": seats, "seed": 7_000 + index}), 201)
        tokens, last = [], {}
        for seat in range(seats):
            joined = expect(
                client.post(f"{GAMES}/{game['id']}/players", json={"name": f"P{seat}"}), 201
            )
            tokens.append(joined["token"])
            last = joined["game"]
        created.append(BenchGame(game["id"], tokens, last))
    return created


def stream_specs(games: list[BenchGame], streams: int) -> list[StreamSpec]:
    """`streams` streams round-robin over the games: each game's seats first, then spectators."""
    specs = []
    for index in range(streams):
        game = games[index % len(games)]
        rank = index // len(games)
        token = game.tokens[rank] if rank < len(game.tokens) else None
        specs.append(StreamSpec(game.id, token))
    return specs


def play_paced(
    client: httpx.Client, game: BenchGame, gate: Gate, tally: Tally, think: float, seed: int
) -> None:
    """Play `game` with greedy players thinking about `think` seconds (0.5 to 1.5 times) before
    each action, until it ends or the gate finishes; note each action's answer."""
    player, rng = GreedyPlayer(), random.Random(seed)
    url, seats, last = f"{GAMES}/{game.id}", len(game.tokens), game.last
    while gate.wait() and last["status"] != Status.FINISHED:
        if not last["legal_actions"]:  # the turn passed: read the view of the seat to move
            seat = last["current_seat"]
            if seat is None:  # setup: the next seat with reveals left
                seat = (last["you"] + 1) % seats
            last = expect(client.get(url, headers=_bearer(game.tokens[seat])), 200)
            continue
        data = action_to_data(player.choose(view_from_data(last)))
        kind = data.pop("action")
        time.sleep(rng.uniform(0.5, 1.5) * think)
        headers = _bearer(game.tokens[last["you"]])
        started = time.monotonic()
        answer = client.post(f"{url}/actions/{action_segment(kind)}", json=data, headers=headers)
        finished = time.monotonic()
        last = expect(answer, 200)
        game.answers.append((last["version"], finished))
        tally.samples.append((finished, finished - started))


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@contextmanager
def paced_players(
    server: RunningServer, games: list[BenchGame], think: float
) -> Iterator[tuple[Gate, list[Tally]]]:
    """A thread per game playing it at the paced rate while the block runs (and its gate is
    open)."""
    gate, tallies = Gate(), [Tally() for _ in games]

    def main(index: int) -> None:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            try:
                play_paced(client, games[index], gate, tallies[index], think, index)
            except Failed as failure:
                tallies[index].error(*failure.args)
            except (httpx.TransportError, KeyError) as error:
                tallies[index].error("paced", repr(error))

    threads = [threading.Thread(target=main, args=(i,), daemon=True) for i in range(len(games))]
    gate.open()
    for thread in threads:
        thread.start()
    try:
        yield gate, tallies
    finally:
        gate.finish()
        for thread in threads:
            thread.join(timeout=60)


# Checking and measuring the frames


@dataclass
class FrameCheck:
    """Every stream's frames against its game's log."""

    expected: int = 0
    delivered: int = 0
    duplicates: int = 0
    out_of_order: int = 0
    delays: dict[str, list[float]] = field(default_factory=dict)


def check_stream(check: FrameCheck, ids: list[int], final: int) -> None:
    """Count one stream's frames: distinct ids 1..final delivered, repeats, and frames that
    are not the one after the highest before them (a gap or a step back)."""
    seen: set[int] = set()
    highest = 0
    for sequence in ids:
        if sequence in seen:
            check.duplicates += 1
            continue
        seen.add(sequence)
        if sequence != highest + 1:
            check.out_of_order += 1
        highest = max(highest, sequence)
    check.expected += final
    check.delivered += len({sequence for sequence in seen if 1 <= sequence <= final})


def frame_delays(
    stream: dict[str, Any], game: BenchGame, phases: dict[str, list[Window]], check: FrameCheck
) -> None:
    """The delay of each frame whose action was answered within a phase's windows: from that
    answer to the frame's arrival (0 when the frame came first)."""
    for sequence, arrived in zip(stream["ids"], stream["times"], strict=True):
        answered = game.answered_at(sequence)
        if answered is None:
            continue
        for name, windows in phases.items():
            if any(w.start <= answered <= w.stop for w in windows):
                check.delays.setdefault(name, []).append(max(0.0, arrived - answered))


# The command


#: The saturated slices' states: streams open and fed, open and idle, closed.
STATES = ("live", "idle", "none")


@dataclass
class Slices:
    """The saturated slices' windows and CPU by pool ("games", "bare") and state."""

    windows: dict[tuple[str, str], list[Window]] = field(default_factory=dict)
    cpu: dict[tuple[str, str], CpuUse] = field(default_factory=dict)
    holder_cpu: dict[tuple[str, str], float] = field(default_factory=dict)
    streams_open: list[int] = field(default_factory=list)
    db_connections: list[int] = field(default_factory=list)


class Command(BaseCommand):
    help = "Hold live streams against the production server; frames, delays, actions/s."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--db", choices=["sqlite", "postgres"], default="postgres")
        parser.add_argument("--postgres-url", default=DEFAULT_POSTGRES_URL)
        parser.add_argument("--streams", type=int, default=1000)
        parser.add_argument("--games", type=int, default=50, help="games the streams watch")
        parser.add_argument("--seats", type=int, default=2, help="seats per game")
        parser.add_argument("--seconds", type=float, default=20.0, help="paced phase, measured")
        parser.add_argument("--think-ms", type=float, default=1000.0, help="paced players")
        parser.add_argument("--clients", type=int, default=32, help="saturating clients")
        parser.add_argument("--rounds", type=int, default=4, help="rounds of the 3 states")
        parser.add_argument("--slice-seconds", type=float, default=5.0, help="per slice")
        parser.add_argument("--warmup", type=float, default=1.0, help="not counted, per slice")
        parser.add_argument("--worker-class", choices=sorted(WORKER_CLASSES), default="gthread")
        parser.add_argument("--workers", type=int, default=DEFAULT_WORKERS)
        parser.add_argument("--threads", type=int, default=8, help="THREADS: ordinary requests")
        parser.add_argument(
            "--max-streams", type=int, default=None, help="LIVE_MAX_STREAMS (per worker)"
        )
        parser.add_argument(
            "--db-pool",
            type=int,
            default=None,
            help="DB_POOL_SIZE per worker (PostgreSQL; 0: connections kept per thread)",
        )
        parser.add_argument("--server-env", action="append", default=[], help="NAME=VALUE")
        parser.add_argument("--server-log", default=None, help="append the server's output here")
        parser.add_argument(
            "--stream-servers",
            type=int,
            default=0,
            help="stream tier processes (skyjo_service.stream_tier) holding the streams, in turn; "
            "0: the API server holds them (a thread each)",
        )
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args: Any, **options: Any) -> None:
        # Stopped (SIGTERM), the command still stops its server on the way out.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
        if options["streams"] < 1 or options["games"] < 1 or options["seconds"] <= 0:
            raise CommandError("--streams, --games and --seconds must be positive")
        with ExitStack() as stack:
            server, postgres_db, tiers = self._start(stack, options)
            result = self._run(stack, server, tiers, postgres_db, options)
        if options["json"]:
            self.stdout.write(json.dumps(result))
        else:
            self.stdout.write(report(result))
        if result["errors"]:
            raise CommandError(f"{result['errors']} errors: {result['first_errors']}")

    def _start(
        self, stack: ExitStack, options: dict[str, Any]
    ) -> tuple[RunningServer, str, list[RunningServer]]:
        """The database (migrated, emptied), the server on it, and its stream tier's
        processes if any."""
        url = stack.enter_context(bench_database(options["db"], options["postgres_url"]))
        extra = dict(item.split("=", 1) for item in options["server_env"])
        extra["THREADS"] = str(options["threads"])
        if options["max_streams"] is not None:
            extra["LIVE_MAX_STREAMS"] = str(options["max_streams"])
        if options["db_pool"] is not None:
            extra["DB_POOL_SIZE"] = str(options["db_pool"])
        env = server_environment(url, **extra)
        run_manage(env, "migrate", "--noinput")
        if options["db"] == "postgres":
            empty_tables(url)
        log = None
        if options["server_log"]:
            log = stack.enter_context(open(options["server_log"], "a"))  # noqa: SIM115
        server = stack.enter_context(
            running_server(
                env,
                workers=options["workers"],
                threads=None,
                worker_class=options["worker_class"],
                log=log,
            )
        )
        tiers = [
            stack.enter_context(running_stream_tier(env, log=log))
            for _ in range(options["stream_servers"])
        ]
        return server, url if options["db"] == "postgres" else "", tiers

    def _run(
        self,
        stack: ExitStack,
        server: RunningServer,
        tiers: list[RunningServer],
        postgres: str,
        options: dict[str, Any],
    ) -> dict[str, Any]:
        holder = StreamHolder([tier.url for tier in tiers] or [server.url])
        stack.callback(holder.stop)
        with httpx.Client(base_url=server.url, timeout=30) as client:
            games = create_games(client, options["games"], options["seats"])
        specs = stream_specs(games, options["streams"])
        holders_of_streams = [tier.pid for tier in tiers] or [server.pid]
        rss_before = servers_rss([server.pid, *holders_of_streams])
        opened = holder.call("open", specs)
        rss = servers_rss([server.pid, *holders_of_streams])
        think = options["think_ms"] / 1000
        with paced_players(server, games, think) as (paced_gate, paced_tallies):
            paced = measure_paced(server, tiers, holder, postgres, options["seconds"])
            slices = Slices()
            with (
                client_pool(server, options["clients"], game_client) as games_pool,
                client_pool(server, options["clients"], bare_client) as bare_pool,
            ):
                pools = {"games": games_pool, "bare": bare_pool}
                saturate(server, holder, paced_gate, pools, slices, postgres, options)
            rss = max(rss, servers_rss([server.pid, *holders_of_streams]))
        holder.call("reopen")  # streams closed in the last slice resume after their last id
        finals = final_versions(server, games)
        caught_up = catch_up(holder, finals)
        reported = holder.call("report")
        streams = reported["streams"]
        return summary(
            options,
            games,
            streams,
            finals,
            paced,
            slices,
            pools,
            paced_tallies,
            opened=opened,
            rss=rss,
            rss_before=rss_before,
            caught_up=caught_up,
            lags=sorted(lag for moment, lag in reported["lags"] if _in(moment, paced.window)),
        )


def servers_rss(pids: list[int]) -> float:
    """Resident memory (MiB) of the servers (the API's and the stream tier's) together."""
    return sum(process_tree_rss(pid) for pid in set(pids))


@dataclass
class Paced:
    window: Window
    server_cpu: float
    tier_cpu: float
    holder_cpu: float
    client_cpu: float
    database_cpu: float
    db_connections: int


def measure_paced(
    server: RunningServer,
    tiers: list[RunningServer],
    holder: StreamHolder,
    postgres: str,
    seconds: float,
) -> Paced:
    """Let the paced players warm up for a second, then measure `seconds` of paced play."""
    time.sleep(1.0)
    before = CpuUse.now(server.pid, postgres=bool(postgres))
    tiers_before = sum(process_tree_cpu(tier.pid) for tier in tiers)
    holder_before, start = process_tree_cpu(holder.pid), time.monotonic()
    time.sleep(seconds)
    used = CpuUse.now(server.pid, postgres=bool(postgres)) - before
    tiers_used = sum(process_tree_cpu(tier.pid) for tier in tiers) - tiers_before
    holder_used = process_tree_cpu(holder.pid) - holder_before
    return Paced(
        Window(start, time.monotonic()),
        used.server,
        tiers_used,
        holder_used,
        used.client,
        used.database,
        db_connections(postgres),
    )


def saturate(
    server: RunningServer,
    holder: StreamHolder,
    paced: Gate,
    pools: dict[str, Pool],
    slices: Slices,
    postgres: str,
    options: dict[str, Any],
) -> None:
    """The saturated slices, games and bare in turn, in each state, the order of the states
    reversed every other round."""
    is_open = True
    for index in range(options["rounds"]):
        forward = index % 2 == 0
        for state in STATES if forward else STATES[::-1]:
            streams_open = state != "none"
            if streams_open != is_open:
                holder.call("reopen" if streams_open else "close")
                is_open = streams_open
            (paced.open if state == "live" else paced.close)()
            if streams_open:
                slices.streams_open.append(holder.call("count")["open"])
            for name in ("games", "bare") if forward else ("bare", "games"):
                measure_slice(server, holder, pools[name], slices, (name, state), options)
                slices.db_connections.append(db_connections(postgres))
            if streams_open:
                slices.streams_open.append(holder.call("count")["open"])
    paced.open()


def measure_slice(
    server: RunningServer,
    holder: StreamHolder,
    pool: Pool,
    slices: Slices,
    key: tuple[str, str],
    options: dict[str, Any],
) -> None:
    """One slice of `pool`, its window and CPU filed under `key`."""
    cpu_before, holder_before = pool.cpu, process_tree_cpu(holder.pid)
    postgres = options["db"] == "postgres"
    run_slice(pool, server, options["warmup"], options["slice_seconds"], postgres=postgres)
    slices.windows.setdefault(key, []).append(pool.windows[-1])
    slices.cpu[key] = slices.cpu.get(key, CpuUse()) + (pool.cpu - cpu_before)
    used = process_tree_cpu(holder.pid) - holder_before
    slices.holder_cpu[key] = slices.holder_cpu.get(key, 0.0) + used


def db_connections(postgres: str) -> int:
    """Connections open to the benchmark's PostgreSQL database now (0 on SQLite; -1 when
    PostgreSQL refuses another)."""
    if not postgres:
        return 0
    import psycopg

    name = postgres.rsplit("/", 1)[1]
    try:
        with psycopg.connect(postgres, autocommit=True, connect_timeout=5) as conn:
            row = conn.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = %s AND pid <> pg_backend_pid()",
                (name,),
            ).fetchone()
    except psycopg.OperationalError:  # e.g. too many clients already: shown as -1
        return -1
    return int(row[0]) if row else 0


def final_versions(server: RunningServer, games: list[BenchGame]) -> dict[str, int]:
    """Each game's version once play has stopped (the last one a player saw, if the server
    cannot tell: that failure is counted among the players' errors already)."""
    versions = {}
    with httpx.Client(base_url=server.url, timeout=30) as client:
        for game in games:
            try:
                versions[game.id] = expect(client.get(f"{GAMES}/{game.id}"), 200)["version"]
            except (Failed, httpx.TransportError):
                versions[game.id] = game.answers[-1][0] if game.answers else game.last["version"]
    return versions


def catch_up(holder: StreamHolder, finals: dict[str, int]) -> bool:
    """Wait until every stream has its game's last event (True), or `CATCH_UP_SECONDS`."""
    deadline = time.monotonic() + CATCH_UP_SECONDS
    while time.monotonic() < deadline:
        lasts = holder.call("lasts")["lasts"]
        if all(last >= finals[game] for game, last in lasts):
            return True
        time.sleep(0.5)
    return False


def summary(
    options: dict[str, Any],
    games: list[BenchGame],
    streams: list[dict[str, Any]],
    finals: dict[str, int],
    paced: Paced,
    slices: Slices,
    pools: dict[str, Pool],
    paced_tallies: list[Tally],
    *,
    opened: dict[str, Any],
    rss: float,
    rss_before: float,
    caught_up: bool,
    lags: list[float],
) -> dict[str, Any]:
    """The figures of the run, as printed and emitted."""
    by_id = {game.id: game for game in games}
    check = FrameCheck()
    phases = {
        "paced": [paced.window],
        "saturated": slices.windows[("games", "live")] + slices.windows[("bare", "live")],
    }
    for stream in streams:
        check_stream(check, stream["ids"], finals[stream["game"]])
        frame_delays(stream, by_id[stream["game"]], phases, check)
    paced_delays = sorted(check.delays.get("paced", []))
    saturated_delays = sorted(check.delays.get("saturated", []))
    phase = {key: phase_summary(pools[key[0]], slices, key) for key in slices.windows}
    live = phase_summary(pools["games"], slices, ("games", "live"), also=paced_tallies)
    idle, without = phase[("games", "idle")], phase[("games", "none")]
    bare_live, bare_idle = phase[("bare", "live")], phase[("bare", "idle")]
    bare_without = phase[("bare", "none")]
    errors, first_errors = count_errors(streams, paced_tallies, pools)
    paced_actions = sum(
        1 for tally in paced_tallies for moment, _ in tally.samples if _in(moment, paced.window)
    )
    seconds = paced.window.stop - paced.window.start
    result: dict[str, Any] = {
        "streams": len(streams),
        "games": len(games),
        "frames_expected": check.expected,
        "frames_delivered": check.delivered,
        "duplicates": check.duplicates,
        "out_of_order": check.out_of_order,
        "p50_ms": _ms(percentile(paced_delays, 0.50)),
        "p99_ms": _ms(percentile(paced_delays, 0.99)),
        "errors": errors,
        "server_rss_mb": round(rss, 1),
        "server_rss_mb_before_streams": round(rss_before, 1),
        "server_cpu_percent": round(paced.server_cpu / seconds * 100, 1),
        "actions_per_s": live["per_s"],
        "actions_ratio": _ratio(live["per_s"], without["per_s"]),
        "bare_ratio": _ratio(idle["per_s"], bare_idle["per_s"]),
        # More detail.
        "db": options["db"],
        "server": {
            "worker_class": options["worker_class"],
            "workers": options["workers"],
            "threads": options["threads"],
            "max_streams": options["max_streams"],
            "db_pool": options["db_pool"],
            "env": options["server_env"],
            "stream_servers": options["stream_servers"],
        },
        "cpus": os.cpu_count() or 1,
        "seats": options["seats"],
        "streams_opened_in_s": round(opened["seconds"], 2),
        "streams_open_at_start": opened["open"],
        "streams_open_min": min(slices.streams_open, default=opened["open"]),
        "reopened_by_server": sum(s["reopened_by_server"] for s in streams),
        "caught_up": caught_up,
        "frames_missing": check.expected - check.delivered,
        "paced_frames": len(paced_delays),
        "paced_actions_per_s": round(paced_actions / seconds, 1),
        "p90_ms": _ms(percentile(paced_delays, 0.90)),
        "max_ms": _ms(paced_delays[-1] if paced_delays else 0.0),
        "saturated_p50_ms": _ms(percentile(saturated_delays, 0.50)),
        "saturated_p99_ms": _ms(percentile(saturated_delays, 0.99)),
        # The stream holder's own lateness in the paced phase (a timer every 20 ms): what of
        # the frames' delay the measuring side adds when the machine leaves it waiting.
        "holder_lag_p50_ms": _ms(percentile(lags, 0.50)),
        "holder_lag_p99_ms": _ms(percentile(lags, 0.99)),
        "paced_cpu_percent": {
            "server": round(paced.server_cpu / seconds * 100, 1),
            "stream_tier": round(paced.tier_cpu / seconds * 100, 1),
            "stream_holder": round(paced.holder_cpu / seconds * 100, 1),
            "players": round(paced.client_cpu / seconds * 100, 1),
            "postgres": round(paced.database_cpu / seconds * 100, 1),
        },
        "paced_actions_per_s_live": round(live["per_s"] - phase[("games", "live")]["per_s"], 1),
        "actions_per_s_idle_streams": idle["per_s"],
        "actions_ratio_idle": _ratio(idle["per_s"], without["per_s"]),
        "actions_per_s_without_streams": without["per_s"],
        "bare_per_s": bare_idle["per_s"],
        "bare_per_s_live": bare_live["per_s"],
        "bare_per_s_without_streams": bare_without["per_s"],
        "bare_ratio_live": _ratio(phase[("games", "live")]["per_s"], bare_live["per_s"]),
        "bare_ratio_without_streams": _ratio(without["per_s"], bare_without["per_s"]),
        "cpu_ms_per_action": live["cpu_ms"],
        "cpu_ms_per_action_idle_streams": idle["cpu_ms"],
        "cpu_ms_per_action_without_streams": without["cpu_ms"],
        "saturated_action_p99_ms": live["p99_ms"],
        "saturated_action_p99_ms_without_streams": without["p99_ms"],
        "other_cpu_share": {"_".join(k): v["other_cpu_share"] for k, v in phase.items()},
        "db_connections_max": max([paced.db_connections, *slices.db_connections]),
        "first_errors": first_errors,
    }
    result["targets_met"] = (
        result["frames_delivered"] == result["frames_expected"]
        and not result["duplicates"]
        and not result["out_of_order"]
        and result["p99_ms"] < TARGET_P99_MS
        and not errors
        and result["actions_ratio"] >= TARGET_ACTIONS_RATIO
        and result["bare_ratio"] >= TARGET_BARE_RATIO
        and result["streams_open_min"] == result["streams"]
    )
    return result


def phase_summary(
    pool: Pool,
    slices: Slices,
    key: tuple[str, str],
    also: list[Tally] = (),  # type: ignore[assignment]
) -> dict[str, Any]:
    """`bench_load`'s summary of `pool` over the slices filed under `key` only (counting the
    requests of the tallies `also` too)."""
    view = Pool(pool.tallies + list(also), windows=slices.windows[key], cpu=slices.cpu[key])
    figures = summarise(view)
    holder_ms = slices.holder_cpu[key] / figures["count"] * 1000 if figures["count"] else 0.0
    figures["cpu_ms"]["stream_holder"] = round(holder_ms, 2)
    return figures


def count_errors(
    streams: list[dict[str, Any]], paced: list[Tally], pools: dict[str, Pool]
) -> tuple[int, list[str]]:
    messages = [error for stream in streams for error in stream["errors"]]
    tallies = paced + [tally for pool in pools.values() for tally in pool.tallies]
    count = len(messages) + sum(sum(tally.errors.values()) for tally in tallies)
    messages += [error for tally in tallies for error in tally.first_errors]
    return count, messages[:5]


def _in(moment: float, window: Window) -> bool:
    return window.start <= moment <= window.stop


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def _ratio(numerator: float, denominator: float) -> float:
    return round(numerator / denominator, 3) if denominator else 0.0


def report(r: dict[str, Any]) -> str:
    ok = {True: "met", False: "MISSED"}
    server = r["server"]
    cpu = r["paced_cpu_percent"]
    lines = [
        f"bench_stream: {r['streams']} streams over {r['games']} games of {r['seats']} seats, "
        f"db={r['db']}, {r['cpus']} CPUs, Python {platform.python_version()}",
        f"server: gunicorn {server['worker_class']}, {server['workers']} workers, THREADS="
        f"{server['threads']} + LIVE_MAX_STREAMS={server['max_streams'] or 'default'}, "
        f"DB_POOL_SIZE={server['db_pool'] if server['db_pool'] is not None else 'default'}"
        + (f", {' '.join(server['env'])}" if server["env"] else "")
        + (
            f"; streams on {server['stream_servers']} stream tier processes"
            if server["stream_servers"]
            else "; streams on the API server"
        ),
        f"streams: {r['streams_open_at_start']} open in {r['streams_opened_in_s']:.1f} s, "
        f"at least {r['streams_open_min']} open during the saturated slices; server RSS "
        f"{r['server_rss_mb']:.0f} MiB ({r['server_rss_mb_before_streams']:.0f} before); "
        f"{r['reopened_by_server']} reopened after a close",
        f"frames: {r['frames_delivered']} of {r['frames_expected']} delivered, "
        f"{r['duplicates']} duplicates, {r['out_of_order']} out of order, caught up: "
        f"{r['caught_up']}",
        f"paced ({r['paced_actions_per_s']:.1f} actions/s): frame delay p50 {r['p50_ms']:.1f} ms, "
        f"p90 {r['p90_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms, max {r['max_ms']:.1f} ms over "
        f"{r['paced_frames']} frames (p99 target < {TARGET_P99_MS:g} ms: "
        f"{ok[r['p99_ms'] < TARGET_P99_MS]})",
        f"  CPU (% of one core): server {cpu['server']}, stream tier {cpu['stream_tier']}, "
        f"stream holder {cpu['stream_holder']}, "
        f"players {cpu['players']}, postgres {cpu['postgres']}; the stream holder's own "
        f"lateness: p50 {r['holder_lag_p50_ms']:.1f} ms, p99 {r['holder_lag_p99_ms']:.1f} ms",
        f"saturated: actions {r['actions_per_s']:.1f}/s with the streams live (the paced "
        f"games' {r['paced_actions_per_s_live']:.1f}/s included), "
        f"{r['actions_per_s_without_streams']:.1f}/s without streams: ratio "
        f"{r['actions_ratio']:.3f} (target >= {TARGET_ACTIONS_RATIO}: "
        f"{ok[r['actions_ratio'] >= TARGET_ACTIONS_RATIO]})",
        f"  with the streams open but idle: {r['actions_per_s_idle_streams']:.1f}/s, ratio "
        f"{r['actions_ratio_idle']:.3f}",
        f"  bare inserts {r['bare_per_s']:.1f}/s with the streams open (idle): actions/bare "
        f"{r['bare_ratio']:.3f} (target >= {TARGET_BARE_RATIO}: "
        f"{ok[r['bare_ratio'] >= TARGET_BARE_RATIO]}); streams live: "
        f"{r['bare_per_s_live']:.1f}/s, {r['bare_ratio_live']:.3f} (the saturating clients' "
        f"actions alone); no streams: {r['bare_per_s_without_streams']:.1f}/s, "
        f"{r['bare_ratio_without_streams']:.3f}",
        f"  CPU ms per action, streams live: {_cpu(r['cpu_ms_per_action'])}",
        f"  CPU ms per action, streams idle: {_cpu(r['cpu_ms_per_action_idle_streams'])}",
        f"  CPU ms per action, no streams:   {_cpu(r['cpu_ms_per_action_without_streams'])}",
        f"  frame delay meanwhile: p50 {r['saturated_p50_ms']:.1f} ms, "
        f"p99 {r['saturated_p99_ms']:.1f} ms",
        f"database connections (at most, sampled): {r['db_connections_max']}",
        f"CPU used by other processes (noise): {r['other_cpu_share']}",
        f"errors: {r['errors']}" + (f" {r['first_errors']}" if r["errors"] else ""),
    ]
    return "\n".join(lines)


def _cpu(split: dict[str, float]) -> str:
    return " + ".join(f"{name} {ms:.2f}" for name, ms in split.items()) if split else "n/a"
