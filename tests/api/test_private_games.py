"""Private games and reserved seats: an unlisted game is listed for its own accounts only, its
link (`invite_url`) is the invitation; a reserved seat is kept for its account until it takes
it, the creator frees it, or the game starts."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts import services
from games import core
from games.models import Game
from tests.play.support import account

from .support import GAMES, assert_problem, bearer, get_view, join

pytestmark = pytest.mark.django_db


def create(api: APIClient, body: dict[str, Any], token: str | None = None) -> Any:
    return api.post(GAMES, body, format="json", **(bearer(token) if token else {}))


def created(api: APIClient, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    response = create(api, body, token)
    assert response.status_code == 201, response.content
    data: dict[str, Any] = response.json()
    return data


def listed_ids(api: APIClient, token: str | None = None, **query: Any) -> list[str]:
    response = api.get(GAMES, query, **(bearer(token) if token else {}))
    assert response.status_code == 200, response.content
    return [game["id"] for game in response.json()["results"]]


def account_join(api: APIClient, game_id: str, token: str) -> Any:
    return api.post(f"{GAMES}/{game_id}/players", {}, format="json", **bearer(token))


def free(api: APIClient, game_id: str, handle: str, token: str | None) -> Any:
    path = f"{GAMES}/{game_id}/reservations/{handle}"
    return api.delete(path, **(bearer(token) if token else {}))


# Listed or not


def test_a_player_s_private_games_are_listed_to_those_who_may_find_them(api: APIClient) -> None:
    ada, eve = account("ada"), account("eve")
    private = created(api, {"seats": 2, "listed": False}, ada)["id"]
    assert account_join(api, private, ada).status_code == 201
    public = created(api, {"seats": 2})["id"]
    assert account_join(api, public, ada).status_code == 201

    def games_of_ada(token: str | None) -> list[str]:
        auth = bearer(token) if token else {}
        answer = api.get("/api/v1/players/ada/games", **auth)
        assert answer.status_code == 200, answer.content
        assert "Authorization" in answer["Vary"]
        return [game["id"] for game in answer.json()["results"]]

    assert games_of_ada(None) == games_of_ada(eve) == [public]
    assert set(games_of_ada(ada)) == {private, public}


def test_the_lobby_list_varies_with_its_caller(api: APIClient) -> None:
    """Everyone's list may be kept by a shared cache; an account's (its private games too)
    may not."""
    anyone = api.get(GAMES)
    assert "Authorization" in anyone["Vary"] and "private" not in anyone.get("Cache-Control", "")
    mine = api.get(GAMES, **bearer(account("ada")))
    assert "Authorization" in mine["Vary"] and "private" in mine["Cache-Control"]


def test_open_seats_are_a_waiting_game_s(api: APIClient) -> None:
    """A canceled game keeps the seats no one took: it has none to offer."""
    waiting = created(api, {"seats": 3})["id"]
    canceled = created(api, {"seats": 3})["id"]
    core.cancel_game(canceled, "canceled")
    assert listed_ids(api, open_seats=1) == [waiting]


def test_a_private_game_is_listed_for_its_own_accounts_only(api: APIClient) -> None:
    ada, bob, eve = (account(handle) for handle in ("ada", "bob", "eve"))
    public = created(api, {"seats": 3})["id"]
    private = created(api, {"seats": 3, "listed": False, "reserved": ["bob"]}, ada)
    assert private["listed"] is False and private["reserved"] == ["bob"]
    assert private["invite_url"] == f"http://testserver/games/{private['id']}"
    game_id = private["id"]
    assert listed_ids(api) == [public]  # anonymous
    assert listed_ids(api, eve) == [public]  # another account
    assert set(listed_ids(api, ada)) == {public, game_id}  # its creator
    assert set(listed_ids(api, bob)) == {public, game_id}  # the account it keeps a seat for
    guest = join(api, game_id, "Cyd")["token"]  # the link is the invitation: anyone joins
    assert listed_ids(api, guest) == [public]  # a seat token is no account: public list
    assert account_join(api, game_id, eve).status_code == 201
    assert set(listed_ids(api, eve)) == {public, game_id}  # now seated in it
    assert listed_ids(api, status="waiting") == [public]  # filters keep it out too
    assert get_view(api, game_id)["listed"] is False  # its view says so to anyone


def test_a_guest_creates_a_private_game_without_an_account(api: APIClient) -> None:
    game = created(api, {"seats": 2, "listed": False})
    assert game["listed"] is False and game["reserved"] == []
    assert Game.objects.get(pk=game["id"]).created_by is None
    assert listed_ids(api) == []
    token = join(api, game["id"], "Ada")["token"]
    assert get_view(api, game["id"], token)["you"] == 0


def test_an_account_s_token_on_create_makes_it_the_creator(api: APIClient) -> None:
    ada = account("ada")
    game = created(api, {"seats": 2}, ada)
    assert Game.objects.get(pk=game["id"]).created_by.handle == "ada"  # type: ignore[union-attr]
    assert game["listed"] is True


def test_listed_must_be_a_boolean(api: APIClient) -> None:
    body = assert_problem(create(api, {"seats": 2, "listed": "no"}), 400, "invalid_request")
    assert "listed" in body["errors"]


# Reserved seats


def test_reserving_needs_an_account_s_token_with_play(api: APIClient) -> None:
    account("bob")
    assert_problem(create(api, {"seats": 2, "reserved": ["bob"]}), 401, "account_token_required")
    signed = services.sign_up("ada", "bot", None)
    reader = services.create_token(
        services.session_credential(signed.account), "reader", ["account:read"]
    )
    refused = create(api, {"seats": 2, "reserved": ["bob"]}, reader.token)
    assert assert_problem(refused, 403, "missing_scope")["required_scope"] == "play"
    assert not Game.objects.exists()  # nothing half made


def test_reserved_handles_must_name_accounts_within_the_seats(api: APIClient) -> None:
    ada = account("ada")
    account("bob")
    unknown = create(api, {"seats": 2, "reserved": ["bob", "nobody"]}, ada)
    assert_problem(unknown, 404, "player_not_found")
    too_many = create(api, {"seats": 2, "reserved": ["ada", "bob", "Cyd"]}, ada)
    assert "reserved" in assert_problem(too_many, 400, "invalid_request")["errors"]
    builtin = create(api, {"seats": 2, "reserved": ["greedy"]}, ada)
    assert "reserved" in assert_problem(builtin, 400, "invalid_request")["errors"]
    malformed = create(api, {"seats": 2, "reserved": ["no spaces"]}, ada)
    assert "reserved" in assert_problem(malformed, 400, "invalid_request")["errors"]
    assert not Game.objects.exists()


def test_a_reserved_seat_is_kept_for_its_account(api: APIClient) -> None:
    ada, bob = account("ada"), account("bob")
    game_id = created(api, {"seats": 3, "reserved": ["bob", "BOB"]}, ada)["id"]
    assert account_join(api, game_id, ada).status_code == 201  # the creator sits, unreserved
    assert join(api, game_id, "Cyd")["seat"] == 1  # one seat open beside the kept one
    assert_problem(
        api.post(f"{GAMES}/{game_id}/players", {"name": "Eve"}, format="json"),
        409,
        "seat_reserved",
    )
    assert get_view(api, game_id)["reserved"] == ["bob"]
    joined = account_join(api, game_id, bob)
    assert joined.status_code == 201 and joined.json()["seat"] == 2
    view = get_view(api, game_id)
    assert view["status"] == "setup" and view["reserved"] == []


def test_the_creator_frees_a_reserved_seat(api: APIClient) -> None:
    ada, bob = account("ada"), account("bob")
    account("eve")
    game_id = created(api, {"seats": 2, "reserved": ["bob", "eve"]}, ada)["id"]
    stranger = api.post(f"{GAMES}/{game_id}/players", {"name": "Cyd"}, format="json")
    assert_problem(stranger, 409, "seat_reserved")
    assert_problem(free(api, game_id, "eve", None), 401, "account_token_required")
    assert_problem(free(api, game_id, "eve", bob), 403, "not_creator")
    assert_problem(free(api, game_id, "nobody", ada), 404, "player_not_found")
    assert_problem(free(api, "not-a-game", "eve", ada), 404, "game_not_found")
    freed = free(api, game_id, "Eve", ada)  # a handle in any case
    assert freed.status_code == 200, freed.content
    assert freed.json()["reserved"] == ["bob"] and freed.json()["you"] is None
    assert freed["ETag"] == '"1"'
    assert_problem(free(api, game_id, "eve", ada), 404, "reservation_not_found")
    assert join(api, game_id, "Cyd")["seat"] == 0  # the freed seat is anyone's
    assert account_join(api, game_id, bob).json()["seat"] == 1
    assert get_view(api, game_id)["status"] == "setup"


def test_holds_stop_counting_once_the_game_starts(api: APIClient) -> None:
    ada, bob = account("ada"), account("bob")
    game_id = created(api, {"seats": 2}, ada)["id"]
    game = Game.objects.get(pk=game_id)
    core.hold_seats(game, account_ids=[services.find_player("bob").id])
    assert get_view(api, game_id)["reserved"] == ["bob"]
    join(api, game_id, "Cyd")
    assert account_join(api, game_id, bob).status_code == 201
    assert get_view(api, game_id)["reserved"] == []


def test_a_hold_left_when_the_game_started_counts_no_more(api: APIClient) -> None:
    ada = account("ada")
    account("bob")
    game_id = created(api, {"seats": 2}, ada)["id"]
    join(api, game_id, "Cyd")
    join(api, game_id, "Dan")  # started
    core.hold_seats(Game.objects.get(pk=game_id), account_ids=[services.find_player("bob").id])
    assert get_view(api, game_id)["reserved"] == []
    [summary] = api.get(GAMES).json()["results"]
    assert summary["reserved"] == []
    assert_problem(free(api, game_id, "bob", ada), 404, "reservation_not_found")


def test_the_lobby_s_links_cost_no_query_per_game(api: APIClient) -> None:
    ada = account("ada")
    account("bob")

    def lobby_queries() -> int:
        with CaptureQueriesContext(connection) as queries:
            results = api.get(GAMES, **bearer(ada)).json()["results"]
        assert all(game["reserved"] == ["bob"] for game in results)
        # The token's freshness check (at most once a second, whenever it falls) is not the
        # lobby's: the games' queries are counted.
        return sum("accounts_personaltoken" not in q["sql"] for q in queries.captured_queries)

    created(api, {"seats": 2, "reserved": ["bob"], "listed": False}, ada)
    one = lobby_queries()
    for _ in range(4):
        created(api, {"seats": 2, "reserved": ["bob"]}, ada)
    assert lobby_queries() == one
