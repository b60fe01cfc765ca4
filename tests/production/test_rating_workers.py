"""Rating with real worker processes (`manage.py worker`) on the test database (R14): rated
games of built-in bots finish while two workers run, their rating job queued many times over,
and each game is still rated exactly once, in one order that `manage.py rerate` (a process of
its own, as an operator runs it) reproduces to the last bit; an altered row makes it fail.
"""

from __future__ import annotations

import subprocess
import sys
import uuid
from collections import Counter

import pytest
from django.db import connection
from django_tasks_db.models import DBTaskResult

from games import core
from games.models import Game, Status
from loadtest.server import ROOT
from ratings import tasks as rating_tasks
from ratings.models import RatedGame, Rating, RatingChange
from ratings.services import pending_games
from tests.production.test_workers import running_worker, wait_until, worker_environment

pytestmark = [pytest.mark.server, pytest.mark.django_db(transaction=True)]

STRATEGIES = ("greedy", "random", "statistician", "rusher", "clearer")


def rated_bots_game(index: int) -> uuid.UUID:
    """A rated game of 2 to 4 built-in bots (each strategy once: one seat per account)."""
    seats = 2 + index % 3
    game = core.create_game(seats=seats, options={"end_score": 30}, seed=500 + index, rated=True)
    for offset in range(seats):
        strategy = STRATEGIES[(index + offset) % len(STRATEGIES)]
        core.join_game(game.id, strategy, strategy)
    return game.id


def rerate_process() -> subprocess.CompletedProcess[str]:
    """`manage.py rerate` on the test database, in a process of its own."""
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "rerate"],
        env=worker_environment(),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def all_rated(games: list[uuid.UUID]) -> bool:
    finished = Game.objects.filter(pk__in=games, status=Status.FINISHED).count()
    return finished == len(games) and not pending_games().exists()


def test_two_workers_rate_each_game_exactly_once_and_rerate_reproduces_them() -> None:
    with running_worker(), running_worker():
        games = []
        for index in range(20):
            games.append(rated_bots_game(index))
            for _ in range(2):  # duplicates of the job each finish queues, at once
                rating_tasks.rate_finished_games.enqueue()
        wait_until(lambda: all_rated(games), 180, "every game finished and rated")
        for _ in range(3):  # more duplicates, once everything is rated: nothing to do
            rating_tasks.rate_finished_games.enqueue()
        jobs = DBTaskResult.objects.filter(task_path__endswith="rate_finished_games")
        wait_until(lambda: not jobs.exclude(status="SUCCESSFUL").exists(), 60, "the jobs")
    assert DBTaskResult.objects.filter(status="FAILED").count() == 0
    assert RatedGame.objects.filter(game_id__in=games).count() == 20
    seats = dict(Game.objects.filter(pk__in=games).values_list("id", "seats"))
    changes = Counter(RatingChange.objects.values_list("game_id", flat=True))
    assert changes == Counter({game_id: seats[game_id] for game_id in games})
    for game_id in games:
        rows = RatingChange.objects.filter(game_id=game_id)
        assert sorted(rows.values_list("seat", flat=True)) == list(range(seats[game_id]))
    # Each account's games add up: one rating move per rated seat, none lost or doubled.
    played = Counter(RatingChange.objects.values_list("account_id", flat=True))
    assert dict(Rating.objects.values_list("account_id", "games")) == dict(played)
    # Every rating job ran to its end; most found nothing left (another had rated it).
    rated_by_jobs = sum(r for r in jobs.values_list("return_value", flat=True) if r)
    assert rated_by_jobs == 20 and jobs.count() >= 20 * 3
    done = rerate_process()
    assert done.returncode == 0, done.stderr
    assert f"20 rated games, {sum(seats.values())} rating changes: identical" in done.stdout
    workers = {w for ids in jobs.values_list("worker_ids", flat=True) for w in ids}
    # As in test_workers: SQLite's one write lock may let one worker drain the queue alone.
    assert len(workers) == 2 or (connection.vendor == "sqlite" and len(workers) == 1)


def test_rerate_exits_1_and_names_a_stored_row_the_logs_do_not_give() -> None:
    with running_worker():
        games = [rated_bots_game(index) for index in range(2)]
        wait_until(lambda: all_rated(games), 60, "both games rated")
    assert rerate_process().returncode == 0
    altered = RatingChange.objects.filter(game_id=games[1]).order_by("seat").last()
    assert altered is not None
    RatingChange.objects.filter(pk=altered.pk).update(sigma_after=altered.sigma_after + 1e-9)
    done = rerate_process()
    assert done.returncode == 1, done.stdout
    assert f"game {games[1]} seat {altered.seat}: stored" in done.stderr
    assert "1 differences from the stored ratings" in done.stderr
