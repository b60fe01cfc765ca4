"""Seat tokens: 256 random bits from `secrets`, stored only hashed, looked up by their hash,
never logged; a token acts for its own seat of its own game only; a seat rotates its token."""

from __future__ import annotations

import base64
import hashlib
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from engine import GreedyPlayer, RandomPlayer
from games import store
from games.core import tokens as seat_tokens
from games.core.tokens import hash_token
from games.models import Game, GameEvent, Seat

from .support import (
    GAMES,
    act,
    assert_problem,
    bearer,
    create_game,
    finished_game,
    game_url,
    get_view,
    join,
    play_over_http,
    send,
    setup_reveals,
    start_game,
)

pytestmark = pytest.mark.django_db


def token_url(game_id: str, seat: int) -> str:
    return f"{GAMES}/{game_id}/players/{seat}/token"


def rotate(api: APIClient, game_id: str, seat: int, token: str | None, **extra: Any) -> Any:
    return api.post(token_url(game_id, seat), **(bearer(token) if token else {}), **extra)


def event_count(game_id: str) -> int:
    return GameEvent.objects.filter(game_id=game_id).count()


# What a token is


def test_tokens_are_256_random_bits_from_secrets(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[int] = []
    real = seat_tokens.secrets.token_urlsafe

    def spy(nbytes: int) -> str:
        asked.append(nbytes)
        return real(nbytes)

    monkeypatch.setattr(seat_tokens.secrets, "token_urlsafe", spy)
    game_id, tokens = start_game(api, 8)
    assert asked == [32] * 8  # bytes: 256 bits (at least 128 are required)
    for token in tokens:
        assert len(base64.urlsafe_b64decode(token + "=")) == 32
        assert set(token) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    assert len(set(tokens)) == 8
    rotated = rotate(api, game_id, 0, tokens[0]).json()["token"]
    assert asked[-1] == 32 and len(base64.urlsafe_b64decode(rotated + "=")) == 32


def all_stored_text() -> str:
    """Every value of every row of every table, as text."""
    chunks = []
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names():
            cursor.execute(f'SELECT * FROM "{table}"')  # table names from Django itself
            chunks.extend(repr(row) for row in cursor.fetchall())
    return "\n".join(chunks)


def test_no_token_is_stored_only_its_hash(api: APIClient) -> None:
    game_id, tokens = start_game(api, 3)
    setup_reveals(api, game_id, tokens)
    rotated = rotate(api, game_id, 1, tokens[1]).json()["token"]
    imported = api.post(
        f"{GAMES}/import", api.get(f"{GAMES}/{finished_game(api)[0]}/history").json(), format="json"
    )
    assert imported.status_code == 201
    every_token = [*tokens, rotated]
    stored = all_stored_text()
    for token in every_token:
        assert token not in stored
    hashes = set(Seat.objects.filter(game_id=game_id).values_list("token_hash", flat=True))
    assert hashes == {
        hashlib.sha256(t.encode()).hexdigest() for t in (tokens[0], rotated, tokens[2])
    }


def test_a_token_is_looked_up_by_its_hash_only(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database sees the SHA-256 of a presented token, never the token: a timing
    difference in the index lookup could tell an attacker about hashes only, and the hash of a
    guessed token cannot be steered towards a stored one."""
    game_id, tokens = start_game(api, 4)
    looked_up: list[str | None] = []
    real = store.fetch_game

    def spy(game: Any, token_hash: str | None, **how: Any) -> Any:
        looked_up.append(token_hash)
        return real(game, token_hash, **how)

    monkeypatch.setattr(store, "fetch_game", spy)
    with CaptureQueriesContext(connection) as queries:
        get_view(api, game_id, tokens[0])
    assert looked_up == [hash_token(tokens[0])]
    assert not any(tokens[0] in str(query) for query in queries.captured_queries)
    looked_up.clear()
    assert api.get(game_url(game_id), **bearer("x" * 43)).status_code == 401
    assert looked_up == [hash_token("x" * 43)]


@pytest.fixture
def every_log(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """Every record of every logger at DEBUG, SQL queries included (Django logs them only
    with a debug cursor)."""
    caplog.set_level(logging.DEBUG)
    for name in ("django", "django.request", "django.server", "django.db.backends"):
        caplog.set_level(logging.DEBUG, logger=name)
        logging.getLogger(name).propagate = True
    debug_cursor = connection.force_debug_cursor
    connection.force_debug_cursor = True
    yield caplog
    connection.force_debug_cursor = debug_cursor
    for name in ("django.request", "django.server"):
        logging.getLogger(name).propagate = False


def test_tokens_are_never_logged(api: APIClient, every_log: pytest.LogCaptureFixture) -> None:
    game_id, tokens = start_game(api, 2, seed=5, end_score=20)
    _, strangers = start_game(api, 2, seed=6)
    rotated = rotate(api, game_id, 0, tokens[0]).json()["token"]
    # Refusals: the old token, another game's, a malformed header, another seat's rotation.
    assert_problem(send(api, game_id, tokens[0], {"action": "draw"}), 401, "invalid_token")
    assert_problem(api.get(game_url(game_id), **bearer(strangers[0])), 401, "invalid_token")
    assert_problem(
        api.get(game_url(game_id), HTTP_AUTHORIZATION=f"Token {strangers[1]}"), 401, "invalid_token"
    )
    assert_problem(rotate(api, game_id, 1, rotated), 403, "forbidden")
    play_over_http(api, game_id, [rotated, tokens[1]], [GreedyPlayer(), RandomPlayer(1)])
    assert get_view(api, game_id)["status"] == "finished"

    records = every_log.records
    assert any(r.name == "django.db.backends" for r in records)  # the capture works
    assert any(r.name == "django.request" and r.status_code == 401 for r in records)  # type: ignore[attr-defined]
    logged = (
        "\n".join(f"{r.getMessage()} {r.args!r} {getattr(r, 'request', '')!r}" for r in records)
        + every_log.text
    )
    for token in (*tokens, *strangers, rotated):
        assert token not in logged


# What a token may do


def test_a_token_is_refused_by_every_other_game(api: APIClient) -> None:
    game_id, tokens = start_game(api, 2)
    setup_reveals(api, game_id, tokens)
    _, strangers = start_game(api, 2)
    for token in strangers:
        for response in (
            api.get(game_url(game_id), **bearer(token)),
            api.get(f"{game_url(game_id)}/events", **bearer(token)),
            send(api, game_id, token, {"action": "draw"}),
            rotate(api, game_id, 0, token),
        ):
            assert_problem(response, 401, "invalid_token")
            assert response["WWW-Authenticate"].startswith("Bearer")


def test_a_token_acts_for_its_own_seat_only(api: APIClient) -> None:
    game_id, tokens = start_game(api, 3)
    view = setup_reveals(api, game_id, tokens)
    current = view["current_seat"]
    for seat, token in enumerate(tokens):
        seen = get_view(api, game_id, token)
        assert seen["you"] == seat
        if seat != current:
            refused = send(api, game_id, token, {"action": "draw"})
            assert_problem(refused, 409, "not_your_turn")
    drawn = act(api, game_id, tokens[current], {"action": "draw"})
    assert drawn["you"] == current and drawn["held_card"]["seat"] == current


# Rotating a token


def test_a_seat_rotates_its_token(api: APIClient) -> None:
    game_id, tokens = start_game(api, 2)
    setup_reveals(api, game_id, tokens)
    version = Game.objects.get(pk=game_id).version
    events = event_count(game_id)
    response = rotate(api, game_id, 1, tokens[1])
    assert response.status_code == 200, response.content
    assert set(response["Cache-Control"].split(", ")) == {"no-store", "private"}
    body = response.json()
    assert set(body) == {"seat", "name", "token"}
    assert body["seat"] == 1 and body["name"] == "Player 1"
    new = body["token"]
    assert new != tokens[1]
    # The old token no longer works anywhere; the new one does.
    for refused in (
        api.get(game_url(game_id), **bearer(tokens[1])),
        api.get(f"{game_url(game_id)}/events", **bearer(tokens[1])),
        send(api, game_id, tokens[1], {"action": "draw"}),
        rotate(api, game_id, 1, tokens[1]),
    ):
        assert_problem(refused, 401, "invalid_token")
    assert get_view(api, game_id, new)["you"] == 1
    # Tokens are not part of the game's log: no event, the same version.
    assert event_count(game_id) == events
    assert Game.objects.get(pk=game_id).version == version
    # The other seat's token is untouched; the new one rotates again.
    assert get_view(api, game_id, tokens[0])["you"] == 0
    again = rotate(api, game_id, 1, new)
    assert again.status_code == 200
    assert_problem(api.get(game_url(game_id), **bearer(new)), 401, "invalid_token")
    assert get_view(api, game_id, again.json()["token"])["you"] == 1


def test_a_token_cannot_rotate_another_seats(api: APIClient) -> None:
    game_id, tokens = start_game(api, 3)
    for seat in (1, 2, 3, 99, 10**20):
        problem = assert_problem(rotate(api, game_id, seat, tokens[0]), 403, "forbidden")
        assert "own seat" in problem["detail"]
    for seat, token in enumerate(tokens):  # nothing changed
        assert get_view(api, game_id, token)["you"] == seat


def test_rotation_refusals(api: APIClient) -> None:
    game_id, tokens = start_game(api, 2)
    assert_problem(rotate(api, game_id, 0, None), 401, "invalid_token")
    assert_problem(
        rotate(api, game_id, 0, None, HTTP_AUTHORIZATION="Basic abc"), 401, "invalid_token"
    )
    assert_problem(rotate(api, game_id, 0, "not-a-seat-token"), 401, "invalid_token")
    unknown = "00000000-0000-0000-0000-000000000000"
    assert_problem(rotate(api, unknown, 0, tokens[0]), 404, "game_not_found")
    assert_problem(api.post(token_url(game_id, -1), **bearer(tokens[0])), 404, "not_found")
    body = api.post(token_url(game_id, 0), {"x": 1}, format="json", **bearer(tokens[0]))
    assert_problem(body, 400, "invalid_request")
    assert_problem(api.get(token_url(game_id, 0), **bearer(tokens[0])), 405, "method_not_allowed")
    assert get_view(api, game_id, tokens[0])["you"] == 0  # none of these rotated it


def test_a_seat_of_a_waiting_or_finished_game_rotates_too(api: APIClient) -> None:
    waiting = create_game(api, 3)["id"]
    token = join(api, waiting, "Ada")["token"]
    assert rotate(api, waiting, 0, token).status_code == 200
    game_id, tokens = finished_game(api)
    assert rotate(api, game_id, 0, tokens[0]).status_code == 200
