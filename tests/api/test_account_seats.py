"""An account's seat: joined with a personal token, acted for by the account's tokens (no seat
token), one per game, and the inbox entries its game's appends write."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts import services
from accounts.models import InboxEntry
from tests.api.support import GAMES, PROBLEM_JSON, action_url, bearer, create_game

pytestmark = pytest.mark.django_db


def personal_token(handle: str, kind: str = "bot") -> str:
    return services.sign_up(
        handle, kind, None if kind == "bot" else "a long passphrase"
    ).token.token


def test_an_account_joins_without_a_name_and_its_token_acts_for_the_seat(api: APIClient) -> None:
    token = personal_token("ada")
    game = create_game(api, 2)["id"]
    joined = api.post(f"{GAMES}/{game}/players", {}, format="json", **bearer(token))
    assert joined.status_code == 201, joined.content
    body = joined.json()
    assert body["seat"] == 0 and body["name"] == "ada" and body["account"] == "ada"
    assert "token" not in body and body["game"]["you"] == 0
    guest = api.post(f"{GAMES}/{game}/players", {"name": "Bob"}, format="json").json()
    view = api.get(f"{GAMES}/{game}", **bearer(token)).json()
    assert view["you"] == 0
    assert [p["account"] for p in view["players"]] == ["ada", None]
    reveal = {"column": 0, "row": 0}
    acted = api.post(action_url(game, "reveal"), reveal, format="json", **bearer(token))
    assert acted.status_code == 200, acted.content
    assert acted.json()["you"] == 0
    # The guest's seat token is the guest's: it reads the game as seat 1.
    assert api.get(f"{GAMES}/{game}", **bearer(guest["token"])).json()["you"] == 1


def test_one_seat_per_account_and_no_rotation(api: APIClient) -> None:
    token = personal_token("ada")
    game = create_game(api, 3)["id"]
    assert api.post(f"{GAMES}/{game}/players", format="json", **bearer(token)).status_code == 201
    again = api.post(f"{GAMES}/{game}/players", {}, format="json", **bearer(token))
    assert again.status_code == 409 and again["Content-Type"] == PROBLEM_JSON
    assert again.json()["code"] == "already_seated"
    rotate = api.post(f"{GAMES}/{game}/players/0/token", **bearer(token))
    assert rotate.status_code == 409 and rotate.json()["code"] == "account_seat_token"


def test_a_name_other_than_the_handle_is_refused(api: APIClient) -> None:
    token = personal_token("ada")
    game = create_game(api, 2)["id"]
    named = api.post(f"{GAMES}/{game}/players", {"name": "Eve"}, format="json", **bearer(token))
    assert named.status_code == 400 and "name" in named.json()["errors"]
    same = api.post(f"{GAMES}/{game}/players", {"name": "ADA"}, format="json", **bearer(token))
    assert same.status_code == 201 and same.json()["name"] == "ada"


def test_a_revoked_token_is_refused_on_join(api: APIClient) -> None:
    signed = services.sign_up("ada", "bot", None)
    credential = services.session_credential(signed.account)
    services.revoke_token(credential, signed.token.row.id)
    game = create_game(api, 2)["id"]
    refused = api.post(f"{GAMES}/{game}/players", {}, format="json", **bearer(signed.token.token))
    assert refused.status_code == 401 and refused.json()["code"] == "invalid_token"


def test_a_token_without_play_neither_joins_nor_reads_as_a_seat(api: APIClient) -> None:
    signed = services.sign_up("ada", "bot", None)
    reader = services.create_token(
        services.session_credential(signed.account), "reader", ["account:read"]
    )
    game = create_game(api, 2)["id"]
    refused = api.post(f"{GAMES}/{game}/players", {}, format="json", **bearer(reader.token))
    assert refused.status_code == 403
    assert refused.json()["code"] == "missing_scope"
    assert refused.json()["required_scope"] == "play"


def test_the_deal_and_each_turn_write_the_accounts_inboxes(api: APIClient) -> None:
    ada, bob = personal_token("ada"), personal_token("bob")
    game = create_game(api, 2)["id"]
    for token in (ada, bob):
        api.post(f"{GAMES}/{game}/players", {}, format="json", **bearer(token))
    entries = list(InboxEntry.objects.order_by("account__handle", "sequence"))
    kinds = [(e.account.handle, e.sequence, e.type) for e in entries]
    assert kinds == [
        ("ada", 1, "game_started"),
        ("ada", 2, "your_turn"),
        ("bob", 1, "game_started"),
        ("bob", 2, "your_turn"),
    ]
    assert entries[0].payload == {"game": game, "seat": 0}
