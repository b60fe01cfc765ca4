"""Helpers for rated games (R14) over HTTP: rated games of built-in bots played to their end
by the jobs (the API has no `rated` on create yet: core's `create_game` makes them), a person
seated in a rated game with their personal token, and the schema's check of an answer."""

from __future__ import annotations

import uuid
from typing import Any

from rest_framework.test import APIClient

from accounts import services
from games import core

from .bots_support import run_jobs
from .support import GAMES, bearer
from .test_event_schemas import assert_valid

LEADERBOARD = "/api/v1/leaderboard"
PLAYERS = "/api/v1/players"
#: Short games: the fewest rounds that still rank the seats.
OPTIONS = {"end_score": 30}


def rated_game(seats: int, *, seed: int = 1) -> uuid.UUID:
    return core.create_game(seats=seats, options=OPTIONS, seed=seed, rated=True).id


def bots_game(*strategies: str, seed: int = 1, rated: bool = True) -> str:
    """A game of built-in bots, played to its end and rated by the queued jobs."""
    game = core.create_game(seats=len(strategies), options=OPTIONS, seed=seed, rated=rated)
    for strategy in strategies:
        core.join_game(game.id, strategy, strategy)
    run_jobs()
    return str(game.id)


def person(handle: str) -> str:
    """A person's account: its personal token (every scope)."""
    return services.sign_up(handle, "person", "a long passphrase of words").token.token


def seat_account(api: APIClient, game_id: object, token: str) -> dict[str, Any]:
    joined = api.post(f"{GAMES}/{game_id}/players", {}, format="json", **bearer(token))
    assert joined.status_code == 201, joined.content
    body: dict[str, Any] = joined.json()
    return body


def valid(component: str, response: Any) -> dict[str, Any]:
    """A 200 answer's body, checked against its schema in openapi.yaml."""
    assert response.status_code == 200, response.content
    body: dict[str, Any] = response.json()
    assert_valid(component, body)
    return body
