"""Leaving a game (R13), in each status: a waiting game's seat is freed, a started game's is
played by a bot to the end, a finished game cannot be left; the token stops acting at once."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from engine import GreedyPlayer, Join, Options, Reveal, SeededShuffler, replay
from engine import act as engine_act
from engine import create_game as create_engine_game
from engine.audit import verify_log
from engine.autoplay import time_out
from engine.events import Event, SeatAbandoned, SeatLeft
from engine.simulate import chooser_from_view
from games.models import Game, Seat
from games.store import log

from .bots_support import Clock, leave, run_jobs
from .history_support import document_of
from .import_support import IMPORT
from .support import GAMES, act, assert_problem, create_game, finished_game, get_view, join

pytestmark = pytest.mark.django_db


def test_leaving_a_waiting_game_frees_the_seat(api: APIClient) -> None:
    game_id = create_game(api, 3)["id"]
    ada, bob = (join(api, game_id, name)["token"] for name in ("Ada", "Bob"))
    response = leave(api, game_id, 0, ada)
    assert response.status_code == 200, response.content
    view = response.json()
    assert view["you"] is None and view["open_seats"] == 2
    assert [p["name"] for p in view["players"]] == [None, "Bob", None]
    assert view["last_action"]["action"] == "leave" and view["last_action"]["seat"] == 0
    assert_problem(
        api.get(f"{GAMES}/{game_id}", HTTP_AUTHORIZATION=f"Bearer {ada}"), 401, "invalid_token"
    )
    assert not Seat.objects.filter(game_id=game_id, seat=0).exists()
    cyd = join(api, game_id, "Cyd")
    assert cyd["seat"] == 0  # the lowest open seat
    join(api, game_id, "Dee")
    assert get_view(api, game_id)["status"] == "setup"
    names = [p["name"] for p in get_view(api, game_id, bob)["players"]]
    assert names == ["Cyd", "Bob", "Dee"]
    [summary] = api.get(GAMES).json()["results"]
    assert summary["players"] == ["Cyd", "Bob", "Dee"]
    assert verify_log(log.engine_events(Game.objects.get(pk=game_id))).is_full


@pytest.mark.parametrize("moves", [0, 3])
def test_leaving_a_started_game_hands_the_seat_to_a_bot(api: APIClient, moves: int) -> None:
    """In setup (no move yet) or while playing, a bot plays the seat on; the token is refused
    from then on, for reading and for acting."""
    game_id = create_game(api, 2, seed=4)["id"]
    ada, bob = (join(api, game_id, name)["token"] for name in ("Ada", "Bob"))
    if moves:
        for token in (ada, bob):
            for column in (0, 1):
                act(api, game_id, token, {"action": "reveal", "column": column, "row": 0})
        assert get_view(api, game_id)["status"] == "playing"
    response = leave(api, game_id, 1, bob)
    assert response.status_code == 200, response.content
    assert response.json()["players"][1]["bot"] == "greedy"
    assert response.json()["players"][1]["name"] == "Bob"  # the seat keeps its name
    assert_problem(
        api.post(f"{GAMES}/{game_id}/actions/draw", HTTP_AUTHORIZATION=f"Bearer {bob}"),
        401,
        "invalid_token",
    )
    assert Seat.objects.get(game_id=game_id, seat=1).token_hash is None
    run_jobs()
    events = [stored.type for stored in log.events(Game.objects.get(pk=game_id))]
    assert "SeatLeft" in events
    assert get_view(api, game_id, ada)["legal_actions"]  # the bot has played: Ada's move


def test_a_finished_game_cannot_be_left(api: APIClient) -> None:
    game_id, tokens = finished_game(api)
    assert_problem(leave(api, game_id, 0, tokens[0]), 409, "game_finished")


def test_a_token_leaves_its_own_seat_only(api: APIClient) -> None:
    game_id = create_game(api, 2)["id"]
    ada = join(api, game_id, "Ada")["token"]
    join(api, game_id, "Bob")
    assert_problem(leave(api, game_id, 1, ada), 403, "forbidden")
    assert_problem(leave(api, game_id, 0, "not-a-token"), 401, "invalid_token")
    assert_problem(
        api.post(
            f"{GAMES}/{game_id}/players/0/leave",
            {"x": 1},
            format="json",
            HTTP_AUTHORIZATION=f"Bearer {ada}",
        ),
        400,
        "invalid_request",
    )


def test_a_lost_leave_answer_is_replayed_by_its_key(api: APIClient) -> None:
    game_id = create_game(api, 2)["id"]
    ada = join(api, game_id, "Ada")["token"]
    first = leave(api, game_id, 0, ada, HTTP_IDEMPOTENCY_KEY="leave-1")
    again = leave(api, game_id, 0, ada, HTTP_IDEMPOTENCY_KEY="leave-1")
    assert first.status_code == again.status_code == 200
    assert again["Idempotent-Replayed"] == "true" and again.content == first.content
    assert_problem(
        leave(api, game_id, 0, ada, HTTP_IDEMPOTENCY_KEY="leave-2"), 401, "invalid_token"
    )


def test_a_game_whose_players_all_walk_away_finishes_by_itself(api: APIClient) -> None:
    game_id = create_game(api, 3, seed=12, end_score=50)["id"]
    tokens = [join(api, game_id, name)["token"] for name in ("Ada", "Bob", "Cyd")]
    act(api, game_id, tokens[0], {"action": "reveal", "column": 0, "row": 0})
    for seat, token in enumerate(tokens):
        assert leave(api, game_id, seat, token).status_code == 200
    run_jobs()
    final = get_view(api, game_id)
    assert final["status"] == "finished"
    assert [p["bot"] for p in final["players"]] == ["greedy"] * 3
    game = Game.objects.get(pk=game_id)
    assert verify_log(log.engine_events(game)).phase == "finished"


def test_a_seat_a_bot_took_over_cannot_be_left(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After its timeouts handed the seat to a bot (`SeatAbandoned`), the seat's token, which
    still reads the game, could leave it and log a second handover (`SeatLeft`): refused now
    as its actions are, and nothing is logged."""
    clock = Clock(monkeypatch)
    options = {"turn_seconds": 30, "max_timeouts": 1}
    game_id = api.post(GAMES, {"seats": 2, "options": options}, format="json").json()["id"]
    ada, bob = (join(api, game_id, name)["token"] for name in ("Ada", "Bob"))
    for column in (0, 1):
        act(api, game_id, bob, {"action": "reveal", "column": column, "row": 0})
    clock.advance(31)
    run_jobs()  # Ada's setup ran out: once is too often here
    version = get_view(api, game_id)["version"]
    problem = assert_problem(leave(api, game_id, 0, ada), 409, "seat_played_by_bot")
    assert problem["bot"] == "greedy"
    assert get_view(api, game_id, ada)["you"] == 0  # the token still reads the game
    types = [stored.type for stored in log.events(Game.objects.get(pk=game_id))]
    assert "SeatAbandoned" in types and "SeatLeft" not in types
    assert get_view(api, game_id)["version"] == version


