"""`Idempotency-Key` on every POST (issue 12, item 3): create, join, import, rotate and the
actions answer a retry with the first answer, byte for byte, and act once; the same key with
another request is 422. Answers holding a seat token are replayed with a new token in its place
(tokens are never stored), so a client whose join answer was lost gets its seat back.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.core import idempotency
from games.core.tokens import hash_token
from games.models import Game, IdempotentResponse, Seat

from .history_support import stored_history
from .support import (
    GAMES,
    act,
    assert_problem,
    bearer,
    create_game,
    get_view,
    join,
    send,
    start_game,
)

pytestmark = pytest.mark.django_db


def key(value: str) -> dict[str, str]:
    return {"HTTP_IDEMPOTENCY_KEY": value}


def post(api: APIClient, path: str, body: Any = None, **headers: str) -> Any:
    return api.post(path, body, format="json", **headers)


def players_url(game_id: str) -> str:
    return f"{GAMES}/{game_id}/players"


def rotate_url(game_id: str, seat: int) -> str:
    return f"{GAMES}/{game_id}/players/{seat}/token"


def assert_replay_of(first: Any, retry: Any) -> None:
    """The retry is the first answer, byte for byte, marked replayed."""
    assert retry.status_code == first.status_code
    assert retry.content == first.content
    assert retry["Idempotent-Replayed"] == "true"
    assert not first.has_header("Idempotent-Replayed")


# Create


def test_a_retried_create_answers_the_first_game_and_creates_one(api: APIClient) -> None:
    body = {"seats": 3, "options": {"end_score": 80}}
    first = post(api, GAMES, body, **key("create-1"))
    retry = post(api, GAMES, body, **key("create-1"))
    assert first.status_code == 201
    assert_replay_of(first, retry)
    assert retry["Location"] == first["Location"] and retry["ETag"] == first["ETag"]
    assert Game.objects.count() == 1
    assert_problem(post(api, GAMES, {"seats": 4}, **key("create-1")), 422, "idempotency_key_reused")
    assert Game.objects.count() == 1


def test_create_keys_belong_to_a_client_address(api: APIClient) -> None:
    body = {"seats": 2}
    here = post(api, GAMES, body, **key("k"))
    elsewhere = post(api, GAMES, body, REMOTE_ADDR="192.0.2.7", **key("k"))
    assert elsewhere.status_code == 201 and not elsewhere.has_header("Idempotent-Replayed")
    assert here.json()["id"] != elsewhere.json()["id"]


def test_without_a_key_every_create_creates(api: APIClient) -> None:
    post(api, GAMES, {"seats": 2})
    post(api, GAMES, {"seats": 2})
    assert Game.objects.count() == 2


# Join: the attack of the issue


def test_a_lost_join_answer_is_recovered_with_the_same_seat(api: APIClient) -> None:
    """The client's connection drops before it reads its join answer; the other player takes
    the last seat; the retry with the same key gets the same seat (not 409 game_full), with a
    token that works, and the token it never saw stops working."""
    game_id = create_game(api, 2)["id"]
    lost = post(api, players_url(game_id), {"name": "Ada"}, **key("join-ada"))
    assert lost.status_code == 201  # never read by the client
    join(api, game_id, "Bob")
    retry = post(api, players_url(game_id), {"name": "Ada"}, **key("join-ada"))
    assert retry.status_code == 201, retry.content
    assert retry["Idempotent-Replayed"] == "true"
    again = retry.json()
    assert (again["seat"], again["name"]) == (lost.json()["seat"], "Ada")
    assert again["token"] != lost.json()["token"]
    assert again["game"] == lost.json()["game"]  # the first answer, a new token in it
    assert retry.content.replace(again["token"].encode(), lost.json()["token"].encode()) == (
        lost.content
    )
    assert get_view(api, game_id, again["token"])["status"] == "setup"
    stale = api.get(f"{GAMES}/{game_id}", **bearer(lost.json()["token"]))
    assert_problem(stale, 401, "invalid_token")
    assert [p["name"] for p in get_view(api, game_id)["players"]] == ["Ada", "Bob"]


def test_one_join_key_never_takes_two_seats(api: APIClient) -> None:
    game_id = create_game(api, 4)["id"]
    answers = [post(api, players_url(game_id), {"name": "Ada"}, **key("once")) for _ in range(3)]
    assert {answer.json()["seat"] for answer in answers} == {0}
    assert Seat.objects.filter(game_id=game_id).count() == 1
    assert get_view(api, game_id)["version"] == 2  # created, one join


def test_a_join_key_reused_for_another_name_or_game_is_refused(api: APIClient) -> None:
    game_id = create_game(api, 3)["id"]
    other_game = create_game(api, 3)["id"]
    post(api, players_url(game_id), {"name": "Ada"}, **key("j"))
    other_name = post(api, players_url(game_id), {"name": "Eve"}, **key("j"))
    assert_problem(other_name, 422, "idempotency_key_reused")
    assert_problem(
        post(api, players_url(other_game), {"name": "Ada"}, **key("j")),
        422,
        ("idempotency_key_reused"),
    )
    assert Seat.objects.count() == 1


def test_a_join_replay_after_the_seat_rotated_its_token_is_spent(api: APIClient) -> None:
    """The seat rotated its token: its join answer was received, so it is not given again
    (a replay would otherwise retire the token the seat chose)."""
    game_id = create_game(api, 3)["id"]
    joined = post(api, players_url(game_id), {"name": "Ada"}, **key("j")).json()
    rotated = post(api, rotate_url(game_id, 0), **bearer(joined["token"])).json()
    retry = post(api, players_url(game_id), {"name": "Ada"}, **key("j"))
    assert_problem(retry, 409, "idempotency_key_spent")
    assert get_view(api, game_id, rotated["token"])["players"][0]["name"] == "Ada"


def test_a_join_replay_after_the_seat_acted_is_spent(api: APIClient) -> None:
    """The seat played: its client holds a working token, so a retry of its join key (the
    same address, game and name, all public but the key) does not take the seat from it."""
    game_id = create_game(api, 2)["id"]
    ada = post(api, players_url(game_id), {"name": "Ada"}, **key("j")).json()["token"]
    join(api, game_id, "Bob")
    act(api, game_id, ada, {"action": "reveal", "column": 0, "row": 0})
    retry = post(api, players_url(game_id), {"name": "Ada"}, **key("j"))
    assert_problem(retry, 409, "idempotency_key_spent")
    assert get_view(api, game_id, ada)["you"] == 0


def test_a_join_replay_is_given_only_soon_after_the_answer(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = create_game(api, 2)["id"]
    ada = post(api, players_url(game_id), {"name": "Ada"}, **key("j")).json()["token"]
    monkeypatch.setattr(idempotency, "TOKEN_REPLAY_WINDOW", timedelta(0))
    retry = post(api, players_url(game_id), {"name": "Ada"}, **key("j"))
    assert_problem(retry, 409, "idempotency_key_spent")
    assert get_view(api, game_id, ada)["you"] == 0


def test_a_rotation_replay_after_the_seat_acted_with_its_new_token_is_spent(
    api: APIClient,
) -> None:
    """Whoever holds a rotated-away token cannot take the seat back through the key once
    the seat plays with the token the rotation gave."""
    game_id, tokens = start_game(api, 2, seed=3)
    new = post(api, rotate_url(game_id, 0), **bearer(tokens[0]), **key("rot")).json()["token"]
    act(api, game_id, new, {"action": "reveal", "column": 0, "row": 0})
    retry = post(api, rotate_url(game_id, 0), **bearer(tokens[0]), **key("rot"))
    assert_problem(retry, 409, "idempotency_key_spent")
    assert get_view(api, game_id, new)["you"] == 0


def test_no_token_is_stored_for_a_replay(api: APIClient) -> None:
    game_id = create_game(api, 2)["id"]
    tokens = [
        post(api, players_url(game_id), {"name": "Ada"}, **key("j")).json()["token"]
        for _ in range(3)
    ]
    stored = IdempotentResponse.objects.get(key="j")
    assert not any(token in stored.body for token in tokens)
    assert stored.token_slots[0][1:] == [0, hash_token(tokens[-1])]
    assert Seat.objects.get(game_id=game_id).token_hash == hash_token(tokens[-1])


# Rotate


def test_a_lost_rotation_is_recovered_with_the_old_token_and_the_key(api: APIClient) -> None:
    game_id, tokens = start_game(api, 2, seed=3)
    lost = post(api, rotate_url(game_id, 0), **bearer(tokens[0]), **key("rot"))
    assert lost.status_code == 200
    retry = post(api, rotate_url(game_id, 0), **bearer(tokens[0]), **key("rot"))
    assert retry.status_code == 200 and retry["Idempotent-Replayed"] == "true"
    new = retry.json()["token"]
    assert new not in (lost.json()["token"], tokens[0])
    assert get_view(api, game_id, new)["status"] == "setup"
    for dead in (tokens[0], lost.json()["token"]):
        assert_problem(api.get(f"{GAMES}/{game_id}", **bearer(dead)), 401, "invalid_token")
    assert retry["Cache-Control"] == lost["Cache-Control"]


def test_a_rotation_key_answers_no_one_but_the_seat(api: APIClient) -> None:
    game_id, tokens = start_game(api, 2, seed=3)
    post(api, rotate_url(game_id, 0), **bearer(tokens[0]), **key("rot"))
    anonymous = post(api, rotate_url(game_id, 0), **key("rot"))
    assert_problem(anonymous, 401, "invalid_token")
    other_seat = post(api, rotate_url(game_id, 0), **bearer(tokens[1]), **key("rot"))
    assert_problem(other_seat, 403, "forbidden")
    elsewhere = post(
        api, rotate_url(game_id, 0), REMOTE_ADDR="192.0.2.9", **bearer(tokens[0]), **key("rot")
    )
    assert_problem(elsewhere, 401, "invalid_token")  # the retired token, from another address


def test_a_seat_key_used_by_an_action_cannot_rotate(api: APIClient) -> None:
    game_id, tokens = start_game(api, 2, seed=3)
    act(api, game_id, tokens[0], {"action": "reveal", "column": 0, "row": 0}, **key("k"))
    reused = post(api, rotate_url(game_id, 0), **bearer(tokens[0]), **key("k"))
    assert_problem(reused, 422, "idempotency_key_reused")
    assert get_view(api, game_id, tokens[0])["status"] == "setup"  # still the seat's token


# Import


def test_a_retried_import_answers_the_same_game_with_new_tokens(api: APIClient) -> None:
    game_id, _ = start_game(api, 2, seed=4)
    document = stored_history(game_id)
    first = post(api, f"{GAMES}/import", document, **key("imp"))
    retry = post(api, f"{GAMES}/import", document, **key("imp"))
    assert first.status_code == 201 and retry.status_code == 201
    assert retry["Idempotent-Replayed"] == "true"
    assert retry.json()["id"] == first.json()["id"]
    assert Game.objects.count() == 2
    old = [seat["token"] for seat in first.json()["seat_tokens"]]
    new = [seat["token"] for seat in retry.json()["seat_tokens"]]
    assert set(old).isdisjoint(new)
    restored = retry.content
    for before, after in zip(old, new, strict=True):
        restored = restored.replace(after.encode(), before.encode())
    assert restored == first.content
    for token in new:
        assert get_view(api, first.json()["id"], token)["status"] == "setup"
    document["game"] = {"id": "another"}
    assert_problem(
        post(api, f"{GAMES}/import", document, **key("imp")), 422, ("idempotency_key_reused")
    )


# Actions: byte for byte (jsonb reordered the keys of a stored answer on PostgreSQL)


def test_an_action_replay_is_the_first_answer_byte_for_byte(api: APIClient) -> None:
    game_id, tokens = start_game(api, 2, seed=5)
    reveal = {"action": "reveal", "column": 1, "row": 2}
    first = send(api, game_id, tokens[0], reveal, **key("r"))
    retry = send(api, game_id, tokens[0], reveal, **key("r"))
    verbatim = send(api, game_id, tokens[0], reveal, verbatim=True, **key("r"))
    assert_replay_of(first, retry)
    assert_replay_of(first, verbatim)
    assert retry["ETag"] == first["ETag"]


def test_a_join_retry_naming_the_game_in_upper_case_is_the_same_request(api: APIClient) -> None:
    game_id = create_game(api, 2)["id"]
    first = post(api, players_url(game_id), {"name": "Ada"}, **key("j"))
    retry = post(api, players_url(game_id.upper()), {"name": "Ada"}, **key("j"))
    assert retry.status_code == first.status_code == 201
    assert retry["Idempotent-Replayed"] == "true"
    assert retry.json()["seat"] == 0
