"""Tournaments between the built-in strategies, engine-only (no HTTP, no database).

    report = run(Config(("statistician", "greedy"), seats=2, games=2000, seed=1, duplicate=True))

**Deals and seats.** Games are played in *deals*: a deal is one shuffler seed (so the same
cards, round after round, for the same choices) and one *lineup*, the strategy at each seat.
The lineup is drawn from the deal's own seeded generator, so every strategy gets the same
chances: with more strategies than seats, a uniformly random subset in a random order; with
fewer, every strategy holds `seats // k` seats and the `seats % k` left over go to strategies
drawn at random, then the seats are shuffled. Without `duplicate` a deal is played once; with
it, once per rotation of the lineup (seat i plays `lineup[(i - r) % seats]` in rotation r), on
the same shuffler seed, so the luck of the deal cancels out. `games` is then rounded up to a
whole number of rotations.

**Scores.** Each seat a strategy holds counts as one game for it (a strategy holding two seats
of a game plays two games). A shared win (R3: tied lowest totals) is a win for each winner.

**Rating.** Bradley-Terry strengths from the pairwise results within each game (every two
seats held by different strategies: the lower total beats the higher, equal totals count half
a win each), fitted by Hunter's MM algorithm with one virtual drawn game per pair of
strategies that met (so a strategy that never lost still has a finite rating), shown on the
Elo scale (400 log10 of the strength, the mean rating 1500). The 95% interval is a percentile
bootstrap over deals (a deal's rotations are resampled together, since they share their cards).
"""

from __future__ import annotations

import gc
import math
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any, NamedTuple, TextIO

from .decide import act, seats_to_act
from .events import Event
from .options import MAX_SEATS, MIN_SEATS, Options
from .shuffle import SeededShuffler
from .simulate import start_game
from .state import FINISHED, PLAYING
from .strategies import STRATEGIES, History, Seen, strategy
from .view import seat_view

#: Bootstrap resamples behind each rating's interval.
BOOTSTRAP = 200
#: The Elo scale's centre: the mean rating.
RATING_MEAN = 1500.0
MAX_ACTIONS = 100_000


