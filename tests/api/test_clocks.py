"""Turn clocks (R13): the deadline in the view, a turn that runs out played for its seat and
logged as `TurnTimedOut`, the streak that hands a seat to a bot, and the jobs and reads that
honour a deadline, each exactly once. The service's clock is moved by hand (`Clock`)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils.dateparse import parse_datetime
from django_tasks_db.models import DBTaskResult
from rest_framework.test import APIClient

from engine.audit import verify_log
from games import core, tasks
from games.models import Game
from games.store import log

from .bots_support import Clock, run_jobs, seat_bot
from .support import GAMES, act, assert_problem, create_game, get_view, join

pytestmark = pytest.mark.django_db


def clocked_game(
    api: APIClient, seats: int = 2, *, seconds: int = 30, max_timeouts: int = 3, **extra: Any
) -> tuple[str, list[str]]:
    body = {
        "seats": seats,
        "seed": 11,
        "options": {"turn_seconds": seconds, "max_timeouts": max_timeouts},
    }
    game_id = api.post(GAMES, body, format="json").json()["id"]
    tokens = [join(api, game_id, f"Player {seat}")["token"] for seat in range(seats)]
    return game_id, tokens


def deadline(view: dict[str, Any]) -> datetime:
    moment = parse_datetime(view["turn_deadline"])
    assert moment is not None
    return moment


def types(game_id: str) -> list[str]:
    return [stored.type for stored in log.events(Game.objects.get(pk=game_id))]


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"turn_seconds": 4}, "options.turn_seconds"),
        ({"turn_seconds": 86_401}, "options.turn_seconds"),
        ({"turn_seconds": 30.5}, "options.turn_seconds"),
        ({"max_timeouts": 0}, "options.max_timeouts"),
        ({"max_timeouts": 21}, "options.max_timeouts"),
    ],
)
def test_clock_options_are_bounded(api: APIClient, options: dict[str, Any], field: str) -> None:
    response = api.post(GAMES, {"seats": 2, "options": options}, format="json")
    assert list(assert_problem(response, 400, "invalid_request")["errors"]) == [field]


def test_the_view_shows_the_turns_deadline(api: APIClient, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock(monkeypatch)
    game_id, tokens = clocked_game(api, seconds=5)
    view = get_view(api, game_id, tokens[0])
    assert view["options"]["turn_seconds"] == 5
    assert deadline(view) == clock.now + timedelta(seconds=5)  # setup began at the last join
    [job] = DBTaskResult.objects.all()
    assert job.task_path == "games.tasks.expire_turn" and job.run_after == deadline(view)
    clock.advance(2)
    act(api, game_id, tokens[0], {"action": "reveal", "column": 0, "row": 0})
    assert deadline(get_view(api, game_id)) == deadline(view)  # the same turn: the same clock
    assert DBTaskResult.objects.count() == 1  # and no new job
    assert get_view(api, create_game(api, 2)["id"])["turn_deadline"] is None  # no clock


def test_a_setup_that_runs_out_is_played_for_every_late_seat(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock(monkeypatch)
    game_id, tokens = clocked_game(api, 3)
    for column in (0, 1):
        act(api, game_id, tokens[1], {"action": "reveal", "column": column, "row": 0})
    clock.advance(29)
    assert run_jobs() == 0  # not due yet
    clock.advance(1)
    assert run_jobs() == 1
    view = get_view(api, game_id, tokens[0])
    assert view["status"] == "playing"
    assert [p["timeouts"] for p in view["players"]] == [1, 0, 1]
    logged = types(game_id)
    assert logged.count("TurnTimedOut") == 2
    first = logged.index("TurnTimedOut")
    assert logged[first : first + 3] == ["TurnTimedOut", "CardRevealed", "CardRevealed"]
    assert deadline(view) == clock.now + timedelta(seconds=30)  # the first turn's clock


def test_a_read_honours_a_passed_deadline_without_a_worker(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock(monkeypatch)
    game_id, _ = clocked_game(api)
    clock.advance(31)
    view = get_view(api, game_id)  # no job ran: the read applies the timeout first
    assert view["status"] == "playing" and "TurnTimedOut" in types(game_id)
    assert run_jobs() == 1  # the job, late now, changes nothing
    assert types(game_id).count("TurnTimedOut") == 2
    assert verify_log(log.engine_events(Game.objects.get(pk=game_id))).phase == "playing"


def test_an_action_after_the_deadline_comes_too_late(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock(monkeypatch)
    game_id, tokens = clocked_game(api)
    clock.advance(31)
    response = api.post(
        f"{GAMES}/{game_id}/actions/reveal",
        {"column": 0, "row": 0},
        format="json",
        HTTP_AUTHORIZATION=f"Bearer {tokens[0]}",
    )
    assert response.status_code == 409  # the timeout played the reveals: the game is playing
    assert response.json()["code"] in ("wrong_step", "not_your_turn")
    assert get_view(api, game_id)["status"] == "playing"


def test_a_turn_that_runs_out_mid_turn_is_finished_for_its_seat(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock(monkeypatch)
    game_id, tokens = clocked_game(api)
    clock.advance(31)
    run_jobs()
    current = get_view(api, game_id)["current_seat"]
    act(api, game_id, tokens[current], {"action": "draw"})  # then nothing
    clock.advance(31)
    run_jobs()
    view = get_view(api, game_id)
    assert view["current_seat"] != current and view["held_card"] is None
    logged = types(game_id)
    last = len(logged) - 1 - logged[::-1].index("TurnTimedOut")
    assert logged[last - 1] == "CardDrawn"  # the seat's own draw, then the service's place
    assert logged[last + 1] in ("CardReplaced", "DrawnCardDiscarded")


def test_timeouts_in_a_row_hand_the_seat_to_a_bot(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock(monkeypatch)
    game_id, tokens = clocked_game(api, max_timeouts=2)
    act(api, game_id, tokens[1], {"action": "reveal", "column": 0, "row": 0})
    act(api, game_id, tokens[1], {"action": "reveal", "column": 1, "row": 0})
    clock.advance(31)
    run_jobs()  # seat 0's setup ran out: 1 of 2
    while get_view(api, game_id)["current_seat"] != 0:
        clock.advance(31)  # seat 1's turns run out too, but it reset its streak in setup
        run_jobs()
    clock.advance(31)
    run_jobs()  # seat 0's turn ran out: 2 of 2
    view = get_view(api, game_id, tokens[0])
    assert view["players"][0]["bot"] == "greedy" and view["players"][0]["timeouts"] == 2
    assert "SeatAbandoned" in types(game_id)
    assert view["current_seat"] == 1  # the service finished seat 0's turn
    act(api, game_id, tokens[1], {"action": "draw"})  # seat 1 plays its turn in time...
    act(api, game_id, tokens[1], {"action": "discard"})
    act(api, game_id, tokens[1], get_view(api, game_id, tokens[1])["legal_actions"][0])
    view = get_view(api, game_id, tokens[0])
    assert view["current_seat"] == 0 and view["legal_actions"] == []  # ...then the bot's turn
    problem = assert_problem(
        api.post(f"{GAMES}/{game_id}/actions/draw", HTTP_AUTHORIZATION=f"Bearer {tokens[0]}"),
        409,
        "seat_played_by_bot",
    )
    assert problem["bot"] == "greedy"
    assert run_jobs() == 1
    assert get_view(api, game_id)["current_seat"] == 1  # the bot played seat 0's turn


def test_a_turn_played_in_time_ends_the_streak(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock(monkeypatch)
    game_id, tokens = clocked_game(api)
    clock.advance(31)
    run_jobs()  # both seats' setups ran out
    assert [p["timeouts"] for p in get_view(api, game_id)["players"]] == [1, 1]
    current = get_view(api, game_id)["current_seat"]
    act(api, game_id, tokens[current], {"action": "draw"})
    act(api, game_id, tokens[current], {"action": "discard"})
    view = get_view(api, game_id, tokens[current])
    act(api, game_id, tokens[current], view["legal_actions"][0])
    timeouts = [p["timeouts"] for p in get_view(api, game_id)["players"]]
    assert timeouts[current] == 0 and timeouts[1 - current] == 1


def test_a_duplicate_or_late_job_changes_nothing(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock(monkeypatch)
    game_id, _ = clocked_game(api)
    game = Game.objects.get(pk=game_id)
    turn = core.game_state(game).turn
    for _ in range(2):  # the same turn's job, twice
        tasks.expire_turn.using(run_after=game.turn_deadline).enqueue(game_id, turn)
    clock.advance(31)
    assert run_jobs() == 3
    assert types(game_id).count("TurnTimedOut") == 2  # each seat's setup, once
    assert core.expire_turn(game.id, turn) is False  # late: that turn is over


def test_the_clock_runs_for_persons_only(api: APIClient, monkeypatch: pytest.MonkeyPatch) -> None:
    Clock(monkeypatch)
    body = {"seats": 2, "seed": 3, "options": {"turn_seconds": 10}}
    game_id = api.post(GAMES, body, format="json").json()["id"]
    seat_bot(api, game_id, "greedy")
    seat_bot(api, game_id, "greedy")
    assert get_view(api, game_id)["turn_deadline"] is None
    run_jobs()
    assert get_view(api, game_id)["status"] == "finished"
    assert "TurnTimedOut" not in types(game_id)
