"""Real worker processes (`manage.py worker`) on the test database: a clock that runs out is
played and logged, bots move within a second, a worker killed mid-job is made up for by the
next one (each move once), two workers never play one timeout twice, and `manage.py run`
(`make run`) serves with a worker and stops both on one Ctrl-C; a stream shows the bots' moves.

Clocks are scaled down for these tests by `SKYJO_CLOCK_SCALE` (a setting for tests only): the
process that appends the move that begins a turn sets its deadline, so this process scales the
first deadline and the workers' environment theirs.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from django.db import connection
from django_tasks_db.models import DBTaskResult
from httpx_sse import connect_sse

from engine.audit import verify_log
from games import core, tasks
from games.models import Game
from games.store import log
from loadtest.server import ROOT, free_port, server_environment, stop, wait_until_ready
from tests.production.support import database_url

pytestmark = [pytest.mark.server, pytest.mark.django_db(transaction=True)]

#: This process's clocks: a 60-second turn runs out in 0.6 s.
SCALE = 0.01


def wait_until(done: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, f"still waiting for {what}"
        time.sleep(0.05)


def worker_environment(**extra: str) -> dict[str, str]:
    """A worker's environment: the test database, a production configuration, fast sweeps."""
    env = server_environment(database_url(connection.settings_dict), LOG_LEVEL="ERROR")
    return {**env, "SKYJO_SWEEP_SECONDS": "1", "SKYJO_SWEEP_GRACE": "2", **extra}


@contextmanager
def running_worker(*, ready: bool = True, **extra: str) -> Iterator[subprocess.Popen[bytes]]:
    """`manage.py worker` until the block ends (then stopped as a deployment stops it),
    yielded once it runs jobs (`ready`: it has run a job that changes nothing)."""
    command = [sys.executable, str(ROOT / "manage.py"), "worker", "--no-startup-delay"]
    process = subprocess.Popen(
        command, env=worker_environment(**extra), cwd=ROOT, start_new_session=True
    )
    try:
        if ready:
            probe = tasks.play_bots.enqueue(str(uuid.uuid4()), 0)  # no such game: nothing to do
            done = DBTaskResult.objects.filter(pk=probe.id, status="SUCCESSFUL")
            wait_until(done.exists, 60, "the worker to start")
        yield process
    finally:
        stop(process)


