"""A typed action's body checked with `SKYJO_FAST_INPUTS` on (well-formed bodies without DRF's
serializer) and off (always the serializer): the same answers, errors and problem documents
included."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings
from rest_framework.exceptions import ValidationError
from rest_framework.test import APIClient

from engine.cards import COLUMNS, ROWS
from games.api.inputs import typed_action_body

from .support import action_url, bearer, setup_reveals, start_game, without_identity

#: Every position, and bodies each way wrong: bounds, types, fields missing or extra, shapes.
BODIES: list[Any] = [
    *({"column": column, "row": row} for column in range(COLUMNS) for row in range(ROWS)),
    {"row": 1, "column": 2},
    {},
    {"column": 0},
    {"row": 0},
    {"column": COLUMNS, "row": 0},
    {"column": 0, "row": ROWS},
    {"column": -1, "row": 0},
    {"column": 0, "row": -1},
    {"column": True, "row": 0},
    {"column": 0, "row": False},
    {"column": 1.0, "row": 0},
    {"column": "1", "row": 0},
    {"column": None, "row": 0},
    {"column": [1], "row": 0},
    {"column": 2**70, "row": 0},
    {"column": 0, "row": 0, "extra": 1},
    {"column": 0, "extra": 1},
    {"extra": None},
    {"action": "reveal"},
    [],
    [{"column": 0, "row": 0}],
    "column",
    0,
    None,
]


def outcome(positioned: bool, body: Any, fast: bool) -> tuple[str, Any]:
    """What `typed_action_body` answers: the data, or the error's every detail and code."""
    with override_settings(SKYJO_FAST_INPUTS=fast):
        try:
            return "valid", typed_action_body(positioned, body)
        except ValidationError as error:
            return "invalid", error.get_full_details()


@pytest.mark.parametrize("positioned", [True, False])
@pytest.mark.parametrize("body", BODIES)
def test_both_paths_answer_alike(positioned: bool, body: Any) -> None:
    fast, slow = outcome(positioned, body, True), outcome(positioned, body, False)
    assert fast == slow
    assert list(fast[1]) == list(slow[1])  # the fields in the same order


@pytest.mark.django_db
def test_both_paths_answer_the_same_problems_and_views(api: APIClient) -> None:
    """Over HTTP, each bad body's problem document and a good body's answer are the same
    whichever path checked them (the game is the same at each: a refusal changes nothing)."""
    game_id, tokens = start_game(api, 2, seed=1)
    view = setup_reveals(api, game_id, tokens)
    seat = view["current_seat"]
    for kind, body in [("reveal", b) for b in BODIES] + [("draw", {"x": 1}), ("draw", [])]:
        answers = []
        for fast in (True, False):
            with override_settings(SKYJO_FAST_INPUTS=fast):
                url = action_url(game_id, kind)
                answer = api.post(url, body, format="json", **bearer(tokens[seat]))
            answers.append((answer.status_code, answer["Content-Type"], answer.json()))
        assert answers[0] == answers[1], (kind, body)
        assert answers[0][0] in (400, 409), (kind, body)  # reveal is no play-phase action


@pytest.mark.django_db
def test_both_paths_play_the_same_game(api: APIClient) -> None:
    """Two games of the same seed, one played through each path: the same answers."""
    games = []
    for fast in (True, False):
        with override_settings(SKYJO_FAST_INPUTS=fast):
            game_id, tokens = start_game(api, 2, seed=7)
            answers = [without_identity(setup_reveals(api, game_id, tokens))]
            seat = answers[0]["current_seat"]
            for kind, body in [("take_discard", {}), ("replace", {"column": 3, "row": 2})]:
                answer = api.post(
                    action_url(game_id, kind), body, format="json", **bearer(tokens[seat])
                )
                assert answer.status_code == 200, answer.content
                answers.append(without_identity(answer.json()))
        games.append(answers)
    assert games[0] == games[1]
