"""The tournament: fair lineups, duplicate deals rotated over the seats, ratings, the report
and the management command."""

from __future__ import annotations

import gc
import json
import math
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from engine.events import RoundDealt
from engine.tournament import (
    RATING_MEAN,
    Config,
    GameResult,
    bootstrap_mean,
    bradley_terry,
    lineup,
    plans,
    play,
    play_all,
    standings,
)

ROOT = Path(__file__).resolve().parents[2]


def test_duplicate_mode_rotates_the_seats_over_identical_deals() -> None:
    """Each deal is played once per rotation: the same shuffler seed, so the same cards, with
    every strategy of the lineup at every seat once."""
    config = Config(("greedy", "rusher", "random"), seats=3, games=6, seed=4, duplicate=True)
    planned = list(plans(config))
    assert len(planned) == 6 and {p.deal for p in planned} == {0, 1}
    for deal in (0, 1):
        games = [p for p in planned if p.deal == deal]
        assert [p.rotation for p in games] == [0, 1, 2]
        assert len({p.shuffle_seed for p in games}) == 1
        first = games[0].lineup
        for p in games:
            assert p.lineup == tuple(first[(seat - p.rotation) % 3] for seat in range(3))
        for seat in range(3):
            assert {p.lineup[seat] for p in games} == set(first)
        dealt = [next(e for e in play(p)[1] if isinstance(e, RoundDealt)) for p in games]
        assert dealt[0] == dealt[1] == dealt[2]
    assert planned[0].shuffle_seed != planned[3].shuffle_seed


def test_without_duplicate_each_deal_is_played_once() -> None:
    config = Config(("greedy", "random"), seats=2, games=5, seed=1)
    planned = list(plans(config))
    assert [p.deal for p in planned] == [0, 1, 2, 3, 4]
    assert len({p.shuffle_seed for p in planned}) == 5


def test_duplicate_rounds_games_up_to_whole_rotations() -> None:
    config = Config(("greedy", "random"), seats=4, games=5, duplicate=True)
    assert config.deals == 2 and len(list(plans(config))) == 8


def test_lineups_are_fair_with_more_strategies_than_seats() -> None:
    rng = random.Random(0)
    names = ("a", "b", "c", "d", "e")
    seated: Counter[str] = Counter()
    for _ in range(5000):
        drawn = lineup(names, 2, rng)
        assert len(set(drawn)) == 2
        seated.update(drawn)
    assert all(abs(seated[name] - 2000) < 150 for name in names)


def test_lineups_are_fair_with_fewer_strategies_than_seats() -> None:
    rng = random.Random(0)
    extra: Counter[str] = Counter()
    for _ in range(3000):
        counts = Counter(lineup(("a", "b", "c"), 8, rng))
        assert sorted(counts.values()) in ([2, 3, 3],)
        extra.update(name for name, count in counts.items() if count == 3)
    assert all(abs(extra[name] - 2000) < 150 for name in "abc")


def test_config_refuses_what_it_cannot_play() -> None:
    for bad in (
        dict(strategies=("nobody",), seats=2, games=1),
        dict(strategies=("greedy", "greedy"), seats=2, games=1),
        dict(strategies=("greedy",), seats=9, games=1),
        dict(strategies=("greedy",), seats=2, games=0),
    ):
        with pytest.raises(ValueError):
            Config(**bad)  # type: ignore[arg-type]


def test_bradley_terry_matches_the_closed_form_for_two() -> None:
    """Two strategies: the strength ratio is the ratio of wins, one virtual draw included."""
    ratings = bradley_terry({(0, 1): 3.0, (1, 0): 1.0}, 2)
    assert ratings[0] - ratings[1] == pytest.approx(400 * math.log10(3.5 / 1.5), abs=1e-6)
    assert (ratings[0] + ratings[1]) / 2 == pytest.approx(RATING_MEAN)


def test_bradley_terry_orders_a_chain() -> None:
    wins = {(0, 1): 70.0, (1, 0): 30.0, (1, 2): 70.0, (2, 1): 30.0, (0, 2): 85.0, (2, 0): 15.0}
    a, b, c = bradley_terry(wins, 3)
    assert a > b > c


