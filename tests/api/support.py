"""Helpers for driving the API over HTTP: set games up, send actions, read views as engine
`GameView`s (so the engine's players can play through the API), and check what views show."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rest_framework.test import APIClient

from engine import (
    TURN_ACTION_KINDS,
    Action,
    GreedyPlayer,
    Join,
    Options,
    RandomPlayer,
    SeededShuffler,
    action_to_data,
    replay,
    seats_to_act,
)
from engine import act as engine_act
from engine import create_game as create_engine_game
from engine import view as engine_view
from engine.view import FACE_DOWN
from engine.view import view_from_data as view_from_data  # re-exported for the tests
from games.api.views.turns import action_segment

GAMES = "/api/v1/games"
PROBLEM_JSON = "application/problem+json"

#: The typed endpoint of each action kind (the kinds are those of `legal_actions`).
ENDPOINTS = {kind: action_segment(kind) for kind in TURN_ACTION_KINDS}


def game_url(game_id: str) -> str:
    return f"{GAMES}/{game_id}"


def action_url(game_id: str, kind: str | None = None) -> str:
    """The typed endpoint of `kind`, or with no kind `POST .../actions`, which takes any."""
    actions = f"{GAMES}/{game_id}/actions"
    return actions if kind is None else f"{actions}/{ENDPOINTS[kind]}"


def bearer(token: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


def create_game(
    client: APIClient,
    seats: int = 2,
    *,
    seed: int | None = 1,
    end_score: int | None = None,
    closer_penalty: bool | None = None,
) -> dict[str, Any]:
    body: dict[str, Any] = {"seats": seats}
    if seed is not None:
        body["seed"] = seed
    options = {
        key: value
        for key, value in (("end_score", end_score), ("closer_penalty", closer_penalty))
        if value is not None
    }
    if options:
        body["options"] = options
    response = client.post(GAMES, body, format="json")
    assert response.status_code == 201, response.content
    data: dict[str, Any] = response.json()
    return data


def join(client: APIClient, game_id: str, name: str) -> dict[str, Any]:
    response = client.post(f"{GAMES}/{game_id}/players", {"name": name}, format="json")
    assert response.status_code == 201, response.content
    data: dict[str, Any] = response.json()
    return data


def start_game(
    client: APIClient, seats: int = 2, *, seed: int | None = 1, **options: Any
) -> tuple[str, list[str]]:
    """A game with every seat taken (round 1 dealt, status setup): its id and the tokens."""
    game = create_game(client, seats, seed=seed, **options)
    tokens = [join(client, game["id"], f"Player {seat}")["token"] for seat in range(seats)]
    return game["id"], tokens


def get_view(client: APIClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    response = client.get(game_url(game_id), **(bearer(token) if token else {}))
    assert response.status_code == 200, response.content
    data: dict[str, Any] = response.json()
    return data


def send(
    client: APIClient,
    game_id: str,
    token: str | None,
    action: dict[str, Any] | Action,
    *,
    verbatim: bool = False,
    **headers: str,
) -> Any:
    """POST one action ({"action": kind, ...} as listed in `legal_actions`, or an engine action)
    to its typed endpoint, or `verbatim` as it is to `POST .../actions`."""
    data = action if isinstance(action, dict) else action_to_data(action)
    auth = bearer(token) if token else {}
    if verbatim:
        return client.post(action_url(game_id), data, format="json", **auth, **headers)
    body = {key: value for key, value in data.items() if key != "action"}
    return client.post(action_url(game_id, data["action"]), body, format="json", **auth, **headers)


def act(
    client: APIClient, game_id: str, token: str, action: dict[str, Any] | Action, **headers: str
) -> dict[str, Any]:
    response = send(client, game_id, token, action, **headers)
    assert response.status_code == 200, response.content
    data: dict[str, Any] = response.json()
    return data


def assert_problem(response: Any, status: int, code: str) -> dict[str, Any]:
    """An RFC 9457 problem with the given status and code."""
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith(PROBLEM_JSON), response["Content-Type"]
    body: dict[str, Any] = response.json()
    assert body["status"] == status
    assert body["code"] == code, body
    assert body["type"].endswith("/" + code)
    assert isinstance(body["title"], str) and body["title"]
    assert isinstance(body["detail"], str) and body["detail"]
    return body


def seat_to_act(game_view: dict[str, Any], views: Sequence[dict[str, Any]]) -> int:
    """The seat that moves now: the current seat, or in setup the first with reveals left."""
    if game_view["current_seat"] is not None:
        return int(game_view["current_seat"])
    return next(seat for seat, v in enumerate(views) if v["legal_actions"])


Step = Callable[[dict[str, Any], list[dict[str, Any]], dict[str, Any]], None]


def play_over_http(
    client: APIClient,
    game_id: str,
    tokens: Sequence[str],
    players: Sequence[GreedyPlayer | RandomPlayer],
    *,
    on_step: Step | None = None,
    max_actions: int = 5_000,
) -> list[tuple[int, dict[str, Any]]]:
    """Play to the end: each seat's engine player chooses from its view as served (a
    `GameView` rebuilt from the JSON). After every action, every seat's view and the
    spectator's are read again; `on_step(spectator_before, seat_views, spectator)` may check
    them. Answers the actions sent, in order, as (seat, legal action data)."""
    played: list[tuple[int, dict[str, Any]]] = []
    views = [get_view(client, game_id, token) for token in tokens]
    spectator = get_view(client, game_id)
    while spectator["status"] != "finished":
        assert len(played) < max_actions, "the game did not end"
        seat = seat_to_act(spectator, views)
        choice = action_to_data(players[seat].choose(view_from_data(views[seat])))
        assert choice in views[seat]["legal_actions"]
        answer = act(client, game_id, tokens[seat], choice)
        played.append((seat, choice))
        before = spectator
        views = [get_view(client, game_id, token) for token in tokens]
        spectator = get_view(client, game_id)
        assert answer == views[seat]  # an action answers the actor's new view
        if on_step is not None:
            on_step(before, views, spectator)
    return played


def setup_reveals(client: APIClient, game_id: str, tokens: Sequence[str]) -> dict[str, Any]:
    """Every seat turns its cards (0, 0) and (1, 0): the round starts. Answers the last view."""
    body: dict[str, Any] = {}
    for token in tokens:
        act(client, game_id, token, {"action": "reveal", "column": 0, "row": 0})
        body = act(client, game_id, token, {"action": "reveal", "column": 1, "row": 0})
    return body


IDENTITY = (
    "id",
    "created_at",
    "updated_at",
    "seeded",
    "rated",
    "listed",
    "reserved",
    "rematch",
    "rematch_of",
    "ratings",
    "bot_pace_ms",
)


def without_identity(data: dict[str, Any]) -> dict[str, Any]:
    """A game resource less what the engine view does not hold (its id, times, whether its
    seed was chosen, its links: listed, reserved seats, rematches, a rated game's ratings,
    and its bots' pace, R15)."""
    return {key: value for key, value in data.items() if key not in IDENTITY}


# What a view may show


def hidden_leaks(data: dict[str, Any]) -> list[str]:
    """Every place where `data` shows a card its viewer may not know (R4, R7): a face-down
    card's value, or a card drawn from the deck by another seat."""
    leaks = []
    for player in data["players"]:
        for column, cells in enumerate(player["grid"]):
            for row, cell in enumerate(cells):
                if cell["state"] == FACE_DOWN and cell["value"] is not None:
                    leaks.append(f"seat {player['seat']} face-down card ({column}, {row})")
                if cell["state"] == "removed" and cell["value"] is not None:
                    leaks.append(f"seat {player['seat']} removed card ({column}, {row})")
    held = data["held_card"]
    if (
        held is not None
        and held["source"] == "deck"
        and held["seat"] != data["you"]
        and held["value"] is not None
    ):
        leaks.append(f"seat {held['seat']}'s drawn card, seen by {data['you']}")
    return leaks


def engine_actions(
    seats: int, seed: int, end_score: int = 100, closer_penalty: bool = True
) -> list[tuple[int, Action]]:
    """The actions greedy players take in the game with this seed, played on the engine alone
    (the service derives every shuffle from the seed the same way)."""
    shuffler = SeededShuffler(seed)
    state = replay(create_engine_game(seats, Options(end_score, closer_penalty)))
    for seat in range(seats):
        _, state = engine_act(state, None, Join(f"Player {seat}"), shuffler)
    player = GreedyPlayer()
    actions = []
    while state.phase != "finished":
        seat = seats_to_act(state)[0]
        action = player.choose(engine_view(state, seat))
        _, state = engine_act(state, seat, action, shuffler)
        actions.append((seat, action))
    return actions


def finished_game(
    client: APIClient, seats: int = 2, *, seed: int = 3, end_score: int = 1
) -> tuple[str, list[str]]:
    """A game played to its end over HTTP (one round with a tiny end score)."""
    game_id, tokens = start_game(client, seats, seed=seed, end_score=end_score)
    for seat, action in engine_actions(seats, seed, end_score):
        act(client, game_id, tokens[seat], action)
    return game_id, tokens
