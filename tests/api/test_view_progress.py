"""What a served view says about the game's progress: the last action (as the caller may see
it), when the game last changed, the final turns left, who starts the round, and the signal
that the caller's action ended a round."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from engine import GreedyPlayer, action_to_data
from games.models import Game, GameEvent

from .support import (
    act,
    create_game,
    finished_game,
    game_url,
    get_view,
    join,
    seat_to_act,
    setup_reveals,
    start_game,
    view_from_data,
)

pytestmark = pytest.mark.django_db


def test_a_draw_shows_its_card_in_last_action_to_the_drawer_only(api: APIClient) -> None:
    game_id, tokens = start_game(api, 2)
    playing = setup_reveals(api, game_id, tokens)
    seat = playing["current_seat"]
    other = 1 - seat
    drawn = act(api, game_id, tokens[seat], {"action": "draw"})
    last = drawn["last_action"]
    assert last["seat"] == seat and last["action"] == "draw"
    assert last["value"] == drawn["held_card"]["value"] is not None
    for seen in (get_view(api, game_id, tokens[other]), get_view(api, game_id)):
        assert seen["last_action"] == {**last, "value": None}
    placed = act(api, game_id, tokens[seat], {"action": "replace", "column": 2, "row": 1})
    for seen in (placed, get_view(api, game_id, tokens[other]), get_view(api, game_id)):
        assert seen["last_action"] == {
            **last,
            "action": "replace",
            "column": 2,
            "row": 1,
            "value": last["value"],
            "replaced": seen["discard_top"],
        }
        assert seen["players"][seat]["grid"][2][1] == {"state": "face_up", "value": last["value"]}


def test_last_action_is_null_before_the_first_join_then_names_the_joiner(
    api: APIClient,
) -> None:
    game = create_game(api, 2)
    assert game["last_action"] is None
    seen = join(api, game["id"], "Ada")["game"]
    assert seen["last_action"]["action"] == "join" and seen["last_action"]["seat"] == 0


def test_updated_at_is_the_last_events_time(api: APIClient) -> None:
    game_id, tokens = start_game(api, 2)
    before = get_view(api, game_id)
    answer = setup_reveals(api, game_id, tokens)
    stored = Game.objects.get(pk=game_id)
    last_event = GameEvent.objects.get(game=stored, sequence=stored.version)
    assert answer["updated_at"] == get_view(api, game_id)["updated_at"] > before["updated_at"]
    assert answer["updated_at"] == last_event.created_at.isoformat().replace("+00:00", "Z")
    replayed = api.get(game_url(game_id), {"at": 2}).json()
    second = GameEvent.objects.get(game=stored, sequence=2).created_at
    assert replayed["updated_at"] == second.isoformat().replace("+00:00", "Z")
    assert replayed["updated_at"] < answer["updated_at"]


def check_progress(answer: dict[str, Any], before: dict[str, Any]) -> None:
    """The answer to one action, against the spectator's view before it."""
    last = answer["last_action"]
    ended = answer["round"] > before["round"] or answer["status"] == "finished"
    if ended:
        assert last["ended_round"] == before["round"] == answer["rounds"][-1]["round"]
        assert last["ended_game"] == (answer["status"] == "finished")
        assert answer["final_turns_left"] == 0
    else:
        assert last["ended_round"] is None and not last["ended_game"]
    if answer["status"] == "setup" and answer["round"] > 1:
        assert answer["starting_seat"] == answer["rounds"][-1]["closer_seat"]  # R5
    if answer["closer_seat"] is None:
        assert answer["final_turns_left"] == 0
    elif answer["status"] == "playing":
        closer, current = answer["closer_seat"], answer["current_seat"]
        assert answer["final_turns_left"] == (closer - current) % answer["seats"]


def test_the_action_that_ends_a_round_says_so_in_its_answer(api: APIClient) -> None:
    seats = 3
    game_id, tokens = start_game(api, seats, seed=7, end_score=60)
    players = [GreedyPlayer() for _ in range(seats)]
    views = [get_view(api, game_id, token) for token in tokens]
    spectator = get_view(api, game_id)
    ends = 0
    while spectator["status"] != "finished":
        seat = seat_to_act(spectator, views)
        choice = action_to_data(players[seat].choose(view_from_data(views[seat])))
        answer = act(api, game_id, tokens[seat], choice)
        assert answer["last_action"]["seat"] == seat
        assert answer["last_action"]["action"] == choice["action"]
        check_progress(answer, spectator)
        ends += answer["last_action"]["ended_round"] is not None
        if spectator["status"] == "setup" and answer["status"] == "playing":
            assert answer["starting_seat"] == answer["current_seat"]
        views = [get_view(api, game_id, token) for token in tokens]
        spectator = get_view(api, game_id)
    assert ends == len(spectator["rounds"]) >= 2
    assert spectator["last_action"]["ended_game"] and spectator["starting_seat"] is None


def test_a_finished_games_last_action_ended_it(api: APIClient) -> None:
    game_id, _ = finished_game(api)
    last = get_view(api, game_id)["last_action"]
    assert last["ended_round"] == 1 and last["ended_game"]