def _abandoned_seat_log() -> list[Event]:
    """A two-seat game on the engine whose seat 0 timed out its setup and went to a bot."""
    shuffler = SeededShuffler(5)
    events = create_engine_game(2, Options(turn_seconds=30, max_timeouts=1))
    state = replay(events)
    for name in ("Ada", "Bob"):
        new, state = engine_act(state, None, Join(name), shuffler)
        events += new
    for column in (0, 1):
        new, state = engine_act(state, 1, Reveal(column, 0), shuffler)
        events += new
    new, state = time_out(state, chooser_from_view(GreedyPlayer()), shuffler, "greedy")
    assert SeatAbandoned(0, "greedy") in new
    return events + new


def test_an_import_refuses_a_seat_left_after_a_bot_took_it_over(api: APIClient) -> None:
    """The audit (import, `verify_games`) accepted a log where a seat a bot already played
    was left again; the rules refuse that `SeatLeft`, so the import names it."""
    events = _abandoned_seat_log()
    assert api.post(IMPORT, document_of(events), format="json").status_code == 201
    doctored = document_of([*events, SeatLeft(0, "greedy")])
    problem = assert_problem(api.post(IMPORT, doctored, format="json"), 400, "invalid_history")
    assert (problem["sequence"], problem["rule_code"]) == (len(events) + 1, "wrong_step")