def test_a_shared_win_counts_for_each_winner() -> None:
    config = Config(("greedy", "random", "rusher"), seats=3, games=1)
    results = [GameResult(0, ("greedy", "random", "rusher"), (40, 40, 101), 5, (0, 1), 300)]
    table = standings(results, config)
    assert table["greedy"].wins == table["random"].wins == 1 and table["rusher"].wins == 0
    assert table["greedy"].rating == pytest.approx(table["random"].rating)
    assert table["greedy"].mean_score == 40 and table["greedy"].mean_round_score == 8


def test_strategies_holding_several_seats_count_each_seat() -> None:
    config = Config(("greedy", "random"), seats=4, games=1)
    results = [
        GameResult(0, ("greedy", "random", "greedy", "random"), (10, 20, 30, 40), 2, (0,), 9)
    ]
    table = standings(results, config)
    assert table["greedy"].games == 2 and table["greedy"].wins == 1
    assert table["greedy"].score == 40


def test_results_do_not_depend_on_the_number_of_jobs() -> None:
    config = Config(("greedy", "random"), seats=2, games=6, seed=3, duplicate=True)
    assert play_all(config, jobs=1)[0] == play_all(config, jobs=2)[0]


def test_the_collector_is_paused_only_while_games_are_played() -> None:
    """A worker pauses the cyclic garbage collector for its games (they make no cycles) and
    turns it back on; a caller that had turned it off finds it off."""
    config = Config(("greedy",), seats=2, games=2, seed=3)
    assert gc.isenabled()
    play_all(config)
    assert gc.isenabled()
    gc.disable()
    try:
        play_all(config)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_greedy_beats_random() -> None:
    config = Config(("greedy", "random"), seats=2, games=20, seed=2, duplicate=True)
    table = standings(play_all(config)[0], config)
    assert table["greedy"].win_rate > 0.9 > 0.1 > table["random"].win_rate
    low, high = table["greedy"].rating_ci
    assert low <= table["greedy"].rating <= high and table["random"].rating_ci[1] < low


@pytest.mark.server
@pytest.mark.no_db  # manage.py tournament plays in memory: it opens no database
def test_the_command_prints_the_documented_json() -> None:
    """`manage.py tournament ... --json` prints exactly one JSON object, as documented."""
    command = [sys.executable, "manage.py", "tournament", "--strategies", "greedy,random"]
    command += ["--seats", "2", "--games", "4", "--seed", "5", "--duplicate", "--json"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert set(data) == {"games", "seats", "games_per_s", "jobs", "games_per_cpu_s", "strategies"}
    assert data["games"] == 4 and data["seats"] == 2 and data["games_per_s"] > 0
    assert data["games_per_cpu_s"] > 0 and data["jobs"] >= 1
    assert set(data["strategies"]) == {"greedy", "random"}
    for figures in data["strategies"].values():
        assert {"games", "wins", "win_rate", "mean_score", "rating", "rating_ci"} <= set(figures)
        assert figures["games"] == 4
        low, high = figures["rating_ci"]
        assert low <= figures["rating"] <= high
    assert done.stderr == ""  # no progress bar when stderr is not a terminal


@pytest.mark.server
@pytest.mark.no_db
def test_the_command_prints_a_table_and_refuses_unknown_strategies() -> None:
    command = [sys.executable, "manage.py", "tournament", "--strategies", "greedy,random"]
    done = subprocess.run(
        [*command, "--games", "2", "--jobs", "1"], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0 and "games/s" in done.stdout and "greedy" in done.stdout
    bad = subprocess.run(
        [sys.executable, "manage.py", "tournament", "--strategies", "greedy,nobody"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert bad.returncode != 0 and "unknown strategies: nobody" in bad.stderr


def test_the_bootstrap_of_a_mean_is_seeded_and_within_the_values() -> None:
    """The ladder's intervals: a percentile bootstrap of the mean over deals, the same for the
    same values and seed, inside the values' range, a point for a single value."""
    values = [12.0, 30.5, 18.0, 25.0, 9.5]
    low, high = bootstrap_mean(values, seed="s")
    assert bootstrap_mean(values, seed="s") == (low, high)
    assert min(values) <= low < sum(values) / len(values) < high <= max(values)
    assert bootstrap_mean([7.0], seed="s") == (7.0, 7.0)
