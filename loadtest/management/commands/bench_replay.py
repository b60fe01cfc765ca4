"""`manage.py bench_replay`: does reading or acting on a game cost the same after 2,000 events
as after 20?

Two 2-seat games are built in a throwaway test database (never the configured one): a short one
(at least `--short` events) and a long one (at least `--long` events), by engine players with an
end score too high to finish. Greedy players (the default) finish rounds, so the long game has
some 16 scored rounds, and every view carries a summary of each; `--players stalling` keeps both
games in round 1 (the draw pile is reshuffled again and again), so that only the length of the
log differs. Then, through the full Django stack (`django.test.Client`, in-process, with a seat
token, throttling off), it times, alternating short and long:

* `view`: `GET /api/v1/games/{id}`, served from the game's snapshot (`--reads` times);
* `act`: `POST` of a legal action chosen from the acting seat's `legal_actions` by a seeded
  random player (`--acts` times; the choice and the read it needs are not timed);
* `cold_view`: the same `GET` with the snapshot removed first, so the log is replayed (and the
  snapshot written again): the cost the snapshot saves, reported but not bounded.

Then, on a third, deep game (`--deep` events, 15,000 by default, appended in one write as an
import is), alternating:

* `deep_view`: its current view (`--reads` times);
* `at_view`: `GET ...?at=N` at a random version N before the current one (`--reads` times),
  served from the nearest checkpoint (`REPLAY_CHECKPOINT_EVERY`);
* `replay_at_view`: the same with checkpoints off, so the log is folded from its start
  (`--replay-reads` times): the cost the checkpoints save, reported but not bounded.

It prints medians (and means) in milliseconds and the ratios of the medians: long/short for
the first three, `at_view`/`deep_view` (`at_ratio`) and `replay_at_view`/`deep_view`. The
command fails (exit status 1) when the view or act ratio exceeds `--max-ratio` (1.5), or the
at ratio `--max-at-ratio` (2). `--json` prints one JSON object instead: `view_ratio`,
`act_ratio`, `cold_view_ratio`, `at_ratio`, `replay_at_ratio` and the timings (`*_ms`: median,
mean and every sample).
"""

from __future__ import annotations

import json
import os
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import setup_test_environment, teardown_test_environment
from rest_framework.views import APIView

from engine import (
    DRAW,
    Action,
    GameView,
    GreedyPlayer,
    Replace,
    SeededShuffler,
    act,
    action_from_data,
    seats_to_act,
    view,
)
from engine.players import Player
from engine.state import FINISHED, PLAYING
from engine.view import FACE_UP
from games import core
from games.api.views.turns import action_segment
from games.models import Game

GAMES = "/api/v1/games"
SEATS = 2
#: High enough that greedy players do not finish a game within the benchmark.
END_SCORE = 100_000
MAX_RATIO = 1.5
#: `?at=` anywhere in the deep game costs at most this many current views of it.
MAX_AT_RATIO = 2.0


@dataclass
class BenchGame:
    game_id: str
    tokens: list[str]
    events: int  # the version it was built to
    rounds: int  # scored rounds by then (each is summarised in every view)

    @property
    def url(self) -> str:
        return f"{GAMES}/{self.game_id}"


class StallingPlayer:
    """Never ends a round: in a turn it draws and puts the card on one of its face-up cards
    (so the draw pile runs out and is reshuffled again and again); setup as `GreedyPlayer`."""

    def __init__(self) -> None:
        self.greedy = GreedyPlayer()

    def choose(self, game_view: GameView) -> Action:
        legal = game_view.legal_actions
        if game_view.status != PLAYING or game_view.you is None:
            return self.greedy.choose(game_view)
        if DRAW in legal:
            return DRAW
        for column, cells in enumerate(game_view.players[game_view.you].grid):
            for row, cell in enumerate(cells):
                if cell.state == FACE_UP and Replace(column, row) in legal:
                    return Replace(column, row)
        return self.greedy.choose(game_view)


PLAYERS: dict[str, Callable[[], Player]] = {"greedy": GreedyPlayer, "stalling": StallingPlayer}


