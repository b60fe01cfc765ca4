"""R14 through the use cases: a rated game of built-in bots finishes, the job queued with its
last append rates it once, in one `model.rate`, and `rerate` reproduces the stored rows."""

from __future__ import annotations

import itertools
import uuid

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games import core
from games.models import Game
from ratings import services
from ratings.models import RatedGame, Rating, RatingChange
from ratings.skill import DEFAULT, Skill, rate
from tests.api.bots_support import run_jobs

pytestmark = pytest.mark.django_db


def bots_game(*strategies: str, rated: bool = True, seed: int = 7) -> uuid.UUID:
    game = core.create_game(
        seats=len(strategies), options={"end_score": 30}, seed=seed, rated=rated
    )
    for strategy in strategies:
        core.join_game(game.id, strategy, strategy)
    return game.id


def test_a_finished_rated_game_is_rated_once_by_its_job() -> None:
    game_id = bots_game("greedy", "random", "statistician")
    run_jobs()
    assert Game.objects.get(pk=game_id).status == "finished"
    changes = list(RatingChange.objects.filter(game_id=game_id).order_by("seat"))
    assert [c.account.handle for c in changes] == ["greedy", "random", "statistician"]
    expected = rate([DEFAULT] * 3, [c.rank for c in changes])
    assert [(c.mu_after, c.sigma_after) for c in changes] == [(s.mu, s.sigma) for s in expected]
    assert services.rate_pending() == 0  # again: nothing more
    assert RatedGame.objects.count() == 1
    assert Rating.objects.get(account__handle="greedy").games == 1


def test_a_casual_game_is_never_rated() -> None:
    bots_game("greedy", "random", rated=False)
    run_jobs()
    assert not RatingChange.objects.exists() and services.pending_games().count() == 0


def test_ratings_carry_on_from_game_to_game_and_rerate_reproduces_them() -> None:
    for seed in (1, 2, 3):
        bots_game("greedy", "random", seed=seed)
        run_jobs()
    greedy = RatingChange.objects.filter(account__handle="greedy").order_by("rated_game")
    for earlier, later in itertools.pairwise(greedy):
        assert (later.mu_before, later.sigma_before) == (earlier.mu_after, earlier.sigma_after)
    found = services.rerate()
    assert (found.games, found.rows, found.differences) == (3, 6, [])
    call_command("rerate")  # exit status 0


def test_rerate_names_a_stored_row_that_the_logs_do_not_give() -> None:
    bots_game("greedy", "random")
    run_jobs()
    RatingChange.objects.filter(seat=0).update(mu_after=99.0)
    assert len(services.rerate().differences) == 1
    with pytest.raises(CommandError):
        call_command("rerate")


def test_the_ordinal_is_mu_less_three_sigmas() -> None:
    assert Skill(30.0, 2.0).ordinal == 24.0


def test_a_rated_game_shows_each_seat_its_rating_at_the_deal_and_its_change() -> None:
    from ratings.reading import leaderboard, seat_ratings

    first = bots_game("greedy", "random", seed=1)
    run_jobs()
    second = bots_game("greedy", "random", seed=2)
    run_jobs()
    seats = seat_ratings(Game.objects.get(pk=second))
    assert seats is not None and [s.handle for s in seats] == ["greedy", "random"]
    before = RatingChange.objects.get(game_id=first, seat=0)
    assert seats[0].entered["mu"] == before.mu_after and seats[0].entered["games"] == 1
    assert abs(sum(s.predicted_win for s in seats) - 1) < 1e-9
    assert seats[0].change is not None and seats[0].change["rank"] in (1, 2)
    assert seat_ratings(Game.objects.get(pk=bots_game("greedy", "random", rated=False))) is None
    assert list(leaderboard("bot")) == []  # two games: provisional
    assert [r.account.handle for r in leaderboard("bot", provisional=True)] in (
        ["greedy", "random"],
        ["random", "greedy"],
    )


def test_an_account_that_leaves_a_rated_game_ranks_last_and_its_bot_is_not_rated() -> None:
    from accounts.services import acting_for, sign_up

    ada = sign_up("ada-bot", "bot", None).account
    game = core.create_game(seats=3, options={"end_score": 30}, seed=5, rated=True)
    core.join_game(game.id, "", account=acting_for(ada.pk))
    core.join_game(game.id, "greedy", "greedy")
    core.join_game(game.id, "random", "random")  # dealt
    core.leave_seat(game.id, 0, acting_for(ada.pk))  # a bot plays seat 0 to the end
    run_jobs()
    changes = {c.account.handle: c for c in RatingChange.objects.filter(game=game)}
    assert set(changes) == {"ada-bot", "greedy", "random"}  # no row for the replacing bot
    assert changes["ada-bot"].rank == 3
    totals = Game.objects.get(pk=game.id).totals
    assert sorted([changes["greedy"].rank, changes["random"].rank]) == (
        [1, 1] if totals[1] == totals[2] else [1, 2]
    )


def test_a_rating_history_names_listed_games_only() -> None:
    from accounts.models import Account
    from ratings.reading import rating_history

    listed = bots_game("greedy", "random", seed=1)
    run_jobs()
    private = core.create_game(seats=2, options={"end_score": 30}, seed=2, rated=True, listed=False)
    for strategy in ("greedy", "random"):
        core.join_game(private.id, strategy, strategy)
    run_jobs()
    history = rating_history(Account.objects.get(handle="greedy"))
    assert [point["game"] for point in history] == [listed, None]


def test_a_game_that_cannot_be_rated_is_left_pending_and_holds_no_other_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    broken = bots_game("greedy", "random", seed=1)
    fine = bots_game("statistician", "rusher", seed=2)
    real = services.outcome_of

    def outcome_of(game: Game) -> services.Outcome:
        if game.pk == broken:
            raise RuntimeError("a log that cannot be read")
        return real(game)

    monkeypatch.setattr(services, "outcome_of", outcome_of)
    run_jobs()
    assert RatedGame.objects.filter(game_id=fine).exists()
    assert [g.pk for g in services.pending_games()] == [broken]
    monkeypatch.setattr(services, "outcome_of", real)
    assert services.rate_pending() == 1 and not services.pending_games().exists()
