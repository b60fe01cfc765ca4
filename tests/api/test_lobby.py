"""The lobby: create a game, list games, join one; and reading one game (views, ETags)."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Game, GameEvent, Seat

from .support import (
    GAMES,
    assert_problem,
    bearer,
    create_game,
    finished_game,
    game_url,
    get_view,
    join,
    setup_reveals,
    start_game,
)

pytestmark = pytest.mark.django_db

GAME_FIELDS = {
    "id",
    "created_at",
    "updated_at",
    "seeded",
    "rated",
    "status",
    "version",
    "round",
    "seats",
    "open_seats",
    "options",
    "turn_deadline",
    "you",
    "current_seat",
    "closer_seat",
    "final_turns_left",
    "starting_seat",
    "discard_top",
    "discard_size",
    "deck_size",
    "held_card",
    "players",
    "legal_actions",
    "rounds",
    "winners",
    "last_action",
    "listed",
    "reserved",
    "rematch",
    "rematch_of",
    "ratings",
    "bot_pace_ms",
}


def post_game(client: APIClient, body: Any) -> Any:
    return client.post(GAMES, body, format="json")


# Creating a game


def test_create_game_answers_the_waiting_game(api: APIClient) -> None:
    response = post_game(api, {"seats": 3})
    assert response.status_code == 201
    game = response.json()
    assert set(game) == GAME_FIELDS | {"invite_url"}
    assert game["invite_url"] == f"http://testserver/games/{game['id']}"
    assert game["listed"] is True and game["reserved"] == []
    assert game["rematch"] is None and game["rematch_of"] is None
    assert game["ratings"] is None  # a casual game
    assert response["Location"] == f"/api/v1/games/{game['id']}"
    assert response["ETag"] == '"1"'
    assert game["status"] == "waiting"
    assert game["version"] == 1 and game["round"] == 0
    assert game["seats"] == 3 and game["open_seats"] == 3
    assert game["options"] == {
        "end_score": 100,
        "closer_penalty": True,
        "turn_seconds": None,
        "max_timeouts": 3,
    }
    assert game["turn_deadline"] is None
    assert game["you"] is None and game["current_seat"] is None and game["closer_seat"] is None
    assert game["held_card"] is None and game["discard_top"] is None
    assert game["legal_actions"] == [] and game["rounds"] == [] and game["winners"] is None
    assert [(p["seat"], p["name"], p["total"], p["grid"]) for p in game["players"]] == [
        (seat, None, 0, []) for seat in range(3)
    ]
    stored = Game.objects.get(pk=game["id"])
    assert stored.status == "waiting" and stored.version == 1
    assert list(GameEvent.objects.filter(game=stored).values_list("sequence", "type")) == [
        (1, "GameCreated")
    ]


def test_create_game_with_options_and_seed(api: APIClient) -> None:
    response = post_game(
        api, {"seats": 8, "options": {"end_score": 45, "closer_penalty": False}, "seed": 0}
    )
    assert response.status_code == 201
    game = response.json()
    assert game["options"] == {
        "end_score": 45,
        "closer_penalty": False,
        "turn_seconds": None,
        "max_timeouts": 3,
    }
    assert "seed" not in game  # the seed would reveal every card
    assert Game.objects.get(pk=game["id"]).seed == 0
    partial = post_game(api, {"seats": 2, "options": {"end_score": 7}}).json()
    assert partial["options"] == {
        "end_score": 7,
        "closer_penalty": True,
        "turn_seconds": None,
        "max_timeouts": 3,
    }


def test_games_without_a_seed_get_different_secret_seeds(api: APIClient) -> None:
    first = create_game(api, 2, seed=None)
    second = create_game(api, 2, seed=None)
    assert Game.objects.get(pk=first["id"]).seed != Game.objects.get(pk=second["id"]).seed


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "seats"),
        ({"seats": 1}, "seats"),
        ({"seats": 9}, "seats"),
        ({"seats": 0}, "seats"),
        ({"seats": -2}, "seats"),
        ({"seats": "2"}, "seats"),
        ({"seats": 2.0}, "seats"),
        ({"seats": True}, "seats"),
        ({"seats": None}, "seats"),
        ({"seats": [2]}, "seats"),
        ({"seats": 10**40}, "seats"),
        ({"seats": 2, "players": 2}, "players"),
        ({"seats": 2, "options": None}, "options"),
        ({"seats": 2, "options": []}, "options"),
        ({"seats": 2, "options": {"end_score": 0}}, "options.end_score"),
        ({"seats": 2, "options": {"end_score": -5}}, "options.end_score"),
        ({"seats": 2, "options": {"end_score": "100"}}, "options.end_score"),
        ({"seats": 2, "options": {"end_score": 99.5}}, "options.end_score"),
        ({"seats": 2, "options": {"end_score": True}}, "options.end_score"),
        ({"seats": 2, "options": {"end_score": 10**12}}, "options.end_score"),
        ({"seats": 2, "options": {"closer_penalty": "yes"}}, "options.closer_penalty"),
        ({"seats": 2, "options": {"closer_penalty": 1}}, "options.closer_penalty"),
        ({"seats": 2, "options": {"closer_penalty": None}}, "options.closer_penalty"),
        ({"seats": 2, "options": {"doubling": True}}, "options.doubling"),
        ({"seats": 2, "seed": -1}, "seed"),
        ({"seats": 2, "seed": 2**63}, "seed"),
        ({"seats": 2, "seed": "12"}, "seed"),
        ({"seats": 2, "seed": 1.5}, "seed"),
        ({"seats": 2, "seed": False}, "seed"),
    ],
)
def test_create_game_refuses_invalid_input(api: APIClient, body: Any, field: str) -> None:
    problem = assert_problem(post_game(api, body), 400, "invalid_request")
    assert field in problem["errors"], problem
    assert Game.objects.count() == 0


@pytest.mark.parametrize("body", [[], [{"seats": 2}], "seats", 2, None])
def test_create_game_refuses_a_body_that_is_not_an_object(api: APIClient, body: Any) -> None:
    response = api.post(GAMES, body, format="json")
    assert_problem(response, 400, "invalid_request")
    assert Game.objects.count() == 0


# Listing games


def test_list_games_is_paginated_newest_first(api: APIClient) -> None:
    ids = [create_game(api, 2)["id"] for _ in range(3)]
    response = api.get(GAMES)
    assert response.status_code == 200
    page = response.json()
    assert set(page) == {"count", "next", "previous", "results"}
    assert page["count"] == 3 and page["next"] is None and page["previous"] is None
    assert [game["id"] for game in page["results"]] == ids[::-1]

    first = api.get(GAMES, {"limit": 2}).json()
    assert [game["id"] for game in first["results"]] == ids[:0:-1]
    assert first["count"] == 3 and first["previous"] is None
    assert "offset=2" in first["next"]
    second = api.get(first["next"]).json()
    assert [game["id"] for game in second["results"]] == ids[:1]
    assert second["next"] is None and second["previous"] is not None


def test_list_games_summaries(api: APIClient) -> None:
    game = create_game(api, 3, end_score=50)
    join(api, game["id"], "Ada")
    join(api, game["id"], "Grace")
    [summary] = api.get(GAMES).json()["results"]
    assert summary == {
        "id": game["id"],
        "created_at": game["created_at"],
        "updated_at": get_view(api, game["id"])["updated_at"],
        "status": "waiting",
        "version": 3,
        "round": 0,
        "seats": 3,
        "open_seats": 1,
        "options": {
            "end_score": 50,
            "closer_penalty": True,
            "turn_seconds": None,
            "max_timeouts": 3,
        },
        "players": ["Ada", "Grace"],
        "bots": [None, None],
        "accounts": [None, None],  # guests' seats
        "totals": [0, 0, 0],
        "winners": None,
        "seeded": True,  # create_game sends a seed
        "rated": False,
        "listed": True,
        "reserved": [],
        "rematch": None,
        "rematch_of": None,
        "duplicate_set": None,  # a game of no set of the bot ladder
    }
    assert summary["updated_at"] > summary["created_at"]


def test_a_finished_game_summary_has_its_totals_and_winners(api: APIClient) -> None:
    game_id, _ = finished_game(api, 3)
    final = get_view(api, game_id)
    [summary] = api.get(GAMES).json()["results"]
    assert summary["totals"] == [player["total"] for player in final["players"]]
    assert summary["winners"] == final["winners"] and summary["winners"]
    assert summary["updated_at"] == final["updated_at"]
    assert summary["status"] == "finished" and summary["version"] == final["version"]


def test_list_games_filters_by_status(api: APIClient) -> None:
    waiting = create_game(api, 2)["id"]
    setup, _ = start_game(api, 2)
    playing, tokens = start_game(api, 2)
    setup_reveals(api, playing, tokens)
    finished, _ = finished_game(api)

    def listed(status: str) -> list[str]:
        response = api.get(GAMES, {"status": status})
        assert response.status_code == 200
        return [game["id"] for game in response.json()["results"]]

    assert listed("waiting") == [waiting]
    assert listed("setup") == [setup]
    assert listed("playing") == [playing]
    assert listed("finished") == [finished]
    assert api.get(GAMES).json()["count"] == 4


@pytest.mark.parametrize("status", ["bogus", "WAITING", "", "round_ended"])
def test_list_games_refuses_an_unknown_status(api: APIClient, status: str) -> None:
    problem = assert_problem(api.get(GAMES, {"status": status}), 400, "invalid_request")
    assert "status" in problem["errors"]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"limit": "abc"}, "limit"),
        ({"limit": "null"}, "limit"),
        ({"limit": "-1"}, "limit"),
        ({"limit": "0"}, "limit"),
        ({"limit": "101"}, "limit"),
        ({"limit": "100000"}, "limit"),
        ({"limit": ""}, "limit"),
        ({"offset": "-5"}, "offset"),
        ({"offset": "x"}, "offset"),
        ({"offset": "null"}, "offset"),
        ({"offset": "abc"}, "offset"),
        ({"offset": "-1"}, "offset"),
        ({"offset": str(10**30)}, "offset"),
        ({"limit": "5", "offset": "1.5"}, "offset"),
        ({"seats": "1"}, "seats"),
        ({"seats": "9"}, "seats"),
        ({"seats": "two"}, "seats"),
        ({"open_seats": "0"}, "open_seats"),
        ({"open_seats": "-1"}, "open_seats"),
        ({"open_seats": "null"}, "open_seats"),
        ({"ordering": "version"}, "ordering"),
        ({"ordering": ""}, "ordering"),
        ({"ordering": "-id"}, "ordering"),
        ({"seeded": "1"}, "seeded"),
        ({"seeded": "yes"}, "seeded"),
        ({"seeded": "True"}, "seeded"),
        ({"seeded": ""}, "seeded"),
        ({"seeded": "null"}, "seeded"),
    ],
)
def test_list_games_refuses_bad_filters_order_and_paging(
    api: APIClient, query: dict[str, str], field: str
) -> None:
    create_game(api, 2)
    problem = assert_problem(api.get(GAMES, query), 400, "invalid_request")
    assert list(problem["errors"]) == [field]


@pytest.mark.parametrize("value", ["abc", "null", "-1"])
def test_bad_paging_is_refused_alike_by_the_lobby_and_the_event_feed(
    api: APIClient, value: str
) -> None:
    """The values the probe sent (issue 12): `/events` refused them, `GET /games` ignored
    them; both answer the same 400 now."""
    game_id = create_game(api, 2)["id"]
    lobby = assert_problem(api.get(GAMES, {"limit": value}), 400, "invalid_request")
    feed = assert_problem(
        api.get(f"{game_url(game_id)}/events", {"limit": value}), 400, "invalid_request"
    )
    assert list(lobby["errors"]) == list(feed["errors"]) == ["limit"]


def test_list_games_pages_up_to_100(api: APIClient) -> None:
    create_game(api, 2)
    page = api.get(GAMES, {"limit": "100", "offset": "0"}).json()
    assert page["count"] == 1 and len(page["results"]) == 1
    assert api.get(GAMES, {"offset": "1"}).json()["results"] == []


def test_list_games_filters_by_seats_and_open_seats(api: APIClient) -> None:
    two = create_game(api, 2)["id"]
    three = create_game(api, 3)["id"]
    join(api, three, "Ada")  # 2 open seats of 3
    full, _ = start_game(api, 2)
    four = create_game(api, 4)["id"]
    join(api, four, "Ada")
    join(api, four, "Bob")  # 2 open seats of 4

    def listed(**query: Any) -> set[str]:
        response = api.get(GAMES, query)
        assert response.status_code == 200
        return {game["id"] for game in response.json()["results"]}

    assert listed(seats=2) == {two, full}
    assert listed(seats=3) == {three}
    assert listed(open_seats=1) == {two, three, four}
    assert listed(open_seats=2) == {two, three, four}
    assert listed(open_seats=3) == set()
    assert listed(seats=2, open_seats=1) == {two}
    assert listed(status="setup", seats=2) == {full}


def test_list_games_orders_by_creation_or_last_event(api: APIClient) -> None:
    first, second, third = (create_game(api, 2)["id"] for _ in range(3))
    join(api, first, "Ada")  # the first created is now the last updated

    def ids(ordering: str | None) -> list[str]:
        query = {} if ordering is None else {"ordering": ordering}
        return [game["id"] for game in api.get(GAMES, query).json()["results"]]

    assert ids(None) == ids("-created_at") == [third, second, first]
    assert ids("created_at") == [first, second, third]
    assert ids("-updated_at") == [first, third, second]
    assert ids("updated_at") == [second, third, first]
    page = api.get(GAMES, {"ordering": "-updated_at", "limit": 1}).json()
    assert "ordering=-updated_at" in page["next"] and "offset=1" in page["next"]
    assert [game["id"] for game in api.get(page["next"]).json()["results"]] == [third]


# Joining a game


def test_join_answers_the_seat_its_token_once_and_the_game(api: APIClient) -> None:
    game = create_game(api, 3)
    response = api.post(f"{GAMES}/{game['id']}/players", {"name": "Ada"}, format="json")
    assert response.status_code == 201
    assert set(response["Cache-Control"].split(", ")) == {"no-store", "private"}
    body = response.json()
    assert set(body) == {"seat", "name", "token", "game"}
    assert body["seat"] == 0 and body["name"] == "Ada"
    assert body["game"]["you"] == 0 and body["game"]["id"] == game["id"]
    assert body["game"]["players"][0]["name"] == "Ada"
    assert body["game"]["open_seats"] == 2 and body["game"]["status"] == "waiting"
    assert response["ETag"] == f'"{body["game"]["version"]}"'
    # Stored only as a hash: the token itself is nowhere in the database.
    token = body["token"]
    assert len(token) >= 32
    seat = Seat.objects.get(game_id=game["id"], seat=0)
    assert seat.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert token not in str(list(Seat.objects.values()))
    assert token not in str(list(GameEvent.objects.values()))
    # The next players take the next seats, each with its own token.
    second = join(api, game["id"], "Grace")
    assert second["seat"] == 1 and second["token"] != token


def test_taking_the_last_seat_deals_the_first_round(api: APIClient) -> None:
    game = create_game(api, 2)
    join(api, game["id"], "Ada")
    last = join(api, game["id"], "Grace")["game"]
    assert last["status"] == "setup" and last["round"] == 1
    assert last["open_seats"] == 0 and last["current_seat"] is None
    assert last["deck_size"] == 150 - 2 * 12 - 1 and last["discard_size"] == 1
    assert isinstance(last["discard_top"], int)
    for player in last["players"]:
        assert len(player["grid"]) == 4 and all(len(column) == 3 for column in player["grid"])
        assert all(
            cell == {"state": "face_down", "value": None}
            for column in player["grid"]
            for cell in column
        )
    # Setup: each seat may reveal any of its 12 cards (R4.3).
    assert len(last["legal_actions"]) == 12
    assert {a["action"] for a in last["legal_actions"]} == {"reveal"}
    stored = Game.objects.get(pk=game["id"])
    assert stored.status == "setup" and stored.round == 1 and stored.players_joined == 2


def test_joining_a_full_game_is_refused(api: APIClient) -> None:
    game_id, tokens = start_game(api, 2)
    before = Game.objects.get(pk=game_id).version
    assert_problem(
        api.post(f"{GAMES}/{game_id}/players", {"name": "Late"}, format="json"), 409, "game_full"
    )
    setup_reveals(api, game_id, tokens)  # now playing
    assert_problem(
        api.post(f"{GAMES}/{game_id}/players", {"name": "Late"}, format="json"), 409, "game_full"
    )
    assert Seat.objects.filter(game_id=game_id).count() == 2
    assert Game.objects.get(pk=game_id).version == before + 5  # 4 reveals, PlayStarted


def test_joining_a_finished_game_is_refused(api: APIClient) -> None:
    game_id, _ = finished_game(api)
    response = api.post(f"{GAMES}/{game_id}/players", {"name": "Late"}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] in {"game_full", "game_finished"}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "name"),
        ({"name": ""}, "name"),
        ({"name": "   "}, "name"),
        ({"name": None}, "name"),
        ({"name": 7}, "name"),
        ({"name": ["Ada"]}, "name"),
        ({"name": "x" * 41}, "name"),
        ({"name": "Ada\x00"}, "name"),
        ({"name": "A\nda"}, "name"),
        ({"name": "Ada\u200b"}, "name"),
        # NFC turns U+FB2C into 3 code points: 40 of them are 120 characters.
        ({"name": "\ufb2c" * 40}, "name"),
        ({"name": "Ada", "seat": 3}, "seat"),
    ],
)
def test_join_refuses_invalid_names(api: APIClient, body: Any, field: str) -> None:
    game = create_game(api, 2)
    response = api.post(f"{GAMES}/{game['id']}/players", body, format="json")
    problem = assert_problem(response, 400, "invalid_request")
    assert field in problem["errors"]
    assert Seat.objects.count() == 0


def test_join_keeps_names_normalized(api: APIClient) -> None:
    game = create_game(api, 2)
    assert join(api, game["id"], "  Zoe\u0301  ")["name"] == "Zo\u00e9"
    assert join(api, game["id"], "x" * 40)["name"] == "x" * 40


@pytest.mark.parametrize(
    "game_id", ["00000000-0000-0000-0000-000000000000", "not-a-uuid", "1", "%20"]
)
def test_join_an_unknown_game(api: APIClient, game_id: str) -> None:
    response = api.post(f"{GAMES}/{game_id}/players", {"name": "Ada"}, format="json")
    assert_problem(response, 404, "game_not_found")


# Reading one game


def test_spectator_and_seat_views(api: APIClient) -> None:
    game_id, tokens = start_game(api, 3)
    spectator = get_view(api, game_id)
    assert spectator["you"] is None and spectator["legal_actions"] == []
    for seat, token in enumerate(tokens):
        seen = get_view(api, game_id, token)
        assert seen["you"] == seat
        assert len(seen["legal_actions"]) == 12
        assert seen["players"] == spectator["players"]


def test_get_game_etag_and_conditional_requests(api: APIClient) -> None:
    game_id, tokens = start_game(api, 2)
    response = api.get(game_url(game_id))
    assert response["ETag"] == '"4"'
    assert "Authorization" in response["Vary"]
    for tag in ('"4"', 'W/"4"', '"1", "4"', "*"):
        cached = api.get(game_url(game_id), HTTP_IF_NONE_MATCH=tag)
        assert cached.status_code == 304, tag
        assert cached["ETag"] == '"4"'
        assert not cached.content
    assert api.get(game_url(game_id), HTTP_IF_NONE_MATCH='"3"').status_code == 200
    assert api.get(game_url(game_id), HTTP_IF_NONE_MATCH="garbage").status_code == 200
    # The seat's own view is conditional too; it changes when the game moves on.
    seat = api.get(game_url(game_id), HTTP_IF_NONE_MATCH='"4"', **bearer(tokens[0]))
    assert seat.status_code == 304
    setup_reveals(api, game_id, tokens[:1])
    moved = api.get(game_url(game_id), HTTP_IF_NONE_MATCH='"4"', **bearer(tokens[0]))
    assert moved.status_code == 200 and moved["ETag"] == '"6"'


def test_get_game_with_a_token_of_another_game(api: APIClient) -> None:
    game_id, _ = start_game(api, 2)
    _, other_tokens = start_game(api, 2)
    response = api.get(game_url(game_id), **bearer(other_tokens[0]))
    assert_problem(response, 401, "invalid_token")
    assert response["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize(
    "authorization",
    [
        "Bearer",
        "Bearer ",
        "Bearer not-a-real-token",
        "Basic dXNlcjpwYXNz",
        "Token abc",
        "Bearer a b",
        "Bearer " + "x" * 500,
        "Bearer caf\u00e9",
    ],
)
def test_get_game_with_a_bad_authorization_header(api: APIClient, authorization: str) -> None:
    game_id, _ = start_game(api, 2)
    response = api.get(game_url(game_id), HTTP_AUTHORIZATION=authorization)
    assert_problem(response, 401, "invalid_token")
    assert response["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize(
    "game_id", ["00000000-0000-0000-0000-000000000000", "nope", "12345", "%00", "a" * 300]
)
def test_get_an_unknown_game(api: APIClient, game_id: str) -> None:
    assert_problem(api.get(game_url(game_id)), 404, "game_not_found")


def test_unknown_paths_and_methods_answer_problems(api: APIClient) -> None:
    game = create_game(api, 2)
    assert_problem(api.get("/api/v1/nothing-here"), 404, "not_found")
    assert_problem(api.get(f"{GAMES}/{game['id']}/actions/fly"), 404, "not_found")
    assert_problem(api.delete(game_url(game["id"])), 405, "method_not_allowed")
    assert_problem(api.put(GAMES, {}, format="json"), 405, "method_not_allowed")
    assert_problem(api.get(f"{GAMES}/{game['id']}/actions/draw"), 405, "method_not_allowed")


@pytest.mark.parametrize("value", ["1.0", "2.000", " 1 ", "\uff11", "1e3", "+1", "0x10"])
@pytest.mark.parametrize("name", ["limit", "offset", "seats", "open_seats"])
def test_query_integers_are_ascii_digits_only(api: APIClient, name: str, value: str) -> None:
    """What the schema's `integer` says: no decimals, spaces, signs or other scripts' digits."""
    problem = assert_problem(api.get(GAMES, {name: value}), 400, "invalid_request")
    assert name in problem["errors"]


def _unmoved_for(seconds: int, *game_ids: str) -> None:
    """As if these games' last event were `seconds` old."""
    moment = timezone.now() - timedelta(seconds=seconds)
    Game.objects.filter(pk__in=game_ids).update(updated_at=moment)