def build_game(min_events: int, *, seed: int, players: str = "greedy") -> BenchGame:
    """A 2-seat game of at least `min_events` events (the first action boundary from there),
    built through `games.services` without HTTP: created and joined as usual, then played by
    engine players (`PLAYERS[players]`) and appended in one write."""
    game = core.create_game(seats=SEATS, options={"end_score": END_SCORE}, seed=seed)
    joined = [core.join_game(game.id, f"Bench {seat}") for seat in range(SEATS)]
    tokens = [seat.token for seat in joined if seat.token is not None]  # persons: all have one
    game = Game.objects.get(pk=game.pk)  # as joined
    before = state = core.game_state(game)
    shuffler = SeededShuffler(game.seed)
    player = PLAYERS[players]()
    events = []
    while state.version < min_events:
        if state.phase == FINISHED:
            raise CommandError(f"the game ended after {state.version} events")
        seat = seats_to_act(state)[0]
        new, state = act(state, seat, player.choose(view(state, seat)), shuffler)
        events.extend(new)
    if events:
        core.append_events(game, before, events, state)
    return BenchGame(str(game.id), tokens, state.version, len(state.rounds))


def _ms(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = fn()
    return (time.perf_counter() - start) * 1000, result


def _summary(samples: list[float]) -> dict[str, Any]:
    return {
        "median": round(statistics.median(samples), 4),
        "mean": round(statistics.fmean(samples), 4),
        "samples": [round(s, 4) for s in samples],
    }


class Bench:
    """The timed measurements, on one client and the two games."""

    def __init__(self, short: BenchGame, long: BenchGame, seed: int) -> None:
        self.client = Client()
        self.games = {"short": short, "long": long}
        self.rng = random.Random(seed)

    def _auth(self, token: str) -> dict[str, str]:
        return {"HTTP_AUTHORIZATION": f"Bearer {token}"}

    def read(self, game: BenchGame) -> float:
        elapsed, response = _ms(lambda: self.client.get(game.url, **self._auth(game.tokens[0])))
        if response.status_code != 200:
            raise CommandError(f"GET {game.url} answered {response.status_code}")
        return elapsed

    def read_at(self, game: BenchGame) -> float:
        """A replay at a random version before the current one."""
        at = self.rng.randrange(1, game.events)
        url = f"{game.url}?at={at}"
        elapsed, response = _ms(lambda: self.client.get(url, **self._auth(game.tokens[0])))
        if response.status_code != 200 or response.json()["version"] != at:
            raise CommandError(f"GET {url} answered {response.status_code}")
        return elapsed

    def replay_read_at(self, game: BenchGame) -> float:
        """A replay at a random version, without checkpoints: the log folded from its start."""
        with override_settings(REPLAY_CHECKPOINT_EVERY=0):
            return self.read_at(game)

    def cold_read(self, game: BenchGame) -> float:
        Game.objects.filter(pk=game.game_id).update(snapshot=None, snapshot_version=None)
        return self.read(game)

    def next_action(self, game: BenchGame) -> tuple[str, dict[str, Any]]:
        """The token of a seat with something to do and the action its player chooses."""
        for token in game.tokens:
            data = self.client.get(game.url, **self._auth(token)).json()
            if data["legal_actions"]:
                choice = self.rng.choice(data["legal_actions"])
                action_from_data(choice)  # one of the engine's actions
                return token, choice
        raise CommandError(f"no seat of {game.game_id} can act")

    def act(self, game: BenchGame) -> float:
        token, choice = self.next_action(game)
        url = f"{game.url}/actions/{action_segment(choice['action'])}"
        body = {key: value for key, value in choice.items() if key != "action"}
        elapsed, response = _ms(
            lambda: self.client.post(
                url, body, content_type="application/json", **self._auth(token)
            )
        )
        if response.status_code != 200:
            raise CommandError(f"POST {url} answered {response.status_code}: {response.content!r}")
        return elapsed

    def measure_deep(
        self, game: BenchGame, reads: int, replay_reads: int
    ) -> dict[str, list[float]]:
        """The deep game's current view and replays, with checkpoints and without, alternating
        (after `reads` untimed ones: the first replays save the checkpoints an import has not)."""
        for _ in range(reads):
            self.read(game)
            self.read_at(game)
        samples: dict[str, list[float]] = {"deep_view": [], "at_view": [], "replay_at_view": []}
        for turn in range(reads):
            samples["deep_view"].append(self.read(game))
            samples["at_view"].append(self.read_at(game))
            if turn < replay_reads:
                samples["replay_at_view"].append(self.replay_read_at(game))
        return samples

    def measure(self, fn: Callable[[BenchGame], float], times: int) -> dict[str, list[float]]:
        """`fn` on each game in turn, `times` rounds (alternating, so drift hits both)."""
        samples: dict[str, list[float]] = {"short": [], "long": []}
        for _ in range(times):
            for name, game in self.games.items():
                samples[name].append(fn(game))
        return samples


class Command(BaseCommand):
    help = (
        "Time GET and an action on a game after 20 and after 2,000 events (and the read "
        "without a snapshot), and GET ?at= in a 15,000-event game against its current view, in "
        "a throwaway test database; fail if long/short exceeds 1.5 or at/current 2."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--short", type=int, default=20, help="Events of the short game.")
        parser.add_argument("--long", type=int, default=2000, help="Events of the long game.")
        parser.add_argument("--reads", type=int, default=200, help="Timed reads per game.")
        parser.add_argument("--acts", type=int, default=100, help="Timed actions per game.")
        parser.add_argument(
            "--cold-reads", type=int, default=None, help="Timed cold reads (default --reads)."
        )
        parser.add_argument(
            "--deep", type=int, default=15000, help="Events of the game replayed with ?at=."
        )
        parser.add_argument(
            "--replay-reads", type=int, default=20, help="Timed ?at= reads without checkpoints."
        )
        parser.add_argument("--warmup", type=int, default=5, help="Untimed reads first.")
        parser.add_argument("--seed", type=int, default=7, help="Seed of games and players.")
        parser.add_argument(
            "--players",
            choices=sorted(PLAYERS),
            default="greedy",
            help="Who builds the games: greedy players finish rounds (a 2,000-event game has "
            "about 16 scored rounds, each in every view); stalling players never end round 1, "
            "so only the log's length differs between the games.",
        )
        parser.add_argument("--max-ratio", type=float, default=MAX_RATIO)
        parser.add_argument(
            "--max-at-ratio",
            type=float,
            default=MAX_AT_RATIO,
            help="Most a ?at= read of the deep game may cost, in current views of it.",
        )
        parser.add_argument("--json", action="store_true", help="Print one JSON object.")

    def handle(self, *args: Any, **options: Any) -> None:
        if not 0 < options["short"] < options["long"]:
            raise CommandError("need 0 < --short < --long")
        if min(options["reads"], options["acts"], options["replay_reads"]) < 1:
            raise CommandError("--reads, --acts and --replay-reads must be at least 1")
        if options["deep"] < 2:
            raise CommandError("need --deep of at least 2")
        result = self.in_throwaway_database(options)
        if options["json"]:
            self.stdout.write(json.dumps(result))
        else:
            self.report(result)
        over = [k for k in ("view_ratio", "act_ratio") if result[k] > options["max_ratio"]]
        if over:
            raise CommandError(
                f"{' and '.join(over)} above {options['max_ratio']}: the cost grows with the log",
                returncode=1,
            )
        if result["at_ratio"] > options["max_at_ratio"]:
            raise CommandError(
                f"at_ratio above {options['max_at_ratio']}: a replay costs more than "
                f"{options['max_at_ratio']} current views",
                returncode=1,
            )

    def in_throwaway_database(self, options: dict[str, Any]) -> dict[str, Any]:
        """Run the benchmark in a new test database, destroyed afterwards, without throttling
        (and with DEBUG off, as in production: no query log)."""
        throttles = APIView.throttle_classes
        APIView.throttle_classes = []
        if connection.vendor != "sqlite" and not connection.settings_dict["TEST"].get("NAME"):
            # Never the name a concurrent test run uses (SQLite's is already per process).
            name = connection.settings_dict["NAME"]
            connection.settings_dict["TEST"]["NAME"] = f"test_{name}_bench_{os.getpid()}"
        setup_test_environment(debug=False)
        old_name = connection.settings_dict["NAME"]
        try:
            connection.creation.create_test_db(
                verbosity=0, autoclobber=True, keepdb=False, serialize=False
            )
            try:
                return self.run(options)
            finally:
                connection.creation.destroy_test_db(old_name, verbosity=0, keepdb=False)
        finally:
            teardown_test_environment()
            APIView.throttle_classes = throttles

    def run(self, options: dict[str, Any]) -> dict[str, Any]:
        seed = options["seed"]
        short = build_game(options["short"], seed=seed, players=options["players"])
        long = build_game(options["long"], seed=seed, players=options["players"])
        bench = Bench(short, long, seed)
        bench.measure(bench.read, options["warmup"])
        reads = bench.measure(bench.read, options["reads"])
        cold = bench.measure(bench.cold_read, options["cold_reads"] or options["reads"])
        acts = bench.measure(bench.act, options["acts"])
        deep = build_game(options["deep"], seed=seed, players=options["players"])
        replays = bench.measure_deep(deep, options["reads"], options["replay_reads"])
        result: dict[str, Any] = {
            "database": connection.vendor,
            "seats": SEATS,
            "players": options["players"],
            "short_events": short.events,
            "long_events": long.events,
            "short_rounds": short.rounds,
            "long_rounds": long.rounds,
            "reads": options["reads"],
            "acts": options["acts"],
            "max_ratio": options["max_ratio"],
            "deep_events": deep.events,
            "deep_rounds": deep.rounds,
            "replay_reads": options["replay_reads"],
            "checkpoint_every": core.checkpoint_every(),
            "max_at_ratio": options["max_at_ratio"],
        }
        for name, samples in (("view", reads), ("act", acts), ("cold_view", cold)):
            result[f"{name}_ms"] = {size: _summary(samples[size]) for size in ("short", "long")}
            medians = [statistics.median(samples[size]) for size in ("short", "long")]
            result[f"{name}_ratio"] = round(medians[1] / medians[0], 4)
        for name, deep_samples in replays.items():
            result[f"{name}_ms"] = _summary(deep_samples)
        current = statistics.median(replays["deep_view"])
        for name in ("at", "replay_at"):
            result[f"{name}_ratio"] = round(statistics.median(replays[f"{name}_view"]) / current, 4)
        return result

    def report(self, result: dict[str, Any]) -> None:
        write = self.stdout.write
        write(
            f"bench_replay ({result['database']}, {result['seats']} seats, through the Django "
            f"stack, {result['players']} players): short game {result['short_events']} events "
            f"({result['short_rounds']} rounds scored), long game {result['long_events']} events "
            f"({result['long_rounds']} rounds scored)"
        )
        write(f"{'':34} {'short ms':>9} {'long ms':>9} {'long/short':>11}")
        rows = (
            ("view", f"GET with snapshot (median of {result['reads']})"),
            ("act", f"action (median of {result['acts']})"),
            ("cold_view", "GET without snapshot (median)"),
        )
        for name, label in rows:
            timings = result[f"{name}_ms"]
            write(
                f"{label:34} {timings['short']['median']:9.3f} {timings['long']['median']:9.3f} "
                f"{result[f'{name}_ratio']:11.2f}"
            )
        for name in ("view", "act"):
            ratio = result[f"{name}_ratio"]
            verdict = "ok" if ratio <= result["max_ratio"] else "TOO HIGH"
            write(f"{name}_ratio {ratio:.2f} (at most {result['max_ratio']}): {verdict}")
        write(
            f"deep game {result['deep_events']} events ({result['deep_rounds']} rounds scored), "
            f"checkpoints every {result['checkpoint_every']} events:"
        )
        deep_rows = (
            ("deep_view", "GET current view", None),
            ("at_view", "GET ?at=random", "at_ratio"),
            ("replay_at_view", "GET ?at=random, no checkpoints", "replay_at_ratio"),
        )
        for name, label, ratio_key in deep_rows:
            ratio = f"{result[ratio_key]:11.2f}" if ratio_key else f"{'1.00':>11}"
            write(f"{label:34} {result[f'{name}_ms']['median']:9.3f} {'':9} {ratio}")
        verdict = "ok" if result["at_ratio"] <= result["max_at_ratio"] else "TOO HIGH"
        write(f"at_ratio {result['at_ratio']:.2f} (at most {result['max_at_ratio']}): {verdict}")
