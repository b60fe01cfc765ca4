"""Caches never mix viewers (issue 12, item 8): every answer whose body depends on the
`Authorization` header says `Vary: Authorization` and `Cache-Control: private`, and answers
that hold a token `no-store` as well; errors and 304s of those operations included."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from .history_support import stored_history
from .support import GAMES, action_url, bearer, create_game, start_game

pytestmark = pytest.mark.django_db

Operation = Callable[[APIClient, str, list[str]], Any]


def directives(response: Any) -> set[str]:
    return {part.strip() for part in response.get("Cache-Control", "").split(",") if part}


def varies_on_authorization(response: Any) -> bool:
    return "authorization" in {part.strip().lower() for part in response["Vary"].split(",")}


PER_VIEWER: dict[str, Operation] = {
    "view as a seat": lambda api, g, t: api.get(f"{GAMES}/{g}", **bearer(t[0])),
    "view as a spectator": lambda api, g, t: api.get(f"{GAMES}/{g}"),
    "view not modified": lambda api, g, t: api.get(
        f"{GAMES}/{g}", HTTP_IF_NONE_MATCH='"4"', **bearer(t[0])
    ),
    "replay ?at= as a seat": lambda api, g, t: api.get(f"{GAMES}/{g}?at=3", **bearer(t[1])),
    "replay ?at= as a spectator": lambda api, g, t: api.get(f"{GAMES}/{g}?at=3"),
    "events as a seat": lambda api, g, t: api.get(f"{GAMES}/{g}/events", **bearer(t[0])),
    "events as a spectator": lambda api, g, t: api.get(f"{GAMES}/{g}/events?after=1"),
    "view with a bad token": lambda api, g, t: api.get(f"{GAMES}/{g}", **bearer("nope")),
    "typed action": lambda api, g, t: api.post(
        action_url(g, "reveal"), {"column": 0, "row": 0}, format="json", **bearer(t[0])
    ),
    "any action": lambda api, g, t: api.post(
        action_url(g), {"action": "reveal", "column": 1, "row": 0}, format="json", **bearer(t[1])
    ),
    "refused action": lambda api, g, t: api.post(
        action_url(g, "draw"), {}, format="json", **bearer(t[0])
    ),
}

HOLDS_A_TOKEN: dict[str, Operation] = {
    "join": lambda api, g, t: api.post(
        f"{GAMES}/{open_game(api)}/players", {"name": "Cy"}, format="json"
    ),
    "rotate": lambda api, g, t: api.post(f"{GAMES}/{g}/players/0/token", **bearer(t[0])),
    "import": lambda api, g, t: api.post(f"{GAMES}/import", stored_history(g), format="json"),
}


def open_game(api: APIClient) -> str:
    return str(create_game(api, 2)["id"])


def game(api: APIClient) -> tuple[str, list[str]]:
    return start_game(api, 3, seed=8)


@pytest.mark.parametrize("name", PER_VIEWER)
def test_every_per_viewer_answer_is_private_and_varies_on_authorization(
    api: APIClient, name: str
) -> None:
    game_id, tokens = game(api)
    response = PER_VIEWER[name](api, game_id, tokens)
    assert response.status_code < 500
    assert varies_on_authorization(response), response.get("Vary")
    assert "private" in directives(response) and "public" not in directives(response)


@pytest.mark.parametrize("name", HOLDS_A_TOKEN)
def test_answers_holding_a_token_are_never_stored(api: APIClient, name: str) -> None:
    game_id, tokens = game(api)
    response = HOLDS_A_TOKEN[name](api, game_id, tokens)
    assert response.status_code in (200, 201), response.content
    assert {"private", "no-store"} <= directives(response)
    assert varies_on_authorization(response)


def test_the_lobby_is_not_per_viewer(api: APIClient) -> None:
    """Lists and histories answer everyone alike: shared caches may keep them."""
    response = api.get(GAMES)
    assert "private" not in directives(response)
