"""R13, no person left: the service plays a game of bots alone for `BOT_ONLY_MAX_ROUNDS`
rounds, then ends it (`GameEnded`, reason `round_limit`); the log stays one that histories,
imports and `verify_games` accept. Jobs run in this process, as a worker runs them."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.test import override_settings
from rest_framework.test import APIClient

from engine.audit import verify_log
from engine.events import END_SCORE, ROUND_LIMIT, GameEnded, RoundDealt
from games.models import Game
from games.store import log

from .bots_support import leave, run_jobs, seat_bot
from .support import GAMES, create_game, get_view, join
from .test_bots import assert_imports_identically, play_persons

pytestmark = pytest.mark.django_db


def ended(game_id: str) -> GameEnded:
    last = log.engine_events(Game.objects.get(pk=game_id))[-1]
    assert isinstance(last, GameEnded)
    return last


@override_settings(BOT_ONLY_MAX_ROUNDS=2)
def test_a_game_of_bots_alone_ends_after_the_round_limit(api: APIClient) -> None:
    game_id = create_game(api, 3, seed=5, end_score=100_000)["id"]
    for _ in range(3):
        seat_bot(api, game_id, "random")
    run_jobs()
    final = get_view(api, game_id)
    assert final["status"] == "finished" and len(final["rounds"]) == 2
    totals = [player["total"] for player in final["players"]]
    assert final["winners"] == [seat for seat, t in enumerate(totals) if t == min(totals)]
    assert ended(game_id).reason == ROUND_LIMIT
    game = Game.objects.get(pk=game_id)
    assert not game.bots_to_move
    assert verify_log(log.engine_events(game)).phase == "finished"
    call_command("verify_games", game_id)
    assert_imports_identically(api, game_id)
    history = api.get(f"{GAMES}/{game_id}/history").json()
    assert history["events"][-1]["data"]["reason"] == ROUND_LIMIT


@override_settings(BOT_ONLY_MAX_ROUNDS=1)
def test_the_rounds_count_once_the_last_person_has_left(api: APIClient) -> None:
    game_id = create_game(api, 2, seed=9, end_score=100_000)["id"]
    token = join(api, game_id, "Ada")["token"]
    seat_bot(api, game_id, "greedy")
    assert leave(api, game_id, 0, token).status_code == 200  # in round 1's setup
    run_jobs()
    final = get_view(api, game_id)
    assert final["status"] == "finished" and len(final["rounds"]) == 2
    assert ended(game_id).reason == ROUND_LIMIT
    dealt = [e for e in log.engine_events(Game.objects.get(pk=game_id)) if type(e) is RoundDealt]
    assert len(dealt) == 3  # round 3 was dealt, then not played


@override_settings(BOT_ONLY_MAX_ROUNDS=1)
def test_a_game_with_a_person_plays_on_to_its_end_score(api: APIClient) -> None:
    game_id = create_game(api, 2, seed=3, end_score=150)["id"]
    token = join(api, game_id, "Ada")["token"]
    seat_bot(api, game_id, "greedy")
    play_persons(api, game_id, {0: token})
    assert len(get_view(api, game_id)["rounds"]) > 1
    assert ended(game_id).reason == END_SCORE


@override_settings(BOT_ONLY_MAX_ROUNDS=1)
def test_the_replay_command_says_the_service_stopped_the_game(api: APIClient) -> None:
    game_id = create_game(api, 2, seed=4, end_score=100_000)["id"]
    for _ in range(2):
        seat_bot(api, game_id, "greedy")
    run_jobs()
    out = StringIO()
    call_command("replay", game_id, stdout=out)
    assert "The game is over (no person was left: the bots played their rounds)" in out.getvalue()
