"""Whole games played through HTTP by the engine's players, checking after every action what
each seat and a spectator are shown, that the log has no gaps and that it replays to exactly
what was served."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from engine import GreedyPlayer, RandomPlayer, view
from games import core
from games.models import Game, GameEvent

from .support import (
    act,
    assert_problem,
    get_view,
    hidden_leaks,
    play_over_http,
    send,
    start_game,
    view_from_data,
    without_identity,
)

pytestmark = pytest.mark.django_db


def _public(data: dict[str, Any]) -> dict[str, Any]:
    """What every viewer of one version is shown alike: a view less its viewer's own parts."""
    public = without_identity(data)
    public["you"] = None
    public["legal_actions"] = []
    held = public["held_card"]
    if held is not None and held["source"] == "deck":
        public["held_card"] = {**held, "value": None}
    last = public["last_action"]
    if last is not None and last["action"] == "draw":  # the drawer's own, while held (R7)
        assert held is not None and last["value"] == held["value"]
        public["last_action"] = {**last, "value": None}
    return public


def check_views(game_id: str, views: list[dict[str, Any]], spectator: dict[str, Any]) -> None:
    """Every seat's view and the spectator's, read after one action."""
    version = spectator["version"]
    public = without_identity(spectator)
    assert spectator["you"] is None
    assert spectator["legal_actions"] == []
    for seat, seat_view in enumerate(views):
        assert seat_view["you"] == seat
        assert seat_view["version"] == version
        # A seat sees what the spectator sees, plus its own legal actions and drawn card.
        assert _public(seat_view) == public
        assert seat_view["id"] == spectator["id"] == game_id
    for seen in (*views, spectator):
        assert hidden_leaks(seen) == [], hidden_leaks(seen)
        assert view_from_data(seen).to_data() == without_identity(seen)
    # Who may act: the current seat while playing; in setup, the seats with reveals left.
    acting = [seat for seat, seat_view in enumerate(views) if seat_view["legal_actions"]]
    if spectator["status"] == "playing":
        assert acting == [spectator["current_seat"]]
    elif spectator["status"] == "setup":
        assert spectator["current_seat"] is None
        assert acting
    else:
        assert acting == []

    # The log: sequences 1..version, no gap, and it replays to exactly what was served.
    game = Game.objects.get(pk=game_id)
    sequences = list(
        GameEvent.objects.filter(game=game).order_by("sequence").values_list("sequence", flat=True)
    )
    assert sequences == list(range(1, version + 1))
    assert game.version == version
    state = core.game_state(game)
    assert state.version == version
    for seat, seat_view in enumerate(views):
        assert view(state, seat).to_data() == without_identity(seat_view)
    assert view(state, None).to_data() == without_identity(spectator)


def check_new_round(spectator: dict[str, Any]) -> None:
    """A scored round is followed at once by the next deal: setup again, every card down."""
    assert spectator["status"] == "setup"
    assert spectator["round"] == len(spectator["rounds"]) + 1
    assert spectator["closer_seat"] is None and spectator["held_card"] is None
    for player in spectator["players"]:
        assert all(cell["state"] == "face_down" for column in player["grid"] for cell in column)


def checked_step(game_id: str) -> Any:
    """The checks after every action, for `play_over_http`."""

    def check(
        before: dict[str, Any], views: list[dict[str, Any]], spectator: dict[str, Any]
    ) -> None:
        check_views(game_id, views, spectator)
        if len(spectator["rounds"]) > len(before["rounds"]) and spectator["status"] != "finished":
            check_new_round(spectator)

    return check


def check_finished(
    client: APIClient, game_id: str, tokens: list[str], end_score: int
) -> dict[str, Any]:
    final = get_view(client, game_id)
    assert final["status"] == "finished"
    assert final["current_seat"] is None and final["held_card"] is None
    totals = [player["total"] for player in final["players"]]
    assert max(totals) >= end_score  # R3
    assert final["winners"] == [seat for seat, total in enumerate(totals) if total == min(totals)]
    rounds = final["rounds"]
    assert [r["round"] for r in rounds] == list(range(1, len(rounds) + 1))
    for seat, total in enumerate(totals):
        assert total == sum(r["players"][seat]["round_score"] for r in rounds)
    for token in tokens:
        assert get_view(client, game_id, token)["legal_actions"] == []
    # Nothing more can happen.
    refused = send(client, game_id, tokens[0], {"action": "draw"})
    assert_problem(refused, 409, "game_finished")
    return final


@pytest.mark.parametrize(
    ("seats", "end_score", "seed", "players", "min_rounds"),
    [
        # Seed 2024 takes two rounds: the second is dealt as soon as the first is scored.
        (2, 60, 2024, lambda: [GreedyPlayer(), GreedyPlayer()], 2),
        (4, 40, 77, lambda: [GreedyPlayer(), RandomPlayer(1), GreedyPlayer(), RandomPlayer(2)], 1),
        (8, 30, 5, lambda: [GreedyPlayer() for _ in range(8)], 1),
    ],
    ids=["2-seats", "4-seats", "8-seats"],
)
def test_complete_game_over_http(
    api: APIClient, seats: int, end_score: int, seed: int, players: Any, min_rounds: int
) -> None:
    game_id, tokens = start_game(api, seats, seed=seed, end_score=end_score)
    first = get_view(api, game_id)
    assert first["status"] == "setup" and first["round"] == 1
    played = play_over_http(api, game_id, tokens, players(), on_step=checked_step(game_id))
    final = check_finished(api, game_id, tokens, end_score)
    assert len(played) > seats * 2
    assert len(final["rounds"]) >= min_rounds
    # Every finished round shows every card of every grid (R10): none is hidden any more.
    for summary in final["rounds"]:
        for player in summary["players"]:
            for column in player["grid"]:
                for cell in column:
                    assert (cell["state"] == "removed") == (cell["value"] is None)


def test_same_seed_and_actions_give_the_same_game(api: APIClient) -> None:
    first_id, first_tokens = start_game(api, 3, seed=99, end_score=25)
    played = play_over_http(
        api,
        first_id,
        first_tokens,
        [GreedyPlayer(), RandomPlayer(3), GreedyPlayer()],
    )
    second_id, second_tokens = start_game(api, 3, seed=99, end_score=25)
    for seat, action in played:
        act(api, second_id, second_tokens[seat], action)

    def log(game_id: str) -> list[tuple[int, str, Any]]:
        return list(
            GameEvent.objects.filter(game_id=game_id)
            .order_by("sequence")
            .values_list("sequence", "type", "payload")
        )

    assert log(first_id) == log(second_id)
    for first_token, second_token in zip(first_tokens, second_tokens, strict=True):
        assert without_identity(get_view(api, first_id, first_token)) == without_identity(
            get_view(api, second_id, second_token)
        )
    # Another seed deals other cards.
    other_id, _ = start_game(api, 3, seed=100, end_score=25)
    dealt = GameEvent.objects.get(game_id=other_id, type="RoundDealt").payload
    assert dealt != GameEvent.objects.get(game_id=first_id, type="RoundDealt", sequence=5).payload
