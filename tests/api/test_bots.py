"""Bot seats (R13): seating bots, the list of strategies, bots playing whole games at every
table size beside persons or alone, and the histories they leave. Jobs run in this process
(`run_jobs`, as a worker runs them); tests/production/test_workers.py runs real workers."""

from __future__ import annotations

from typing import Any

import pytest
from django_tasks_db.models import DBTaskResult
from rest_framework.test import APIClient

from engine import GreedyPlayer, Join, SeededShuffler, event_type, replay
from engine import act as engine_act
from engine import create_game as engine_create
from engine.audit import verify_log
from engine.autoplay import bot_seats_to_act
from games import tasks
from games.core import bots
from games.models import Game, Seat
from games.store import log

from .bots_support import run_jobs, seat_bot
from .support import (
    GAMES,
    act,
    create_game,
    get_view,
    join,
    seat_to_act,
    view_from_data,
)

pytestmark = pytest.mark.django_db


def test_the_strategies_are_listed(api: APIClient) -> None:
    response = api.get("/api/v1/bots")
    assert response.status_code == 200
    listed = response.json()
    assert [entry["name"] for entry in listed] == list(bots.descriptions())
    assert {"greedy", "random"} <= {entry["name"] for entry in listed}
    assert all(entry["description"].endswith(".") for entry in listed)


def test_a_bot_takes_a_seat_without_a_token(api: APIClient) -> None:
    game = create_game(api, 3)
    join(api, game["id"], "Ada")
    answer = seat_bot(api, game["id"], "greedy")
    assert set(answer) == {"seat", "name", "bot", "game"}
    assert (answer["seat"], answer["name"], answer["bot"]) == (1, "Greedy bot", "greedy")
    assert answer["game"]["you"] is None  # a spectator's view: the bot has no token
    named = seat_bot(api, game["id"], "random", name="Randy")
    assert (named["seat"], named["name"], named["bot"]) == (2, "Randy", "random")
    players = get_view(api, game["id"])["players"]
    assert [(p["name"], p["bot"], p["timeouts"]) for p in players] == [
        ("Ada", None, 0),
        ("Greedy bot", "greedy", 0),
        ("Randy", "random", 0),
    ]
    seats = Seat.objects.filter(game_id=game["id"]).order_by("seat")
    assert [(row.bot, row.token_hash is None) for row in seats] == [
        (None, False),
        ("greedy", True),
        ("random", True),
    ]
    [summary] = api.get(GAMES).json()["results"]
    assert summary["players"] == ["Ada", "Greedy bot", "Randy"]
    assert summary["bots"] == [None, "greedy", "random"]


