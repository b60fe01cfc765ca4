"""`POST /api/v1/games/{id}/actions`: any object of `legal_actions`, sent as it is.

The whole client loop is "pick one of `legal_actions` and POST it": a bot that knows nothing
else plays a game to its end. The endpoint is the typed endpoints' twin: same answers, same
headers, same errors, and one Idempotency-Key covers both paths.
"""

from __future__ import annotations

from random import Random
from typing import Any

import pytest
from rest_framework.test import APIClient

from engine import POSITION_KINDS, TURN_ACTION_KINDS

from .support import (
    GAMES,
    act,
    action_url,
    assert_problem,
    bearer,
    engine_actions,
    get_view,
    send,
    start_game,
)

pytestmark = pytest.mark.django_db

REPLACE = {"action": "replace", "column": 2, "row": 1}


def test_a_bot_that_posts_legal_actions_as_they_are_plays_a_whole_game(api: APIClient) -> None:
    """Three seats, random choices: every listed action is accepted as listed, to the end."""
    game_id, tokens = start_game(api, 3, seed=11, end_score=30)
    rng, kinds, sent = Random(5), set(), 0
    while (views := [get_view(api, game_id, token) for token in tokens])[0]["status"] != "finished":
        seat = next(seat for seat, view in enumerate(views) if view["legal_actions"])
        choice = rng.choice(views[seat]["legal_actions"])
        response = api.post(action_url(game_id), choice, format="json", **bearer(tokens[seat]))
        assert response.status_code == 200, response.content
        kinds.add(choice["action"])
        sent += 1
        assert sent < 3_000
    assert kinds == set(TURN_ACTION_KINDS)
    assert views[0]["winners"]


def test_each_action_answers_alike_on_both_paths(api: APIClient) -> None:
    """Twin games (same seed, same actions): the typed endpoints and `/actions` answer the
    same views, status and ETag at every step."""
    typed_id, typed_tokens = start_game(api, 2, seed=7, end_score=1)
    any_id, any_tokens = start_game(api, 2, seed=7, end_score=1)
    for seat, action in engine_actions(2, 7, end_score=1):
        typed = send(api, typed_id, typed_tokens[seat], action)
        verbatim = send(api, any_id, any_tokens[seat], action, verbatim=True)
        assert typed.status_code == verbatim.status_code == 200
        assert typed["ETag"] == verbatim["ETag"]
        assert _without_identity(typed.json()) == _without_identity(verbatim.json())
    assert get_view(api, any_id)["status"] == "finished"


def _without_identity(data: dict[str, Any]) -> dict[str, Any]:
    return {
        key: value for key, value in data.items() if key not in {"id", "created_at", "updated_at"}
    }


def _problem_on_both_paths(
    api: APIClient, game_id: str, token: str | None, action: dict[str, Any], **headers: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    typed = send(api, game_id, token, action, **headers)
    verbatim = send(api, game_id, token, action, verbatim=True, **headers)
    assert typed.status_code == verbatim.status_code >= 400, (typed.content, verbatim.content)
    assert typed.json()["code"] == verbatim.json()["code"]
    return typed.json(), verbatim.json()


def test_rule_refusals_are_the_same(api: APIClient) -> None:
    game_id, tokens = start_game(api, 2, seed=42)
    reveal = {"action": "reveal", "column": 0, "row": 0}
    act(api, game_id, tokens[0], reveal)
    typed, verbatim = _problem_on_both_paths(api, game_id, tokens[0], reveal)
    assert typed["code"] == "card_already_face_up"
    assert typed["detail"] == verbatim["detail"]
    typed, _ = _problem_on_both_paths(api, game_id, tokens[0], {"action": "draw"})
    assert typed["code"] == "setup_not_finished"


def test_authentication_and_missing_games_are_the_same(api: APIClient) -> None:
    game_id, tokens = start_game(api, 2, seed=42)
    assert _problem_on_both_paths(api, game_id, None, {"action": "draw"})[0]["status"] == 401
    assert _problem_on_both_paths(api, game_id, "nope", {"action": "draw"})[0]["status"] == 401
    missing = "00000000-0000-4000-8000-000000000000"
    typed, _ = _problem_on_both_paths(api, missing, tokens[0], {"action": "draw"})
    assert typed["code"] == "game_not_found"


def test_a_stale_if_match_is_refused_alike(api: APIClient) -> None:
    game_id, tokens = start_game(api, 2, seed=42)
    reveal = {"action": "reveal", "column": 0, "row": 0}
    typed, verbatim = _problem_on_both_paths(api, game_id, tokens[0], reveal, HTTP_IF_MATCH='"1"')
    assert typed["code"] == "version_mismatch"
    assert typed["current_version"] == verbatim["current_version"]


def test_one_idempotency_key_covers_both_paths(api: APIClient) -> None:
    game_id, tokens = start_game(api, 2, seed=42)
    reveal = {"action": "reveal", "column": 3, "row": 2}
    key = {"HTTP_IDEMPOTENCY_KEY": "reveal-3-2"}
    first = send(api, game_id, tokens[1], reveal, **key)
    again = send(api, game_id, tokens[1], reveal, verbatim=True, **key)
    assert first.status_code == again.status_code == 200
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    other = send(api, game_id, tokens[1], {**reveal, "row": 1}, verbatim=True, **key)
    assert_problem(other, 422, "idempotency_key_reused")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "action"),
        ({"action": "fly"}, "action"),
        ({"action": "Draw"}, "action"),
        ({"action": ["draw"]}, "action"),
        ({"action": {"kind": "draw"}}, "action"),
        ({"action": None}, "action"),
        ({"action": "reveal"}, "column"),
        ({"action": "replace", "column": 2}, "row"),
        ({"action": "replace", "column": 4, "row": 1}, "column"),
        ({"action": "replace", "column": "2", "row": 1}, "column"),
        ({"action": "draw", "column": 1}, "column"),
        ({**REPLACE, "seat": 1}, "seat"),
        ([REPLACE], "non_field_errors"),
        ("draw", "non_field_errors"),
    ],
)
def test_a_malformed_action_is_a_field_error(api: APIClient, body: Any, field: str) -> None:
    game_id, tokens = start_game(api, 2, seed=42)
    response = api.post(action_url(game_id), body, format="json", **bearer(tokens[0]))
    problem = assert_problem(response, 400, "invalid_request")
    assert field in problem["errors"], problem


def test_a_malformed_action_from_a_stranger_is_401_first(api: APIClient) -> None:
    """As on the typed endpoints, a bad body does not tell a stranger more than a good one."""
    game_id, _ = start_game(api, 2, seed=42)
    response = api.post(action_url(game_id), {"action": "fly"}, format="json")
    assert_problem(response, 401, "invalid_token")


def test_every_kind_takes_exactly_its_fields(api: APIClient) -> None:
    """Positions for reveal and replace, nothing else for the others: what the schema says."""
    game_id, tokens = start_game(api, 2, seed=42)
    for kind in TURN_ACTION_KINDS:
        body = {"action": kind, **({"column": 0} if kind not in POSITION_KINDS else {})}
        response = api.post(f"{GAMES}/{game_id}/actions", body, format="json", **bearer(tokens[0]))
        assert_problem(response, 400, "invalid_request")
