"""`manage.py bench_ratings`: how fast finished rated games are rated (R14), and how soon a
player hears of it.

It runs in a throwaway test database of the configured kind (SQLite file or PostgreSQL
`test_<name>_<pid>`, as `manage.py test` makes one; never the configured database), destroyed
afterwards. What it counts: **one game rated is one `model.rate` call, and one update of each
of its seats** (a seat update: one account's mu and sigma changed). It reports both games/s
and seat updates/s, for 2- and 8-seat games:

1. *model*: `ratings.skill.rate` alone (pure OpenSkill Plackett-Luce, no database), over
   `--model-games` games of random skills and random ranks (ties included);
2. *full path*: `ratings.services.rate_pending` (the rating job's body) over `--pool` finished
   rated games already in the database, played to their end beforehand by eight bot accounts
   (engine greedy players through the service's use cases): each game read back from its log,
   ranked, rated, its rows appended, the ratings moved and `rating_changed` letters delivered,
   one transaction per game under the ratings' lock. Timed `--rounds` times (the rows removed
   and the ratings reset in between, untimed); the best round is reported, the others too.

The target (>= 2,000 rating updates a second) is for seat updates/s of the model, at 2 and at
8 seats (`updates_per_s`: the lower of the two): the rating computation that the job,
`manage.py rerate` and this benchmark share. The full path is reported against the same
figure (`full_path_updates_per_s`, 8 seats; `full_path_meets_target`), but not bound by it:
it is one transaction per game, on purpose (each game rated once, and a worker killed
mid-way loses nothing), and its cost is the database's, listed in docs/PERFORMANCE.md.

3. *latency*: a production server (gunicorn, one worker process, as `make serve` configures
   it) and one `manage.py worker` on the database; two person accounts, each with its account
   stream open (`GET /api/v1/account/stream`, read by a thread of this process), play
   `--games` rated 2-seat games against each other over HTTP, one after another (engine greedy
   players choosing from the served `legal_actions`). For each game, the delay is from the
   answer to the action that ended it (as its player saw it) to the `rating_changed` frame's
   arrival on that player's stream: the finishing append queues the job, the worker polls its
   queue (`SKYJO_WORKER_INTERVAL`, 0.15 s), rates the game and delivers the letters, the
   stream sends them. p50/p99 (target: p99 <= 1 s).

It prints (`--json`: one object) the figures; it exits with status 1 when a game's frame
never came (within `FRAME_TIMEOUT`) or a game was not rated exactly once.
"""

from __future__ import annotations

import json
import os
import platform
import random
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.test.utils import setup_test_environment, teardown_test_environment
from django_tasks_db.models import DBTaskResult
from httpx_sse import connect_sse

from accounts.credentials import AccountCredential, resolve
from accounts.services import sign_up
from engine import GreedyPlayer, action_to_data, seats_to_act, view
from engine.view import view_from_data
from games import core, tasks
from games.api.views.turns import action_segment
from games.models import Game, Status
from loadtest.management.commands.bench_load import GAMES, expect, percentile
from loadtest.server import ROOT, database_url, running_server, server_environment, stop
from ratings.models import RatedGame, Rating, RatingChange
from ratings.services import rate_pending
from ratings.skill import Skill, rate

#: Targets on the reference machine: see docs/PERFORMANCE.md.
TARGET_UPDATES_PER_S = 2_000.0
TARGET_P99_MS = 1_000.0
#: Seconds a game's `rating_changed` frame may take before it counts as missing.
FRAME_TIMEOUT = 10.0
SEAT_COUNTS = (2, 8)
#: Low, so that the games end within a round or two: the benchmark is about their end.
END_SCORE = 10
PASSWORD = "a long bench password 24"


# 1. The model alone


def model_rates(seats: int, games: int, seed: int) -> dict[str, float]:
    """`rate` over `games` games of `seats` seats with random skills and ranks (ties too)."""
    rng = random.Random(seed)
    cases = [
        (
            [Skill(rng.uniform(15, 35), rng.uniform(1, 25 / 3)) for _ in range(seats)],
            [rng.randint(1, seats) for _ in range(seats)],
        )
        for _ in range(games)
    ]
    started = time.perf_counter()
    for skills, ranks in cases:
        rate(skills, ranks)
    return rates(games, seats, time.perf_counter() - started)


