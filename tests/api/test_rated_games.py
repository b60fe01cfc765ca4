"""Rated games through the HTTP API (R14): `POST /api/v1/games` with `rated`, accounts only
(a guest's join is 409 `account_required`, documented at its problem page), the built-in bots
seated as their accounts, each once, a finished game rated once, and `rated` said truly by
every view and list of the game: its view, the lobby's summaries, an account's games and its
history (whose import is casual)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Game, Seat
from ratings.models import RatedGame, Rating, RatingChange
from tests.api.bots_support import run_jobs, seat_bot
from tests.api.support import GAMES, assert_problem, bearer, create_game, get_view
from tests.play.support import account, play_to_the_end

pytestmark = pytest.mark.django_db


def rated_game(api: APIClient, seats: int = 2, **extra: Any) -> dict[str, Any]:
    """A rated game made through the API (201, one round: end score 1): its body."""
    body = {"seats": seats, "rated": True, "options": {"end_score": 1}, **extra}
    answer = api.post(GAMES, body, format="json")
    assert answer.status_code == 201, answer.content
    data: dict[str, Any] = answer.json()
    return data


def join_as(api: APIClient, game_id: str, token: str) -> Any:
    """An account's join (its personal token): the response."""
    return api.post(f"{GAMES}/{game_id}/players", {}, format="json", **bearer(token))


def test_a_game_is_casual_unless_created_rated(api: APIClient) -> None:
    casual = create_game(api, 2)
    assert casual["rated"] is False and "rated" not in casual["options"]
    rated = rated_game(api)
    assert rated["rated"] is True and rated["options"]["rated"] is True
    assert Game.objects.get(pk=rated["id"]).options["rated"] is True


def test_rated_must_be_a_boolean_and_takes_no_seed(api: APIClient) -> None:
    not_boolean = api.post(GAMES, {"seats": 2, "rated": "yes"}, format="json")
    assert "rated" in assert_problem(not_boolean, 400, "invalid_request")["errors"]
    seeded = api.post(GAMES, {"seats": 2, "rated": True, "seed": 7}, format="json")
    refused = assert_problem(seeded, 400, "invalid_request")
    assert "every card" in refused["errors"]["seed"][0]
    in_options = api.post(GAMES, {"seats": 2, "options": {"rated": True}}, format="json")
    assert "options.rated" in assert_problem(in_options, 400, "invalid_request")["errors"]
    assert not Game.objects.exists()


def test_a_guest_is_refused_with_the_problem_that_says_why(api: APIClient) -> None:
    game = rated_game(api)
    refused = api.post(f"{GAMES}/{game['id']}/players", {"name": "Ada"}, format="json")
    problem = assert_problem(refused, 409, "account_required")
    assert problem["type"] == "/api/v1/problems/account_required"
    assert problem["title"] == "Account required"
    assert "rated" in problem["detail"] and "guest" in problem["detail"]
    page = api.get(problem["type"]).json()
    assert page["status"] == 409 and "personal token" in page["advice"]
    assert get_view(api, game["id"])["open_seats"] == 2  # the game did not change


def test_accounts_and_built_in_bots_sit_each_once(api: APIClient) -> None:
    game = rated_game(api, 4)
    ada = account("ada")
    joined = join_as(api, game["id"], ada)
    assert joined.status_code == 201, joined.content
    assert_problem(join_as(api, game["id"], ada), 409, "already_seated")
    seat_bot(api, game["id"], "greedy")
    again = api.post(f"{GAMES}/{game['id']}/players", {"bot": "greedy"}, format="json")
    assert_problem(again, 409, "already_seated")  # a built-in bot is one account
    seat_bot(api, game["id"], "statistician")
    rows = Seat.objects.filter(game_id=game["id"]).select_related("account").order_by("seat")
    assert [(row.account.handle, row.account.builtin) for row in rows] == [
        ("ada", False),
        ("greedy", True),
        ("statistician", True),
    ]


def test_an_account_and_a_built_in_bot_finish_a_game_rated_once(api: APIClient) -> None:
    ada = account("ada")
    game = rated_game(api)
    assert join_as(api, game["id"], ada).status_code == 201
    seat_bot(api, game["id"], "greedy")
    play_to_the_end(api, game["id"], [ada, None])
    assert get_view(api, game["id"])["status"] == "finished"
    run_jobs()
    changes = RatingChange.objects.filter(game_id=game["id"]).order_by("seat")
    assert [change.account.handle for change in changes] == ["ada", "greedy"]
    assert sorted(change.rank for change in changes) in ([1, 1], [1, 2])
    assert RatedGame.objects.filter(game_id=game["id"]).count() == 1
    assert [Rating.objects.get(account__handle=h).games for h in ("ada", "greedy")] == [1, 1]


def test_every_view_and_list_of_a_rated_game_says_so(api: APIClient) -> None:
    ada = account("ada")
    game = rated_game(api)
    casual = create_game(api, 2)
    assert join_as(api, game["id"], ada).status_code == 201
    seat_bot(api, game["id"], "greedy")
    play_to_the_end(api, game["id"], [ada, None])
    assert get_view(api, game["id"])["rated"] is True
    assert get_view(api, game["id"], ada)["rated"] is True  # the seat's own view
    lobby = {g["id"]: g["rated"] for g in api.get(GAMES, {"stale": "true"}).json()["results"]}
    assert lobby == {game["id"]: True, casual["id"]: False}
    for listed in (
        api.get("/api/v1/account/games", **bearer(ada)),
        api.get("/api/v1/players/ada/games"),
    ):
        assert listed.status_code == 200, listed.content
        [summary] = listed.json()["results"]
        assert summary["id"] == game["id"] and summary["rated"] is True
    history = api.get(f"{GAMES}/{game['id']}/history").json()
    assert history["game"]["options"]["rated"] is True
    assert history["events"][0]["data"]["options"]["rated"] is True
    imported = api.post(f"{GAMES}/import", history, format="json")
    assert imported.status_code == 201, imported.content
    assert imported.json()["rated"] is False  # an import is never rated (R14)