def _listed(api: APIClient, **query: Any) -> set[str]:
    response = api.get(GAMES, {"limit": 100, **query})
    assert response.status_code == 200, response.content
    return {game["id"] for game in response.json()["results"]}


def test_the_lobby_leaves_out_games_no_one_moves(api: APIClient) -> None:
    """A seat taken by a client that never came back (a join whose answer was lost) kept a
    game without a clock in the lobby for ever: unfinished games not moved for
    LOBBY_STALE_AFTER_SECONDS are left out, unless `stale=true`; finished ones stay."""
    idle_waiting, waiting = create_game(api, 3)["id"], create_game(api, 3)["id"]
    idle_started, _ = start_game(api)
    finished, _ = finished_game(api)
    _unmoved_for(2 * 3600, idle_waiting, idle_started, finished)
    assert _listed(api) == {waiting, finished}
    assert _listed(api, stale="false") == {waiting, finished}
    assert _listed(api, stale="true") == {idle_waiting, waiting, idle_started, finished}
    assert _listed(api, status="waiting") == {waiting}
    assert _listed(api, status="waiting", stale="true") == {idle_waiting, waiting}
    refused = api.get(GAMES, {"stale": "yes"})
    assert "stale" in assert_problem(refused, 400, "invalid_request")["errors"]


def test_how_long_a_game_may_rest_is_a_setting(api: APIClient, settings: Any) -> None:
    game_id = create_game(api)["id"]
    _unmoved_for(2 * 3600, game_id)
    settings.LOBBY_STALE_AFTER_SECONDS = 3 * 3600
    assert _listed(api) == {game_id}
    settings.LOBBY_STALE_AFTER_SECONDS = 3600
    assert _listed(api) == set()
    join(api, game_id, "Ada")  # a move: the game is fresh again
    assert _listed(api) == {game_id}