def kill(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL: no graceful end, as a crash or an OOM kill."""
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=10)


def stored(game_id: uuid.UUID) -> list[Any]:
    return log.events(Game.objects.get(pk=game_id))


def timed_out(game_id: uuid.UUID) -> list[int]:
    """The seats whose turn ran out, in the log's order."""
    return [e.event.seat for e in stored(game_id) if e.type == "TurnTimedOut"]  # type: ignore[union-attr]


def persons_game(seats: int = 2, seconds: int = 60) -> uuid.UUID:
    game = core.create_game(seats=seats, options={"turn_seconds": seconds}, seed=seats)
    for seat in range(seats):
        core.join_game(game.id, f"Player {seat}")
    return game.id


def bots_game(seats: int, end_score: int = 100) -> uuid.UUID:
    game = core.create_game(seats=seats, options={"end_score": end_score}, seed=seats)
    for seat in range(seats):
        core.join_game(game.id, f"Bot {seat}", "greedy" if seat % 2 else "random")
    return game.id


def test_a_clock_runs_out_and_the_worker_plays_the_turn(settings: Any) -> None:
    settings.SKYJO_CLOCK_SCALE = SCALE
    with running_worker(SKYJO_CLOCK_SCALE=str(SCALE)):
        game_id = persons_game()
        wait_until(lambda: len(timed_out(game_id)) >= 3, 30, "three timeouts")
    events = stored(game_id)
    types = [e.type for e in events]
    first = types.index("TurnTimedOut")
    dealt = events[types.index("RoundDealt")].at
    late = (events[first].at - dealt).total_seconds() - 60 * SCALE
    assert 0 <= late < 1.0, late  # on time: within a second of the deadline
    assert types[first : first + 6] == ["TurnTimedOut", "CardRevealed", "CardRevealed"] * 2
    turn = types.index("TurnTimedOut", types.index("PlayStarted"))
    assert types[turn + 1] in ("CardDrawn", "DiscardTaken")  # the turn, played for its seat
    assert "TurnPassed" in types[turn:]
    assert verify_log([e.event for e in events]).version == len(events)


def test_a_bot_moves_within_a_second_of_its_turn() -> None:
    game = core.create_game(seats=2, options=None, seed=9)
    core.join_game(game.id, "Ada")
    with running_worker():
        core.join_game(game.id, "Greedy", "greedy")  # deals: the bot's setup reveals
        wait_until(lambda: len(stored(game.id)) >= 6, 10, "the bot's reveals")
    events = stored(game.id)
    dealt = next(e.at for e in events if e.type == "RoundDealt")
    reveal = next(e for e in events if e.type == "CardRevealed")
    assert reveal.event.seat == 1  # type: ignore[union-attr]
    assert (reveal.at - dealt).total_seconds() < 1.0


def test_a_worker_killed_mid_job_is_made_up_for_by_the_next_each_move_once() -> None:
    """A game of bots alone: its worker is killed while playing it (its job left running);
    the next worker's sweep finds the game owed moves and finishes it, and the log replays:
    no move was lost or made twice."""
    game_id: uuid.UUID | None = None
    for _attempt in range(5):
        with running_worker() as first:
            # Dealt once the worker runs, and long (its rounds capped by BOT_ONLY_MAX_ROUNDS),
            # so it is still being played when the worker is killed.
            game_id = game_id or bots_game(8, end_score=10_000)
            wanted = Game.objects.get(pk=game_id).version + 40
            wait_until(lambda: Game.objects.get(pk=game_id).version > wanted, 30, "moves")  # noqa: B023
            kill(first)
        if DBTaskResult.objects.filter(status="RUNNING").exists():
            break  # killed mid-job (else between two jobs: try again)
    assert game_id is not None and DBTaskResult.objects.filter(status="RUNNING").exists()
    stalled = Game.objects.get(pk=game_id)
    time.sleep(0.5)
    assert Game.objects.get(pk=game_id).version == stalled.version != 0
    assert stalled.status != "finished" and stalled.bots_to_move
    with running_worker():
        wait_until(lambda: Game.objects.get(pk=game_id).status == "finished", 120, "the end")
    events = [e.event for e in stored(game_id)]
    assert verify_log(events).phase == "finished"


def _lock_game_row(game_id: uuid.UUID) -> psycopg.Connection[Any]:
    """Another connection holding the game's row (as a slow writer would), so that a job
    that tries to move it waits mid-append."""
    params = dict(connection.get_connection_params())
    for django_only in ("cursor_factory", "context", "prepare_threshold", "pool"):
        params.pop(django_only, None)
    holder = psycopg.connect(**params)
    holder.execute("SELECT 1 FROM games_game WHERE id = %s FOR UPDATE", [game_id])
    return holder


def test_a_timeout_whose_worker_is_killed_mid_append_is_played_once(settings: Any) -> None:
    """The worker is killed while its timeout waits for the game's row: nothing of it lands,
    and the next worker plays that timeout, once."""
    if connection.vendor != "postgresql":
        pytest.skip("a row lock held by another connection: PostgreSQL")
    settings.SKYJO_CLOCK_SCALE = SCALE
    game_id = persons_game()
    holder = _lock_game_row(game_id)
    try:
        with running_worker(ready=False) as first:  # it blocks at its first job
            running = DBTaskResult.objects.filter(
                status="RUNNING", task_path__endswith="expire_turn"
            )
            wait_until(running.exists, 30, "the timeout's job to be mid-append")
            time.sleep(0.3)
            kill(first)
    finally:
        holder.rollback()
        holder.close()
    assert timed_out(game_id) == []
    with running_worker():  # scale 1: the next turn's 60 seconds do not run out here
        wait_until(lambda: len(timed_out(game_id)) == 2, 30, "the timeout")
        time.sleep(2.5)  # a sweep or two more: nothing more to do
    assert timed_out(game_id) == [0, 1]
    assert verify_log([e.event for e in stored(game_id)]).phase == "playing"


def test_two_workers_never_play_one_timeout_twice(settings: Any) -> None:
    """Twenty games time out at once, each timeout's job queued three times over, two workers
    at them: each seat's setup runs out once."""
    settings.SKYJO_CLOCK_SCALE = 0.05  # 3 seconds: the games are all set up by then
    with running_worker(), running_worker():  # scale 1: later turns do not run out here
        games = [persons_game() for _ in range(20)]
        for game_id in games:
            game = Game.objects.get(pk=game_id)
            for _ in range(2):  # duplicates of the job its last join queued
                deadline = game.turn_deadline
                tasks.schedule(game.id, game.version, bots=False, deadline=deadline, turn=1)
        wait_until(lambda: all(len(timed_out(g)) >= 2 for g in games), 60, "the timeouts")
        time.sleep(2.5)
    for game_id in games:
        assert timed_out(game_id) == [0, 1]
        assert verify_log([e.event for e in stored(game_id)]).phase == "playing"
    workers = {w for ids in DBTaskResult.objects.values_list("worker_ids", flat=True) for w in ids}
    # Both took jobs on PostgreSQL; SQLite's one write lock at a time sometimes lets one drain
    # the queue while the other waits for it (seen in CI), which proves nothing either way.
    assert len(workers) == 2 or (connection.vendor == "sqlite" and len(workers) == 1)
    assert DBTaskResult.objects.filter(status="FAILED").count() == 0


def _descendants(pid: int) -> set[int]:
    """`pid`'s child processes and theirs (Linux /proc)."""
    found: set[int] = set()
    pending = [pid]
    while pending:
        current = pending.pop()
        for task in Path(f"/proc/{current}/task").glob("*"):
            with open(task / "children") as children:
                new = {int(child) for child in children.read().split()} - found
            found |= new
            pending.extend(new)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def test_manage_py_run_serves_with_a_worker_and_a_stream_tier_and_one_ctrl_c_stops_all(
    tmp_path: Path,
) -> None:
    """`make run`'s command on a fresh database: a game of bots, created over HTTP, names its
    stream on the stream tier, which streams it to its end; then one SIGINT to the terminal's
    process group (Ctrl-C) stops every process."""
    tier = f"127.0.0.1:{free_port()}"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'run.sqlite3'}",
        "THROTTLING": "off",
        "STREAM_BASE_URL": f"http://{tier}",
    }
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], env=env, cwd=ROOT, check=True)
    port = free_port()
    server = subprocess.Popen(
        [*manage, "run", f"127.0.0.1:{port}", "--stream-tier", tier],
        env=env,
        cwd=ROOT,
        start_new_session=True,  # its own process group, as a terminal's foreground job
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        base = f"http://127.0.0.1:{port}/api/v1"
        wait_until_ready(f"http://127.0.0.1:{port}", server, 90)
        wait_until_ready(f"http://{tier}", server, 90)
        game = httpx.post(f"{base}/games", json={"seats": 2, "options": {"end_score": 30}})
        game_id = game.json()["id"]
        stream = f"http://{tier}/api/v1/games/{game_id}/stream"
        assert game.headers["Link"] == f'<{stream}>; rel="stream"'
        for strategy in ("greedy", "random"):
            httpx.post(f"{base}/games/{game_id}/players", json={"bot": strategy})
        with httpx.Client(timeout=60) as http, connect_sse(http, "GET", stream) as source:
            events = [sse.event for sse in source.iter_sse() if sse.data and sse.event != "view"]
        assert events[0] == "GameCreated" and events[-1] == "GameEnded"
        assert httpx.get(f"{base}/games/{game_id}").json()["status"] == "finished"
        processes = _descendants(server.pid) | {server.pid}
        assert len(processes) >= 4  # the server, its reloaded child, the worker, the tier
        os.killpg(server.pid, signal.SIGINT)  # Ctrl-C
        wait_until(lambda: not any(_alive(pid) for pid in processes), 20, "every process to end")
    finally:
        stop(server)


def test_a_spectators_stream_shows_the_bots_moves_as_they_are_made(live_server: Any) -> None:
    """A bot's move is an ordinary append: the live stream (served by this process) shows
    every move the worker (another process) makes, and ends with the game."""
    game = core.create_game(seats=2, options={"end_score": 20}, seed=3)
    url = f"{live_server.url}/api/v1/games/{game.id}/stream"
    with running_worker(), httpx.Client(timeout=120) as http:
        core.join_game(game.id, "Greedy", "greedy")
        core.join_game(game.id, "Randy", "random")
        with connect_sse(http, "GET", url) as stream:
            frames = [(frame.event, frame.id) for frame in stream.iter_sse() if frame.data]
    finished = Game.objects.get(pk=game.id)
    assert finished.status == "finished"
    events = [(kind, int(sequence)) for kind, sequence in frames if kind != "view"]
    assert len(events) < len(frames)  # and the views after the moves
    assert [sequence for _, sequence in events] == list(range(1, finished.version + 1))
    assert events[-1][0] == "GameEnded"