def rates(games: int, seats: int, seconds: float) -> dict[str, float]:
    return {
        "games": games,
        "seconds": round(seconds, 4),
        "games_per_s": round(games / seconds, 1),
        "seat_updates_per_s": round(games * seats / seconds, 1),
    }


# 2. The full path: rated games in the database


@dataclass
class BenchAccount:
    handle: str
    token: str
    credential: AccountCredential


def bench_accounts(prefix: str, count: int, kind: str) -> list[BenchAccount]:
    made = []
    for index in range(count):
        handle = f"{prefix}{index}"
        password = PASSWORD if kind == "person" else None
        token = sign_up(handle, kind, password).token.token
        credential = resolve(token)
        assert credential is not None
        made.append(BenchAccount(handle, token, credential))
    return made


def finished_rated_game(accounts: list[BenchAccount], seed: int) -> uuid.UUID:
    """A rated game of `accounts` played to its end in this process by engine greedy players,
    through the use cases (each action its own append, as over HTTP)."""
    game = core.create_game(
        seats=len(accounts), options={"end_score": END_SCORE}, seed=seed, rated=True
    )
    for account in accounts:
        core.join_game(game.id, account.handle, account=account.credential)
    player = GreedyPlayer()
    state = core.game_state(core.get_game(game.id))
    while state.phase != "finished":
        seat = seats_to_act(state)[0]
        action = player.choose(view(state, seat))
        moved = core.perform_action(game.id, accounts[seat].credential, action)  # type: ignore[arg-type]
        state = core.game_state(moved.game)
    return game.id


def full_path_rates(
    accounts: list[BenchAccount], seats: int, pool: int, rounds: int
) -> dict[str, Any]:
    """`rate_pending` over `pool` finished `seats`-seat games, `rounds` times."""
    games = [finished_rated_game(accounts[:seats], seed=seats * 10_000 + n) for n in range(pool)]
    timed = []
    for _ in range(rounds):
        unrate(games)
        started = time.perf_counter()
        rated = rate_pending()
        timed.append(rates(rated, seats, time.perf_counter() - started))
        if rated != pool or RatingChange.objects.filter(game_id__in=games).count() != pool * seats:
            raise CommandError(f"{rated} of {pool} {seats}-seat games rated")
    best = max(timed, key=lambda figures: figures["games_per_s"])
    return {**best, "rounds": [r["seat_updates_per_s"] for r in timed]}


def unrate(games: list[uuid.UUID]) -> None:
    """The games pending again, every rating back to its start (untimed)."""
    RatingChange.objects.filter(game_id__in=games).delete()
    RatedGame.objects.filter(game_id__in=games).delete()
    Rating.objects.all().delete()


# 3. Latency: a game's last action to `rating_changed` on the account stream


@dataclass
class StreamWatch:
    """An account stream read by a thread: when each game's `rating_changed` frame came."""

    base_url: str
    token: str
    arrived: dict[str, float] = field(default_factory=dict)
    opened: threading.Event = field(default_factory=threading.Event)
    errors: list[str] = field(default_factory=list)
    stopping: bool = False

    def run(self) -> None:
        headers = {"Authorization": f"Bearer {self.token}"}
        url = f"{self.base_url}/api/v1/account/stream"
        last = ""
        while not self.stopping:
            try:
                with (
                    httpx.Client(timeout=httpx.Timeout(30, read=60)) as client,
                    connect_sse(client, "GET", url, headers=self._resume(headers, last)) as feed,
                ):
                    for frame in feed.iter_sse():
                        self.opened.set()
                        last = frame.id or last
                        if frame.event == "rating_changed":
                            self.arrived[json.loads(frame.data)["game"]] = time.monotonic()
                        if self.stopping:
                            return
            except (httpx.TransportError, httpx.HTTPStatusError) as error:
                if not self.stopping:
                    self.errors.append(repr(error))
                    time.sleep(0.2)

    @staticmethod
    def _resume(headers: dict[str, str], last: str) -> dict[str, str]:
        return {**headers, "Last-Event-ID": last} if last else headers


@contextmanager
def watching(base_url: str, token: str) -> Iterator[StreamWatch]:
    watch = StreamWatch(base_url, token)
    thread = threading.Thread(target=watch.run, daemon=True)
    thread.start()
    if not watch.opened.wait(30):
        raise CommandError("the account stream did not open")
    try:
        yield watch
    finally:
        watch.stopping = True  # it ends at its next frame (a comment when idle) or on exit