@dataclass(frozen=True)
class Config:
    """What to play: `strategies` by name, at `seats`, `games` games from `seed`."""

    strategies: tuple[str, ...]
    seats: int
    games: int
    seed: int = 0
    duplicate: bool = False
    options: Options = field(default_factory=Options)

    def __post_init__(self) -> None:
        unknown = [name for name in self.strategies if name not in STRATEGIES]
        if unknown:
            raise ValueError(f"unknown strategies: {', '.join(unknown)}")
        if len(set(self.strategies)) != len(self.strategies) or not self.strategies:
            raise ValueError("name each strategy once, at least one")
        if not MIN_SEATS <= self.seats <= MAX_SEATS:
            raise ValueError(f"seats must be between {MIN_SEATS} and {MAX_SEATS}")
        if self.games < 1:
            raise ValueError("play at least one game")

    @property
    def rotations(self) -> int:
        """Games per deal: every rotation of the seats with `duplicate`, else one."""
        return self.seats if self.duplicate else 1

    @property
    def deals(self) -> int:
        return -(-self.games // self.rotations)


class Plan(NamedTuple):
    """One game to play: its deal, its rotation, the shuffler seed and the strategy of each
    seat; `key` seeds the strategies' randomness."""

    deal: int
    rotation: int
    shuffle_seed: int
    lineup: tuple[str, ...]
    key: str


class GameResult(NamedTuple):
    """A finished game: its plan's deal and lineup, the final totals, the rounds played, the
    winners (R3) and the actions taken."""

    deal: int
    lineup: tuple[str, ...]
    totals: tuple[int, ...]
    rounds: int
    winners: tuple[int, ...]
    actions: int


def lineup(strategies: Sequence[str], seats: int, rng: random.Random) -> tuple[str, ...]:
    """The strategy of each seat for one deal, fair to every strategy (see the module)."""
    if len(strategies) >= seats:
        return tuple(rng.sample(list(strategies), seats))
    each, extra = divmod(seats, len(strategies))
    chosen = [name for name in strategies for _ in range(each)]
    chosen += rng.sample(list(strategies), extra)
    rng.shuffle(chosen)
    return tuple(chosen)


def plans(config: Config, deals: Iterable[int] | None = None) -> Iterator[Plan]:
    """The games of the tournament (or of the given deals), deal by deal, rotation by rotation."""
    for deal in range(config.deals) if deals is None else deals:
        rng = random.Random(f"{config.seed}/deal/{deal}")
        shuffle_seed = rng.getrandbits(63)
        first = lineup(config.strategies, config.seats, rng)
        for rotation in range(config.rotations):
            seated = tuple(first[(seat - rotation) % config.seats] for seat in range(config.seats))
            yield Plan(deal, rotation, shuffle_seed, seated, f"{config.seed}/{deal}/{rotation}")


def play(plan: Plan, options: Options | None = None) -> tuple[GameResult, list[Event]]:
    """Play one planned game to its end; its result and its log."""
    seats = len(plan.lineup)
    shuffler = SeededShuffler(plan.shuffle_seed)
    events, state = start_game(seats, shuffler, options)
    histories = [History(seat, seats, events) for seat in range(seats)]
    choosers = [strategy(name).choose for name in plan.lineup]
    key = plan.key
    actions = 0
    while state.phase != FINISHED:  # the hot loop of a tournament: a move per pass
        if actions >= MAX_ACTIONS:
            raise RuntimeError(f"game {plan} did not end")
        seat = state.current
        if seat is None or state.phase != PLAYING:
            seat = seats_to_act(state)[0]  # in setup the first seat with reveals left (R4.3)
        chosen = choosers[seat](Seen(seat_view(state, seat), histories[seat], key))
        new, state = act(state, seat, chosen, shuffler)
        events += new
        actions += 1
    result = GameResult(
        plan.deal, plan.lineup, state.totals, len(state.rounds), state.winners, actions
    )
    return result, events


def _play_deals(task: tuple[Config, list[int]]) -> tuple[list[GameResult], float]:
    """A worker's job: every game of some deals (results only: logs stay in the worker), and
    the CPU seconds the worker spent on them."""
    config, deals = task
    start = time.process_time()
    with _collector_paused():
        results = [play(plan, config.options)[0] for plan in plans(config, deals)]
    return results, time.process_time() - start


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while games are played: a game makes no cycles
    (its objects are freed by their counts), but its many small tuples and events set off a
    collection every few hundred allocations, each scanning what is young for nothing."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def play_all(
    config: Config, jobs: int = 1, progress: Callable[[int], None] | None = None
) -> tuple[list[GameResult], float]:
    """Every game of the tournament, on `jobs` processes; `progress(games done)` after each
    batch of deals. The results come back in plan order whatever the number of jobs, with the
    CPU seconds the games took, summed over the processes: a figure a busy machine changes
    far less than the wall clock's."""
    per_task = max(1, min(16, config.deals // (jobs * 8)))
    tasks = [
        (config, list(range(start, min(start + per_task, config.deals))))
        for start in range(0, config.deals, per_task)
    ]
    pool = get_context("fork").Pool(jobs) if jobs > 1 else None
    results: list[GameResult] = []
    cpu = 0.0
    try:
        batches = map(_play_deals, tasks) if pool is None else pool.imap(_play_deals, tasks)
        for batch, seconds in batches:
            results.extend(batch)
            cpu += seconds
            if progress is not None:
                progress(len(results))
    finally:
        if pool is not None:
            pool.terminate()
    return results, cpu


# Ratings.

Pairs = dict[tuple[int, int], float]  # (winner, loser) strategy indexes -> wins (ties: halves)


def deal_pairs(results: Sequence[GameResult], index: dict[str, int]) -> list[Pairs]:
    """Per deal, the pairwise wins between strategies within its games."""
    by_deal: dict[int, Pairs] = {}
    for result in results:
        wins = by_deal.setdefault(result.deal, {})
        seats = len(result.lineup)
        for a in range(seats):
            for b in range(a + 1, seats):
                i, j = index[result.lineup[a]], index[result.lineup[b]]
                if i == j:
                    continue
                ta, tb = result.totals[a], result.totals[b]
                if ta <= tb:
                    wins[(i, j)] = wins.get((i, j), 0.0) + (1.0 if ta < tb else 0.5)
                if tb <= ta:
                    wins[(j, i)] = wins.get((j, i), 0.0) + (1.0 if tb < ta else 0.5)
    return list(by_deal.values())


def bradley_terry(wins: Pairs, count: int, iterations: int = 500) -> list[float]:
    """Elo-scale ratings of `count` strategies from pairwise wins (MM algorithm, with one
    virtual drawn game per pair that met; the mean rating is `RATING_MEAN`)."""
    total_wins = [0.0] * count
    games: dict[tuple[int, int], float] = {}
    for (i, j), won in wins.items():
        total_wins[i] += won
        key = (min(i, j), max(i, j))
        games[key] = games.get(key, 0.0) + won
    for key in games:  # the prior: half a win each way
        games[key] += 1.0
        total_wins[key[0]] += 0.5
        total_wins[key[1]] += 0.5
    strength = [1.0] * count
    for _ in range(iterations):
        denominators = [0.0] * count
        for (i, j), played in games.items():
            share = played / (strength[i] + strength[j])
            denominators[i] += share
            denominators[j] += share
        new = [
            total_wins[i] / denominators[i] if denominators[i] > 0 else strength[i]
            for i in range(count)
        ]
        mean_log = sum(math.log(s) for s in new) / count
        new = [s / math.exp(mean_log) for s in new]
        converged = max(abs(a - b) for a, b in zip(new, strength, strict=True)) < 1e-10
        strength = new
        if converged:
            break
    return [RATING_MEAN + 400.0 * math.log10(s) for s in strength]


def _sum_pairs(per_deal: Sequence[Pairs], weights: Iterable[tuple[int, int]]) -> Pairs:
    total: Pairs = {}
    for deal, weight in weights:
        for key, won in per_deal[deal].items():
            total[key] = total.get(key, 0.0) + won * weight
    return total


def ratings(
    results: Sequence[GameResult], names: Sequence[str], *, seed: int, resamples: int = BOOTSTRAP
) -> tuple[list[float], list[tuple[float, float]]]:
    """Bradley-Terry ratings and their 95% percentile-bootstrap intervals over deals."""
    index = {name: i for i, name in enumerate(names)}
    per_deal = deal_pairs(results, index)
    point = bradley_terry(_sum_pairs(per_deal, ((d, 1) for d in range(len(per_deal)))), len(names))
    rng = random.Random(f"{seed}/bootstrap")
    samples: list[list[float]] = []
    for _ in range(resamples):
        drawn = Counter(rng.choices(range(len(per_deal)), k=len(per_deal)))
        samples.append(bradley_terry(_sum_pairs(per_deal, drawn.items()), len(names)))
    intervals = [
        percentile_interval([sample[i] for sample in samples], point[i]) for i in range(len(names))
    ]
    return point, intervals


def percentile_interval(samples: Sequence[float], point: float) -> tuple[float, float]:
    """The 95% percentile interval of bootstrap `samples` (`point` twice when there are none)."""
    values = sorted(samples)
    if not values:
        return point, point
    low = values[int(0.025 * (len(values) - 1))]
    high = values[math.ceil(0.975 * (len(values) - 1))]
    return low, high


def bootstrap_mean(
    values: Sequence[float], *, seed: object, resamples: int = BOOTSTRAP
) -> tuple[float, float]:
    """The 95% percentile-bootstrap interval of the mean of `values` (one per deal: the units
    resampled, as `ratings` resamples deals), seeded so that the same values and seed give the
    same interval."""
    if not values:
        raise ValueError("no values to bootstrap")
    rng = random.Random(f"{seed}/bootstrap")
    size = len(values)
    samples = [math.fsum(rng.choices(values, k=size)) / size for _ in range(resamples)]
    return percentile_interval(samples, math.fsum(values) / size)


# The report.


@dataclass
class Standing:
    """One strategy's figures over the tournament."""

    games: int = 0
    wins: int = 0
    score: int = 0  # the sum of its final totals
    rounds: int = 0
    rating: float = RATING_MEAN
    rating_ci: tuple[float, float] = (RATING_MEAN, RATING_MEAN)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def mean_score(self) -> float:
        return self.score / self.games if self.games else 0.0

    @property
    def mean_round_score(self) -> float:
        return self.score / self.rounds if self.rounds else 0.0


@dataclass
class Report:
    config: Config
    games: int
    seconds: float
    standings: dict[str, Standing]
    cpu_seconds: float = 0.0  # the games' CPU time, summed over the processes
    jobs: int = 1

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def games_per_cpu_s(self) -> float:
        """Games per second of one process's CPU time: what a core of its own would play."""
        return self.games / self.cpu_seconds if self.cpu_seconds > 0 else 0.0

    def to_data(self) -> dict[str, Any]:
        """The `--json` object."""
        return {
            "games": self.games,
            "seats": self.config.seats,
            "games_per_s": round(self.games_per_s, 2),
            "jobs": self.jobs,
            "games_per_cpu_s": round(self.games_per_cpu_s, 2),
            "strategies": {
                name: {
                    "games": s.games,
                    "wins": s.wins,
                    "win_rate": round(s.win_rate, 4),
                    "mean_score": round(s.mean_score, 2),
                    "mean_round_score": round(s.mean_round_score, 3),
                    "rating": round(s.rating, 1),
                    "rating_ci": [round(s.rating_ci[0], 1), round(s.rating_ci[1], 1)],
                }
                for name, s in self.standings.items()
            },
        }

    def table(self) -> str:
        """The report for a person, best rating first."""
        config = self.config
        duplicate = " (duplicate: each deal once per rotation)" if config.duplicate else ""
        lines = [
            f"{self.games} games at {config.seats} seats{duplicate}, seed {config.seed}: "
            f"{self.games_per_s:,.1f} games/s on {self.jobs} processes "
            f"({self.games_per_cpu_s:,.1f} per CPU second)",
            "",
            f"{'strategy':<14}{'games':>7}{'wins':>7}{'win rate':>10}{'per round':>11}"
            f"{'per game':>10}{'rating':>9}   95% interval",
        ]
        ranked = sorted(self.standings.items(), key=lambda item: -item[1].rating)
        for name, s in ranked:
            lines.append(
                f"{name:<14}{s.games:>7}{s.wins:>7}{s.win_rate:>10.1%}{s.mean_round_score:>11.2f}"
                f"{s.mean_score:>10.1f}{s.rating:>9.0f}"
                f"   [{s.rating_ci[0]:.0f}, {s.rating_ci[1]:.0f}]"
            )
        lines += [
            "",
            "Ratings: Bradley-Terry from the pairwise results within each game, on the Elo scale"
            " (mean 1500);",
            "intervals: 95% percentile bootstrap over deals. A shared win counts for each winner.",
        ]
        return "\n".join(lines)


def standings(results: Sequence[GameResult], config: Config) -> dict[str, Standing]:
    """Per strategy: games, wins, scores, rounds and its rating."""
    table = {name: Standing() for name in config.strategies}
    for result in results:
        for seat, name in enumerate(result.lineup):
            s = table[name]
            s.games += 1
            s.wins += seat in result.winners
            s.score += result.totals[seat]
            s.rounds += result.rounds
    point, intervals = ratings(results, config.strategies, seed=config.seed)
    for name, rating, interval in zip(config.strategies, point, intervals, strict=True):
        table[name].rating = rating
        table[name].rating_ci = interval
    return table


def run(config: Config, jobs: int | None = None, progress: TextIO | None = None) -> Report:
    """Play the tournament on `jobs` processes (default: every core) and report; a progress
    bar goes to `progress` when given."""
    jobs = jobs or os.cpu_count() or 1
    total = config.deals * config.rotations
    start = time.perf_counter()
    bar = None if progress is None else _bar(progress, total, start)
    results, cpu = play_all(config, jobs, bar)
    seconds = time.perf_counter() - start
    if progress is not None:
        progress.write("\n")
    return Report(config, len(results), seconds, standings(results, config), cpu, jobs)


def _bar(out: TextIO, total: int, start: float) -> Callable[[int], None]:
    def show(done: int) -> None:
        width = 30
        filled = width * done // total
        rate = done / max(time.perf_counter() - start, 1e-9)
        out.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games, {rate:,.0f}/s")
        out.flush()

    return show


def progress_stream() -> TextIO | None:
    """stderr when it is a terminal (the progress bar is for people), else None."""
    return sys.stderr if sys.stderr.isatty() else None
