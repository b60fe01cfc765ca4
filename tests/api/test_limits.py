"""Limits on what a request may carry: a refused request writes nothing, a body over the size
limit is refused with 413 at every endpoint, a chunked one with 411, and list pages hold at most
100 games.

(Malformed bodies and fields are covered case by case in test_lobby, test_actions and
test_robustness; rate limits in test_throttling.)
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.conf import settings
from django.test import override_settings
from rest_framework.test import APIClient

from games import core
from games.api.parsers import JSONParser
from games.api.problems import Problem
from games.models import Game, GameEvent, IdempotentResponse, Seat

from .support import (
    GAMES,
    action_url,
    assert_problem,
    bearer,
    create_game,
    finished_game,
    game_url,
    setup_reveals,
    start_game,
)

pytestmark = pytest.mark.django_db


def rows() -> dict[str, int]:
    return {
        model.__name__: model.objects.count()
        for model in (Game, GameEvent, Seat, IdempotentResponse)
    }


@pytest.fixture
def playing(api: APIClient) -> tuple[str, list[str], int]:
    game_id, tokens = start_game(api, 2, seed=4)
    view = setup_reveals(api, game_id, tokens)
    return game_id, tokens, view["current_seat"]


def targets(game_id: str, seat: int) -> dict[str, str]:
    return {
        "create_game": GAMES,
        "import_history": f"{GAMES}/import",
        "join_game": f"{GAMES}/{game_id}/players",
        "rotate_token": f"{GAMES}/{game_id}/players/{seat}/token",
        **{kind: action_url(game_id, kind) for kind in ("reveal", "replace", "draw", "discard")},
    }


# A refused request writes nothing

ODD_NAMES = [
    "x" * 41,
    "\U0001f0a1" * 41,  # 41 characters, each 4 bytes in UTF-8
    "Ada\u202egnirts",  # a right-to-left override (a format character)
    "\ufeffAda",  # a byte order mark
    "Ada\u0000",
    "e" + "\u0301" * 40,  # 41 code points, whatever they render as
    "\u3000",  # blank once stripped
    "\U000e0041da",  # a tag character
    "\ud7ff\ue000",  # a private-use character
]

REFUSED: list[tuple[str, Any, str | None]] = [
    ("create_game", {"seats": 10**100}, "seats"),
    ("create_game", {"seats": -3}, "seats"),
    ("create_game", {"seats": 2, "seed": 2**64}, "seed"),
    ("create_game", {"seats": 2, "options": {"end_score": 10**9}}, "options.end_score"),
    ("create_game", {"seats": 2, "colour": "red"}, "colour"),
    ("create_game", {}, "seats"),
    ("create_game", [2], "non_field_errors"),
    ("create_game", b'{"seats": 2,}', None),
    *(("join_game", {"name": name}, "name") for name in ODD_NAMES),
    ("join_game", {"name": "Ada", "admin": True}, "admin"),
    ("join_game", {"nom": "Ada"}, "nom"),
    ("reveal", {"column": -1, "row": 0}, "column"),
    ("reveal", {"column": 0, "row": 3}, "row"),
    ("reveal", {"column": 2**70, "row": 0}, "column"),
    ("reveal", {"column": 0.0, "row": 0}, "column"),
    ("replace", {"column": 0}, "row"),
    ("replace", {"column": 0, "row": 0, "value": 12}, "value"),
    ("draw", {"from": "discard"}, "from"),
    ("discard", b"[]", "non_field_errors"),
    ("rotate_token", {"token": "mine"}, "token"),
    ("import_history", {"format": "skyjo-history"}, None),
    ("import_history", b"\xff", None),
]


@pytest.mark.parametrize(("target", "body", "field"), REFUSED)
def test_a_refused_request_writes_nothing(
    api: APIClient,
    playing: tuple[str, list[str], int],
    target: str,
    body: Any,
    field: str | None,
) -> None:
    game_id, tokens, seat = playing
    url = targets(game_id, seat)[target]
    before = rows()
    version = Game.objects.get(pk=game_id).version
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    response = api.post(url, raw, content_type="application/json", **bearer(tokens[seat]))
    assert response.status_code == 400, response.content
    problem = response.json()
    if field is not None:
        assert problem["code"] == "invalid_request"
        assert field in problem["errors"], problem
    assert rows() == before
    assert Game.objects.get(pk=game_id).version == version
    assert Seat.objects.filter(game_id=game_id).count() == 2


# Bodies over the size limit

LIMIT = 512


def padded(size: int) -> bytes:
    """A JSON object of exactly `size` bytes (spaces before the closing brace)."""
    head = b'{"seats": 2'
    return head + b" " * (size - len(head) - 1) + b"}"


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=LIMIT)
def test_a_body_over_the_limit_is_413_at_every_endpoint(
    api: APIClient, playing: tuple[str, list[str], int]
) -> None:
    game_id, tokens, seat = playing
    before = rows()
    big = padded(LIMIT + 1)
    urls = [
        *targets(game_id, seat).values(),
        *(action_url(game_id, kind) for kind in ("take_discard",)),
    ]
    for url in urls:
        response = api.post(url, big, content_type="application/json", **bearer(tokens[seat]))
        problem = assert_problem(response, 413, "payload_too_large")
        assert str(LIMIT) in problem["detail"]
    # Reading endpoints too, and whatever the declared media type.
    for url in (GAMES, game_url(game_id), f"{game_url(game_id)}/events", "/api/v1/rules"):
        response = api.generic("GET", url, big, content_type="application/json")
        assert_problem(response, 413, "payload_too_large")
    form = api.post(GAMES, big, content_type="application/x-www-form-urlencoded")
    assert_problem(form, 413, "payload_too_large")
    assert rows() == before
    # At the limit, a body is read as usual.
    assert api.post(GAMES, padded(LIMIT), content_type="application/json").status_code == 201


def test_a_chunked_body_is_411_at_every_endpoint(
    api: APIClient, playing: tuple[str, list[str], int]
) -> None:
    """Django reads a body without `Content-Length` as none: a chunked join was answered
    `400 name: This field is required`. Refused before any view, whatever it holds (both
    servers: tests/production/test_server_refusals)."""
    game_id, tokens, seat = playing
    before = rows()
    chunked = {"HTTP_TRANSFER_ENCODING": "chunked", **bearer(tokens[seat])}
    for url in targets(game_id, seat).values():
        response = api.post(url, {"name": "Ada"}, format="json", **chunked)
        assert_problem(response, 411, "length_required")
    for url in (GAMES, game_url(game_id), "/api/v1/rules"):
        assert_problem(api.get(url, **chunked), 411, "length_required")
    assert rows() == before


def test_the_default_limit_holds_for_the_largest_body_an_import(api: APIClient) -> None:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    assert limit == 2 * 1024 * 1024
    game_id, _ = finished_game(api)
    history = api.get(f"{GAMES}/{game_id}/history").json()
    before = rows()
    text = json.dumps(history).encode()
    oversized = text[:-1] + b" " * (limit - len(text) + 1) + b"}"
    assert len(oversized) == limit + 1
    response = api.post(f"{GAMES}/import", oversized, content_type="application/json")
    assert_problem(response, 413, "payload_too_large")
    assert rows() == before
    at_limit = oversized[:-2] + b"}"
    assert api.post(f"{GAMES}/import", at_limit, content_type="application/json").status_code == 201


def test_the_parser_stops_reading_at_the_limit() -> None:
    """A body sent without a length, or under a false one, is cut off by the parser itself."""

    class Endless(io.RawIOBase):
        read_bytes = 0

        def readable(self) -> bool:
            return True

        def readinto(self, buffer: Any) -> int:
            buffer[:] = b" " * len(buffer)
            self.read_bytes += len(buffer)
            return len(buffer)

    stream = Endless()
    with override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=LIMIT), pytest.raises(Problem) as refused:
        JSONParser().parse(io.BufferedReader(stream), "application/json", {})
    assert refused.value.status_code == 413
    assert stream.read_bytes <= 64 * 1024  # it stopped at the limit (and one buffer)


# List pages


def test_list_pages_hold_at_most_100_games(api: APIClient) -> None:
    for _ in range(103):
        core.create_game(seats=2, options=None, seed=None)
    for query, size in (({"limit": 100}, 100), ({}, 20), ({"limit": 7}, 7)):
        page = api.get(GAMES, query).json()
        assert page["count"] == 103
        assert len(page["results"]) == size
    for limit in (101, 1000):  # refused, not capped: the client learns its page is smaller
        problem = assert_problem(api.get(GAMES, {"limit": limit}), 400, "invalid_request")
        assert list(problem["errors"]) == ["limit"]
    last = api.get(GAMES, {"limit": 100, "offset": 100}).json()
    assert len(last["results"]) == 3 and last["next"] is None
    assert "limit=100" in api.get(GAMES, {"limit": 100}).json()["next"]
    assert create_game(api, 2)["id"] == api.get(GAMES, {"limit": 1}).json()["results"][0]["id"]
