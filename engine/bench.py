"""Benchmark of the rules engine: `python -m engine.bench [--seconds S] [--games N] [--json]`.

Plays complete games with the random and the greedy player at 2, 4 and 8 seats (`decide` and
`evolve` through `simulate.play_game`, events included) and reports games, turns, actions and
events per second; then times `evolve.replay` of a long game's log from scratch.

A turn is one player's complete turn: a `TurnPassed` event, or a `RoundEnded` event for the
last turn of a round. Setup reveals are not turns. Each configuration is measured in
`--repeat` batches and the best batch is reported, as `timeit` does, since a busy machine only
ever makes a batch slower.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .actions import Action
from .events import Event, RoundEnded, TurnPassed
from .evolve import replay
from .players import GreedyPlayer, RandomPlayer
from .simulate import chooser_from_legal, chooser_from_view, play_game
from .state import GameState

Chooser = Callable[[GameState, int], Action]

PLAYERS: dict[str, Callable[[int], Chooser]] = {
    "random": lambda seed: chooser_from_legal(RandomPlayer(seed)),
    "greedy": lambda seed: chooser_from_view(GreedyPlayer()),
}
SEATS: tuple[int, ...] = (2, 4, 8)

#: The targets, on a 2-core machine, one process (docs/PERFORMANCE.md).
TARGET_RANDOM_4_TURNS_PER_S = 100_000
TARGET_REPLAY_EVENTS_PER_S = 300_000
TARGET_GREEDY_4_REPLAY_MS = 10.0


@dataclass
class Batch:
    """Totals of some games played back to back; `seconds` counts play only."""

    games: int = 0
    turns: int = 0
    actions: int = 0
    events: int = 0
    seconds: float = 0.0

    def rate(self, count: int) -> float:
        return count / self.seconds if self.seconds > 0 else 0.0


def count_turns(events: Sequence[Event]) -> int:
    """Complete turns in a log: every `TurnPassed`, plus the last turn of each round."""
    return sum(1 for event in events if type(event) is TurnPassed or type(event) is RoundEnded)


def play_batch(
    player: str, seats: int, *, seconds: float, games: int, first_seed: int
) -> tuple[Batch, list[Event]]:
    """Play games until `seconds` of play or `games` games (at least one); also return the
    longest log seen."""
    make = PLAYERS[player]
    batch = Batch()
    longest: list[Event] = []
    seed = first_seed
    while batch.games < 1 or (batch.seconds < seconds and batch.games < games):
        choosers = [make(seed * 10 + seat) for seat in range(seats)]
        start = time.perf_counter()
        played = play_game(choosers, seed=seed)
        batch.seconds += time.perf_counter() - start
        batch.games += 1
        batch.turns += count_turns(played.events)
        batch.actions += played.actions
        batch.events += len(played.events)
        if len(played.events) > len(longest):
            longest = played.events
        seed += 1
    return batch, longest


def time_replay(events: Sequence[Event], *, seconds: float, repeat: int) -> float:
    """The best time, in seconds, to replay `events` from scratch, over `repeat` batches."""
    loops = 1
    while True:  # calibrate: a batch of about seconds / repeat
        start = time.perf_counter()
        for _ in range(loops):
            replay(events)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds / repeat / 2 or loops >= 1 << 20:
            break
        loops *= 2
    best = elapsed / loops
    for _ in range(repeat - 1):
        start = time.perf_counter()
        for _ in range(loops):
            replay(events)
        best = min(best, (time.perf_counter() - start) / loops)
    return best


def run(
    *, seconds: float = 2.0, games: int = 1_000_000, repeat: int = 3, seed: int = 1
) -> dict[str, float | int | str | bool]:
    """Every figure of the benchmark, in a flat dict. `seconds` is per configuration."""
    results: dict[str, float | int | str | bool] = {
        "python": platform.python_version(),
        "seconds_per_config": seconds,
        "repeat": repeat,
    }
    greedy_4_log: list[Event] = []
    for player in PLAYERS:
        for seats in SEATS:
            best: Batch | None = None
            for index in range(repeat):
                batch, longest = play_batch(
                    player,
                    seats,
                    seconds=seconds / repeat,
                    games=max(1, games // repeat),
                    first_seed=seed + index * 100_000,
                )
                if best is None or batch.rate(batch.turns) > best.rate(best.turns):
                    best = batch
                if player == "greedy" and seats == 4 and len(longest) > len(greedy_4_log):
                    greedy_4_log = longest
            assert best is not None
            prefix = f"{player}_{seats}"
            results[f"{prefix}_games"] = best.games
            results[f"{prefix}_games_per_s"] = best.rate(best.games)
            results[f"{prefix}_turns_per_s"] = best.rate(best.turns)
            results[f"{prefix}_actions_per_s"] = best.rate(best.actions)
            results[f"{prefix}_events_per_s"] = best.rate(best.events)
            results[f"{prefix}_turns_per_game"] = best.turns / best.games
    replay_seconds = time_replay(greedy_4_log, seconds=min(seconds, 1.0), repeat=repeat)
    results["replay_events"] = len(greedy_4_log)
    results["greedy_4_replay_ms"] = replay_seconds * 1000
    results["replay_events_per_s"] = len(greedy_4_log) / replay_seconds
    results["targets_met"] = (
        float(results["random_4_turns_per_s"]) >= TARGET_RANDOM_4_TURNS_PER_S
        and float(results["replay_events_per_s"]) >= TARGET_REPLAY_EVENTS_PER_S
        and float(results["greedy_4_replay_ms"]) < TARGET_GREEDY_4_REPLAY_MS
    )
    return results


def report(results: dict[str, float | int | str | bool]) -> str:
    """The figures as a table, for a person."""
    lines = [
        f"Skyjo engine benchmark (Python {results['python']}, one process, "
        f"best of {results['repeat']} batches, ~{results['seconds_per_config']} s per config)",
        "",
        f"{'player':<8}{'seats':>6}{'games/s':>12}{'turns/s':>12}{'actions/s':>12}"
        f"{'events/s':>12}{'turns/game':>12}",
    ]
    for player in PLAYERS:
        for seats in SEATS:
            p = f"{player}_{seats}"
            lines.append(
                f"{player:<8}{seats:>6}{results[p + '_games_per_s']:>12,.1f}"
                f"{results[p + '_turns_per_s']:>12,.0f}{results[p + '_actions_per_s']:>12,.0f}"
                f"{results[p + '_events_per_s']:>12,.0f}{results[p + '_turns_per_game']:>12,.1f}"
            )
    lines += [
        "",
        f"replay of a greedy 4-seat game ({results['replay_events']} events) from scratch: "
        f"{results['greedy_4_replay_ms']:.3f} ms, {results['replay_events_per_s']:,.0f} events/s",
        "",
        f"targets: random 4-seat >= {TARGET_RANDOM_4_TURNS_PER_S:,} turns/s, replay >= "
        f"{TARGET_REPLAY_EVENTS_PER_S:,} events/s, greedy 4-seat game replayed in < "
        f"{TARGET_GREEDY_4_REPLAY_MS:g} ms: {'met' if results['targets_met'] else 'NOT met'}",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.bench", description="Benchmark of the Skyjo rules engine."
    )
    parser.add_argument(
        "--seconds", type=float, default=2.0, help="play time per configuration (default 2)"
    )
    parser.add_argument(
        "--games", type=int, default=1_000_000, help="at most this many games per configuration"
    )
    parser.add_argument("--repeat", type=int, default=3, help="batches per configuration")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--check", action="store_true", help="exit with status 1 when a target is missed"
    )
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.games < 1 or args.repeat < 1:
        parser.error("--seconds, --games and --repeat must be positive")
    results = run(seconds=args.seconds, games=args.games, repeat=args.repeat, seed=args.seed)
    print(json.dumps(results, indent=2) if args.json else report(results))
    return 1 if args.check and not results["targets_met"] else 0


if __name__ == "__main__":
    sys.exit(main())