@contextmanager
def running_worker(env: dict[str, str]) -> Iterator[None]:
    """`manage.py worker`, yielded once it runs jobs (it has run one that changes nothing)."""
    command = [sys.executable, str(ROOT / "manage.py"), "worker", "--no-startup-delay"]
    process = subprocess.Popen(command, env=env, cwd=ROOT, start_new_session=True)
    try:
        probe = tasks.play_bots.enqueue(str(uuid.uuid4()), 0)  # no such game: nothing to do
        done = DBTaskResult.objects.filter(pk=probe.id, status="SUCCESSFUL")
        wait_until(done.exists, 60, "the worker to start")
        yield
    finally:
        stop(process)


def wait_until(done: Callable[[], bool], timeout: float, what: str) -> bool:
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise CommandError(f"still waiting for {what}")
        time.sleep(0.05)
    return True


def play_to_the_end(
    client: httpx.Client, game_id: str, tokens: list[str]
) -> tuple[int, float, int]:
    """Play the game over HTTP with greedy players; answers the seat whose action ended it,
    when its answer came (monotonic) and the actions played."""
    player, url, actions = GreedyPlayer(), f"{GAMES}/{game_id}", 0
    last = expect(client.get(url, headers=bearer(tokens[0])), 200)
    while True:
        if not last["legal_actions"]:  # not this seat's move: read the other seat's view
            last = expect(client.get(url, headers=bearer(tokens[1 - last["you"]])), 200)
            continue
        seat = last["you"]
        data = action_to_data(player.choose(view_from_data(last)))
        kind = data.pop("action")
        answer = client.post(
            f"{url}/actions/{action_segment(kind)}", json=data, headers=bearer(tokens[seat])
        )
        answered = time.monotonic()
        last, actions = expect(answer, 200), actions + 1
        if last["status"] == Status.FINISHED:
            return seat, answered, actions


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def latencies(games: int, env: dict[str, str]) -> dict[str, Any]:
    """`games` rated 2-seat games of two accounts over HTTP, one worker rating them."""
    people = bench_accounts("Timed", 2, "person")
    delays: list[float] = []
    missing = actions = 0
    DBTaskResult.objects.all().delete()  # the full path's queued jobs: already done
    with ExitStack() as stack:
        server = stack.enter_context(running_server(env, workers=1, threads=None))
        stack.enter_context(running_worker(env))
        watches = [stack.enter_context(watching(server.url, p.token)) for p in people]
        client = stack.enter_context(httpx.Client(base_url=server.url, timeout=30))
        for number in range(games):
            game = core.create_game(
                seats=2, options={"end_score": END_SCORE}, seed=90_000 + number, rated=True
            )
            for person in people:
                expect(client.post(f"{GAMES}/{game.id}/players", headers=bearer(person.token)), 201)
            tokens = [person.token for person in people]
            seat, answered, played = play_to_the_end(client, str(game.id), tokens)
            actions += played
            key, watch = str(game.id), watches[seat]
            try:
                wait_until(lambda: key in watch.arrived, FRAME_TIMEOUT, "rating_changed")  # noqa: B023
            except CommandError:
                missing += 1
                continue
            delays.append(max(0.0, watch.arrived[key] - answered))
        errors = [error for watch in watches for error in watch.errors]
    delays.sort()
    return {
        "games": games,
        "actions": actions,
        "frames": len(delays),
        "missing": missing,
        "p50_ms": ms(percentile(delays, 0.50)),
        "p90_ms": ms(percentile(delays, 0.90)),
        "p99_ms": ms(percentile(delays, 0.99)),
        "max_ms": ms(delays[-1] if delays else 0.0),
        "stream_errors": errors[:5],
    }


def ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


# The command


class Command(BaseCommand):
    help = "Rating updates per second (model and full path) and rating_changed's delay."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=100, help="timed games (latency)")
        parser.add_argument("--pool", type=int, default=100, help="rated games per seat count")
        parser.add_argument("--rounds", type=int, default=3, help="full-path rounds")
        parser.add_argument("--model-games", type=int, default=5_000, help="model calls")
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args: Any, **options: Any) -> None:
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # still stops its processes
        if min(options["games"], options["pool"], options["rounds"], options["model_games"]) < 1:
            raise CommandError("--games, --pool, --rounds and --model-games must be positive")
        result = in_throwaway_database(lambda: run(options))
        self.stdout.write(json.dumps(result) if options["json"] else report(result))
        latency = result["latency"]
        if latency["missing"] or not result["exactly_once"]:
            raise CommandError(
                f"{latency['missing']} games' rating_changed never came; "
                f"rated exactly once: {result['exactly_once']}"
            )