@pytest.mark.parametrize(
    ("body", "field"),
    [({"bot": "deep-blue"}, "bot"), ({"bot": 3}, "bot"), ({}, "name"), ({"bot": None}, "bot")],
)
def test_a_join_names_a_person_or_a_known_strategy(
    api: APIClient, body: dict[str, Any], field: str
) -> None:
    game = create_game(api, 2)
    response = api.post(f"{GAMES}/{game['id']}/players", body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid_request"
    assert list(response.json()["errors"]) == [field]


def test_a_game_without_bots_or_clock_queues_no_job(api: APIClient) -> None:
    game = create_game(api, 2)
    tokens = [join(api, game["id"], name)["token"] for name in "AB"]
    act(api, game["id"], tokens[0], {"action": "reveal", "column": 0, "row": 0})
    assert DBTaskResult.objects.count() == 0
    seat_bot(api, create_game(api, 2)["id"], "greedy")
    assert DBTaskResult.objects.count() == 0  # still waiting: nothing to play yet


@pytest.mark.parametrize("seats", range(2, 9))
def test_bots_alone_fill_every_seat_and_play_to_the_end(api: APIClient, seats: int) -> None:
    """A game of bots alone plays to the end by itself; its log audits clean and its history
    imports into an identical finished game."""
    game_id = create_game(api, seats, seed=seats, end_score=40)["id"]
    strategies = list(bots.descriptions())
    for seat in range(seats):
        seat_bot(api, game_id, strategies[(seat + seats) % len(strategies)])
    assert DBTaskResult.objects.filter(status="READY").count() == 1  # queued with the deal
    run_jobs()
    final = get_view(api, game_id)
    assert final["status"] == "finished" and final["winners"]
    game = Game.objects.get(pk=game_id)
    assert not game.bots_to_move and game.turn_deadline is None
    events = log.engine_events(game)
    assert verify_log(events).phase == "finished"
    assert_imports_identically(api, game_id)


def assert_imports_identically(api: APIClient, game_id: str) -> None:
    history = api.get(f"{GAMES}/{game_id}/history").json()
    imported = api.post(f"{GAMES}/import", history, format="json")
    assert imported.status_code == 201, imported.content
    again = imported.json()
    original = get_view(api, game_id)
    for key in ("status", "winners", "players", "rounds", "version"):
        assert again[key] == original[key], key
    assert again["seat_tokens"] == []  # finished: no token


def play_persons(api: APIClient, game_id: str, tokens: dict[int, str]) -> int:
    """Persons (greedy, over HTTP) play their moves; after each, the queued jobs run (the
    bots' moves). Answers the persons' actions, once the game is finished."""
    player, actions = GreedyPlayer(), 0
    run_jobs()
    while (spectator := get_view(api, game_id))["status"] != "finished":
        views = [
            get_view(api, game_id, tokens[seat]) if seat in tokens else {"legal_actions": []}
            for seat in range(spectator["seats"])
        ]
        seat = seat_to_act(spectator, views)
        assert seat in tokens, "a bot's move was left undone"
        choice = player.choose(view_from_data(views[seat]))
        act(api, game_id, tokens[seat], choice)
        actions += 1
        run_jobs()
    return actions


def test_a_person_with_seven_bots_finishes_a_game(api: APIClient) -> None:
    game_id = create_game(api, 8, seed=8)["id"]
    token = join(api, game_id, "Ada")["token"]
    for seat in range(1, 8):
        seat_bot(api, game_id, list(bots.descriptions())[seat % len(bots.descriptions())])
    assert play_persons(api, game_id, {0: token}) > 0
    final = get_view(api, game_id, token)
    assert final["status"] == "finished"
    moves = {
        event.event.seat
        for event in log.events(Game.objects.get(pk=game_id))  # type: ignore[union-attr]
        if event.type in ("CardDrawn", "DiscardTaken")
    }
    assert moves == set(range(8))  # every seat played its turns


def test_a_mixed_game_ends_and_its_history_imports_and_audits_clean(api: APIClient) -> None:
    game_id = create_game(api, 4, seed=21, end_score=60)["id"]
    tokens = {0: join(api, game_id, "Ada")["token"]}
    seat_bot(api, game_id, "greedy")
    tokens[2] = join(api, game_id, "Grace")["token"]
    seat_bot(api, game_id, "random")
    play_persons(api, game_id, tokens)
    game = Game.objects.get(pk=game_id)
    assert game.status == "finished"
    types = [stored.type for stored in log.events(game)]
    assert "TurnTimedOut" not in types and "SeatLeft" not in types
    assert verify_log(log.engine_events(game)).winners == tuple(game.winners or ())
    assert_imports_identically(api, game_id)


def test_a_bots_move_is_an_ordinary_event_of_the_log(api: APIClient) -> None:
    """Each bot move is an action of its own in the log (so the feed, the stream and the
    history show it like any seat's), stored with the time it was made."""
    game_id = create_game(api, 2, seed=5)["id"]
    token = join(api, game_id, "Ada")["token"]
    seat_bot(api, game_id, "greedy")
    run_jobs()
    feed = api.get(f"{GAMES}/{game_id}/events", HTTP_AUTHORIZATION=f"Bearer {token}").json()
    reveals = [e["data"]["seat"] for e in feed["events"] if e["type"] == "CardRevealed"]
    assert reveals == [1, 1]  # the bot's setup reveals, before Ada made hers
    view = get_view(api, game_id, token)
    assert view["status"] == "setup" and len(view["legal_actions"]) == 12


def test_bots_play_deterministically_from_the_game_and_its_version() -> None:
    """A bot's choice depends only on what its seat sees, the game's key and the version: the
    same game replays the same moves."""

    def bots_game(key: str) -> list[Any]:
        shuffler = SeededShuffler(7)
        events = engine_create(3)
        state = replay(events)
        for seat in range(3):
            strategy = ("statistician", "random", "clearer")[seat]
            new, state = engine_act(state, None, Join(f"Bot {seat}", strategy), shuffler)
            events += new
        choose = bots.chooser(key, 3, events)
        while bot_seats_to_act(state):
            seat = bot_seats_to_act(state)[0]
            new, state = engine_act(state, seat, choose(state, seat), shuffler)
            events += new  # the bots' histories read the log as it grows
        return [event_type(e) for e in events] + [state.totals]

    assert bots_game("a") == bots_game("a")
    assert bots_game("a") != bots_game("b")


def test_the_bots_job_is_queued_in_the_transaction_of_the_move(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A person's move after which a bot is to act queues its job: with the append, or not
    at all (a move that fails leaves neither events nor job)."""
    game_id = create_game(api, 2, seed=5)["id"]
    token = join(api, game_id, "Ada")["token"]
    seat_bot(api, game_id, "greedy")
    run_jobs()  # the bot's setup reveals
    act(api, game_id, token, {"action": "reveal", "column": 0, "row": 0})
    version = get_view(api, game_id)["version"]

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the queue is down")

    monkeypatch.setattr(tasks, "schedule", broken)
    api.raise_request_exception = False
    response = api.post(
        f"{GAMES}/{game_id}/actions/reveal",
        {"column": 1, "row": 0},
        format="json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert response.status_code == 500
    assert get_view(api, game_id)["version"] == version  # no event without its job
    monkeypatch.undo()
    queued = DBTaskResult.objects.count()
    act(api, game_id, token, {"action": "reveal", "column": 1, "row": 0})
    view = get_view(api, game_id)
    assert view["status"] == "playing" and view["version"] > version
    assert DBTaskResult.objects.count() == queued + (view["current_seat"] == 1)
