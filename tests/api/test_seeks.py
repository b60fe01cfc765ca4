"""Quick play over HTTP: `POST /api/v1/seeks`, `GET` and `DELETE /api/v1/seeks/{id}`, every
refusal (no token, a seat token, no `play` scope, bounds, unknown fields, a second seek, another
account's seek, a matched one withdrawn), `Idempotency-Key`, and two accounts matched by the
matcher's job, told on their account's events and seated by their tokens."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.bots_support import Clock, run_jobs
from tests.play.support import account as personal_token

from .support import GAMES, assert_problem, bearer, start_game

pytestmark = pytest.mark.django_db

SEEKS = "/api/v1/seeks"
TWO_TO_FOUR = {"seats": {"min": 2, "max": 4}}


def post_seek(api: APIClient, token: str | None, body: Any = None, **headers: str) -> Any:
    auth = bearer(token) if token else {}
    return api.post(SEEKS, TWO_TO_FOUR if body is None else body, format="json", **auth, **headers)


def created(api: APIClient, token: str, body: Any = None) -> dict[str, Any]:
    response = post_seek(api, token, body)
    assert response.status_code == 201, response.content
    data: dict[str, Any] = response.json()
    return data


def test_a_seek_is_made_read_and_withdrawn(api: APIClient) -> None:
    token = personal_token("ada")
    body = {"seats": {"min": 2, "max": 3}, "turn_seconds": 60, "bots_after": 20}
    response = post_seek(api, token, body)
    assert response.status_code == 201, response.content
    seek = response.json()
    assert response["Location"] == f"{SEEKS}/{seek['id']}"
    assert set(seek) == {
        "id", "status", "created_at", "seats", "turn_seconds", "bots_after", "rated",
        "expires_at", "game", "seat",
    }  # fmt: skip
    assert seek["rated"] is False
    assert seek["status"] == "searching"
    assert (seek["seats"], seek["turn_seconds"], seek["bots_after"]) == (
        {"min": 2, "max": 3},
        60,
        20,
    )
    assert (seek["game"], seek["seat"]) == (None, None)
    read = api.get(f"{SEEKS}/{seek['id']}", **bearer(token))
    assert read.status_code == 200 and read.json()["status"] == "searching"
    assert read["Cache-Control"] == "private" and "Authorization" in read["Vary"]
    gone = api.delete(f"{SEEKS}/{seek['id']}", **bearer(token))
    assert gone.status_code == 204 and not gone.content
    again = api.delete(f"{SEEKS}/{seek['id']}", **bearer(token))
    assert again.status_code == 204
    after = api.get(f"{SEEKS}/{seek['id']}", **bearer(token)).json()
    assert (after["status"], after["expires_at"]) == ("canceled", None)


def test_the_defaults_no_clock_no_bots(api: APIClient) -> None:
    seek = created(api, personal_token("ada"), {"seats": {"min": 2, "max": 2}})
    assert (seek["turn_seconds"], seek["bots_after"]) == (None, None)


def test_seeks_need_a_personal_token_with_play(api: APIClient) -> None:
    assert_problem(post_seek(api, None), 401, "account_token_required")
    _, seat_tokens = start_game(api)
    assert_problem(post_seek(api, seat_tokens[0]), 401, "account_token_required")
    assert_problem(post_seek(api, "skyjo_pat_" + "x" * 43), 401, "invalid_token")
    narrow = personal_token("ada", ["account:read", "challenge:read"])
    refused = assert_problem(post_seek(api, narrow), 403, "missing_scope")
    assert refused["required_scope"] == "play"
    mine = created(api, personal_token("bob"))["id"]
    assert_problem(api.get(f"{SEEKS}/{mine}"), 401, "account_token_required")
    assert_problem(api.delete(f"{SEEKS}/{mine}", **bearer(narrow)), 403, "missing_scope")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "seats"),
        ({"seats": 3}, "seats"),
        ({"seats": {"min": 1, "max": 4}}, "seats.min"),
        ({"seats": {"min": 2, "max": 9}}, "seats.max"),
        ({"seats": {"min": 4, "max": 3}}, "seats.max"),
        ({"seats": {"min": 2}}, "seats.max"),
        ({"seats": {"min": "2", "max": 4}}, "seats.min"),
        ({"seats": {"min": 2, "max": 4, "best": 3}}, "seats.best"),
        ({**TWO_TO_FOUR, "turn_seconds": 4}, "turn_seconds"),
        ({**TWO_TO_FOUR, "turn_seconds": 86_401}, "turn_seconds"),
        ({**TWO_TO_FOUR, "bots_after": -1}, "bots_after"),
        ({**TWO_TO_FOUR, "bots_after": 601}, "bots_after"),
        ({**TWO_TO_FOUR, "bots_after": 2.5}, "bots_after"),
        ({**TWO_TO_FOUR, "rated": "yes"}, "rated"),
    ],
)
def test_bounds_and_unknown_fields_are_refused(api: APIClient, body: Any, field: str) -> None:
    refused = assert_problem(post_seek(api, personal_token("ada"), body), 400, "invalid_request")
    assert field in refused["errors"], refused
    assert api.get(SEEKS.replace("seeks", "games")).json()["count"] == 0


def test_the_bounds_themselves_are_taken(api: APIClient) -> None:
    for index, body in enumerate(
        [
            {"seats": {"min": 8, "max": 8}, "turn_seconds": 86_400, "bots_after": 600},
            {"seats": {"min": 2, "max": 8}, "turn_seconds": 5, "bots_after": 0},
        ]
    ):
        created(api, personal_token(f"ada{index}"), body)


def test_one_searching_seek_per_account(api: APIClient) -> None:
    token = personal_token("ada")
    first = created(api, token)
    refused = assert_problem(post_seek(api, token), 409, "already_seeking")
    assert refused["seek"] == first["id"]
    assert api.delete(f"{SEEKS}/{first['id']}", **bearer(token)).status_code == 204
    created(api, token)


def test_another_accounts_seek_is_not_found(api: APIClient) -> None:
    mine = created(api, personal_token("ada"))["id"]
    bob = personal_token("bob")
    for seek_id in (mine, "not-a-uuid", "00000000-0000-0000-0000-000000000000"):
        assert_problem(api.get(f"{SEEKS}/{seek_id}", **bearer(bob)), 404, "seek_not_found")
        assert_problem(api.delete(f"{SEEKS}/{seek_id}", **bearer(bob)), 404, "seek_not_found")


def test_an_idempotency_key_replays_the_first_answer(api: APIClient) -> None:
    token = personal_token("ada")
    first = post_seek(api, token, HTTP_IDEMPOTENCY_KEY="k1")
    retry = post_seek(api, token, HTTP_IDEMPOTENCY_KEY="k1")
    assert first.status_code == retry.status_code == 201
    assert retry.content == first.content and retry["Idempotent-Replayed"] == "true"
    assert retry["Location"] == first["Location"]
    other = post_seek(api, token, {"seats": {"min": 3, "max": 3}}, HTTP_IDEMPOTENCY_KEY="k1")
    assert_problem(other, 422, "idempotency_key_reused")
    # The key is the account's: another account's same key is its own.
    assert post_seek(api, personal_token("bob"), HTTP_IDEMPOTENCY_KEY="k1").status_code == 201


def test_two_accounts_are_matched_told_and_seated(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock(monkeypatch)
    ada, bob = personal_token("ada"), personal_token("bob")
    first = created(api, ada)
    clock.advance(0.001)
    second = created(api, bob, {"seats": {"min": 2, "max": 2}})
    run_jobs()
    mine = api.get(f"{SEEKS}/{first['id']}", **bearer(ada)).json()
    theirs = api.get(f"{SEEKS}/{second['id']}", **bearer(bob)).json()
    assert (mine["status"], mine["seat"], mine["expires_at"]) == ("matched", 0, None)
    assert (theirs["status"], theirs["seat"]) == ("matched", 1)
    assert mine["game"] == theirs["game"] is not None
    view = api.get(f"{GAMES}/{mine['game']}", **bearer(bob)).json()
    assert view["you"] == 1 and view["seats"] == 2 and view["status"] == "setup"
    assert [p["account"] for p in view["players"]] == ["ada", "bob"]
    events = api.get("/api/v1/account/events", **bearer(ada)).json()["entries"]
    told = next(entry for entry in events if entry["type"] == "seek_matched")
    assert {k: told[k] for k in ("seek", "game", "seat")} == {
        "seek": first["id"],
        "game": mine["game"],
        "seat": 0,
    }
    withdrawn = api.delete(f"{SEEKS}/{first['id']}", **bearer(ada))
    assert_problem(withdrawn, 409, "seek_already_matched")


def test_a_seek_read_too_late_has_expired(api: APIClient, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock(monkeypatch)
    token = personal_token("ada")
    seek = created(api, token)
    clock.advance(25)
    assert api.get(f"{SEEKS}/{seek['id']}", **bearer(token)).json()["status"] == "searching"
    clock.advance(25)  # seen 25 s ago: alive
    assert api.get(f"{SEEKS}/{seek['id']}", **bearer(token)).json()["status"] == "searching"
    clock.advance(30)
    assert api.get(f"{SEEKS}/{seek['id']}", **bearer(token)).json()["status"] == "expired"
    created(api, token)  # a new one is welcome


def test_polling_the_accounts_events_keeps_its_seek_alive(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock(monkeypatch)
    token = personal_token("ada")
    seek = created(api, token)
    for _ in range(3):
        clock.advance(25)
        assert api.get("/api/v1/account/events", **bearer(token)).status_code == 200
    clock.advance(25)  # 100 s old, seen 25 s ago
    assert api.get(f"{SEEKS}/{seek['id']}", **bearer(token)).json()["status"] == "searching"
    clock.advance(30)
    waited = api.get("/api/v1/account/events?wait=1", **bearer(token))  # too late: lapsed
    assert waited.status_code == 200
    assert api.get(f"{SEEKS}/{seek['id']}", **bearer(token)).json()["status"] == "expired"


def test_a_seek_is_casual_or_rated_as_it_says(api: APIClient) -> None:
    token = personal_token("ada")
    casual = post_seek(api, token, {**TWO_TO_FOUR, "rated": False})
    assert casual.status_code == 201, casual.content
    assert casual.json()["rated"] is False
    other = personal_token("bob")
    rated = post_seek(api, other, {**TWO_TO_FOUR, "rated": True})
    assert rated.status_code == 201, rated.content
    assert rated.json()["rated"] is True
    not_a_boolean = post_seek(api, personal_token("cyd"), {**TWO_TO_FOUR, "rated": "no"})
    assert "rated" in assert_problem(not_a_boolean, 400, "invalid_request")["errors"]