def in_throwaway_database(body: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """`body` in a new test database (the configured engine), destroyed afterwards."""
    setup_test_environment(debug=False)
    old_name = connection.settings_dict["NAME"]
    try:
        connection.creation.create_test_db(
            verbosity=0, autoclobber=True, keepdb=False, serialize=False
        )
        try:
            return body()
        finally:
            connection.close()
            connection.creation.destroy_test_db(old_name, verbosity=0, keepdb=False)
    finally:
        teardown_test_environment()


def run(options: dict[str, Any]) -> dict[str, Any]:
    bots = bench_accounts("Bench", max(SEAT_COUNTS), "bot")
    model = {
        str(seats): model_rates(seats, options["model_games"], seed=seats) for seats in SEAT_COUNTS
    }
    full = {
        str(seats): full_path_rates(bots, seats, options["pool"], options["rounds"])
        for seats in SEAT_COUNTS
    }
    env = server_environment(
        database_url(connection.vendor, connection.settings_dict), LOG_LEVEL="ERROR"
    )
    latency = latencies(options["games"], env)
    result: dict[str, Any] = {
        "db": connection.vendor,
        "cpus": os.cpu_count() or 1,
        "model": model,
        "full_path": full,
        "updates_per_s": min(figures["seat_updates_per_s"] for figures in model.values()),
        "full_path_updates_per_s": full[str(max(SEAT_COUNTS))]["seat_updates_per_s"],
        "latency": latency,
        "rating_changed_p50_ms": latency["p50_ms"],
        "rating_changed_p99_ms": latency["p99_ms"],
        "exactly_once": exactly_once(),
    }
    result["full_path_meets_target"] = result["full_path_updates_per_s"] >= TARGET_UPDATES_PER_S
    result["targets_met"] = (
        result["updates_per_s"] >= TARGET_UPDATES_PER_S
        and latency["p99_ms"] <= TARGET_P99_MS
        and not latency["missing"]
    )
    return result


def exactly_once() -> bool:
    """Every finished rated game rated once: one row per seat, no game left pending."""
    finished = Game.objects.filter(status=Status.FINISHED, options__rated=True)
    seats = dict(finished.values_list("id", "seats"))
    rows = Counter(RatingChange.objects.values_list("game_id", flat=True))
    return rows == Counter(seats) and RatedGame.objects.count() == len(seats)


def report(r: dict[str, Any]) -> str:
    ok = {True: "met", False: "MISSED"}
    lines = [f"bench_ratings: db={r['db']}, {r['cpus']} CPUs, Python {platform.python_version()}"]
    for seats in map(str, SEAT_COUNTS):
        model, full = r["model"][seats], r["full_path"][seats]
        lines.append(
            f"{seats} seats: model {model['games_per_s']:,.0f} games/s "
            f"({model['seat_updates_per_s']:,.0f} seat updates/s); full path "
            f"{full['games_per_s']:,.0f} games/s ({full['seat_updates_per_s']:,.0f} seat "
            f"updates/s, best of {full['rounds']} over {full['games']} games)"
        )
    latency = r["latency"]
    lines += [
        f"target >= {TARGET_UPDATES_PER_S:,.0f} seat updates/s (the model, 2 and 8 seats): "
        f"{ok[r['updates_per_s'] >= TARGET_UPDATES_PER_S]}; the full path at 8 seats: "
        f"{r['full_path_updates_per_s']:,.0f}/s",
        f"rating_changed after the last action: p50 {latency['p50_ms']:.0f} ms, p90 "
        f"{latency['p90_ms']:.0f} ms, p99 {latency['p99_ms']:.0f} ms, max "
        f"{latency['max_ms']:.0f} ms over {latency['frames']} games ({latency['missing']} "
        f"missing; target p99 <= {TARGET_P99_MS:.0f} ms: "
        f"{ok[latency['p99_ms'] <= TARGET_P99_MS]})",
    ]
    return "\n".join(lines)
