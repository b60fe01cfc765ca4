"""The accounts' HTTP API: sign up, the account and its tokens (scopes, revocation, deletion),
"my games", players' public pages, and a game of two accounts and a guest played to its end."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import credentials
from accounts.models import PersonalToken
from accounts.scopes import ALL_SCOPES
from ratings.services import rating_data
from ratings.skill import DEFAULT

from .bots_support import run_jobs, seat_bot
from .support import (
    GAMES,
    act,
    assert_problem,
    bearer,
    create_game,
    engine_actions,
    join,
    send,
)

pytestmark = pytest.mark.django_db

ACCOUNTS = "/api/v1/accounts"
ACCOUNT = "/api/v1/account"
TOKENS = "/api/v1/account/tokens"
MY_GAMES = "/api/v1/account/games"
PLAYERS = "/api/v1/players"
PASSWORD = "a long passphrase of words"
#: A rating before any rated game: OpenSkill's defaults (R14).
UNRATED = rating_data(DEFAULT, 0)


def sign_up(api: APIClient, handle: str, kind: str = "bot", **extra: Any) -> dict[str, Any]:
    body = {"handle": handle, "kind": kind, **({"password": PASSWORD} if kind == "person" else {})}
    response = api.post(ACCOUNTS, body, format="json", **extra)
    assert response.status_code == 201, response.content
    data: dict[str, Any] = response.json()
    return data


def token_with(api: APIClient, token: str, *scopes: str) -> str:
    response = api.post(TOKENS, {"scopes": list(scopes)}, format="json", **bearer(token))
    assert response.status_code == 201, response.content
    return str(response.json()["token"])


def join_as(api: APIClient, game_id: str, token: str) -> int:
    response = api.post(f"{GAMES}/{game_id}/players", format="json", **bearer(token))
    assert response.status_code == 201, response.content
    return int(response.json()["seat"])


# Signing up


def test_a_bot_signs_up_and_its_first_token_holds_every_scope(api: APIClient) -> None:
    response = api.post(ACCOUNTS, {"handle": "Deep-Skyjo", "kind": "bot"}, format="json")
    assert response.status_code == 201, response.content
    assert "no-store" in response["Cache-Control"]
    body = response.json()
    assert set(body) == {"handle", "kind", "created_at", "token", "scopes"}
    assert body["handle"] == "Deep-Skyjo" and body["kind"] == "bot"
    assert body["token"].startswith("skyjo_pat_") and len(body["token"]) == 53
    assert body["scopes"] == list(ALL_SCOPES)
    me = api.get(ACCOUNT, **bearer(body["token"])).json()
    assert me == {
        "handle": "Deep-Skyjo",
        "kind": "bot",
        "created_at": body["created_at"],
        "owner": None,
        "builtin": False,
        "games": {"played": 0, "won": 0, "active": 0},
        "rating": UNRATED,
    }


def test_a_person_needs_a_good_password_and_a_bot_none(api: APIClient) -> None:
    weak = api.post(ACCOUNTS, {"handle": "ada", "kind": "person", "password": "ada"}, format="json")
    assert "password" in assert_problem(weak, 400, "weak_password")["errors"]
    common = {"handle": "ada", "kind": "person", "password": "password123"}
    assert_problem(api.post(ACCOUNTS, common, format="json"), 400, "weak_password")
    none = api.post(ACCOUNTS, {"handle": "ada", "kind": "person"}, format="json")
    assert_problem(none, 400, "invalid_account")
    bot = {"handle": "ada", "kind": "bot", "password": PASSWORD}
    assert_problem(api.post(ACCOUNTS, bot, format="json"), 400, "invalid_account")
    assert sign_up(api, "ada", "person")["kind"] == "person"


@pytest.mark.parametrize(
    "handle", ["ab", "1abc", "_abc", "a b c", "ab$c", "a" * 21, "Ad\u00e9le", "", 12]
)
def test_a_malformed_handle_is_refused(api: APIClient, handle: object) -> None:
    response = api.post(ACCOUNTS, {"handle": handle, "kind": "bot"}, format="json")
    assert "handle" in assert_problem(response, 400, "invalid_request")["errors"]


def test_unknown_fields_and_kinds_are_refused(api: APIClient) -> None:
    extra = api.post(ACCOUNTS, {"handle": "ada", "kind": "bot", "x": 1}, format="json")
    assert "x" in assert_problem(extra, 400, "invalid_request")["errors"]
    kind = api.post(ACCOUNTS, {"handle": "ada", "kind": "robot"}, format="json")
    assert "kind" in assert_problem(kind, 400, "invalid_request")["errors"]


@pytest.mark.parametrize("handle", ["ADA", "ada", "greedy", "Greedy", "admin", "api", "random"])
def test_a_taken_or_reserved_handle_is_refused_whatever_its_case(
    api: APIClient, handle: str
) -> None:
    sign_up(api, "Ada")
    response = api.post(ACCOUNTS, {"handle": handle, "kind": "bot"}, format="json")
    assert assert_problem(response, 409, "handle_taken")["handle"] == handle


def test_a_bot_made_with_a_person_s_token_records_its_owner(api: APIClient) -> None:
    person = sign_up(api, "ada", "person")["token"]
    made = sign_up(api, "ada-bot", **bearer(person))["token"]
    assert api.get(ACCOUNT, **bearer(made)).json()["owner"] == "ada"
    assert api.get(f"{PLAYERS}/ada-bot").json()["owner"] == "ada"
    by_a_bot = sign_up(api, "bot-of-bot", **bearer(made))["token"]
    assert api.get(ACCOUNT, **bearer(by_a_bot)).json()["owner"] is None


def test_sign_ups_are_limited_per_address(api: APIClient, rates: dict[str, str]) -> None:
    rates["account_create"] = "2/hour"
    sign_up(api, "ada")
    sign_up(api, "bob")
    refused = api.post(ACCOUNTS, {"handle": "eve", "kind": "bot"}, format="json")
    assert_problem(refused, 429, "throttled")
    assert int(refused["Retry-After"]) > 0


# Who may call the account's operations

ACCOUNT_OPERATIONS = [
    ("get", ACCOUNT),
    ("delete", ACCOUNT),
    ("get", TOKENS),
    ("post", TOKENS),
    ("delete", f"{TOKENS}/1"),
    ("get", MY_GAMES),
]


@pytest.mark.parametrize(("method", "path"), ACCOUNT_OPERATIONS)
def test_account_operations_need_a_personal_token(api: APIClient, method: str, path: str) -> None:
    call = getattr(api, method)
    refused = call(path, format="json")
    assert_problem(refused, 401, "account_token_required")
    assert refused["WWW-Authenticate"].startswith("Bearer")
    game = create_game(api, 2)["id"]
    seat_token = join(api, game, "Guest")["token"]
    with_seat = call(path, {"scopes": ["play"]}, format="json", **bearer(seat_token))
    assert_problem(with_seat, 401, "account_token_required")
    unknown = call(path, format="json", **bearer("skyjo_pat_" + "x" * 43))
    assert_problem(unknown, 401, "invalid_token")


@pytest.mark.parametrize(
    ("method", "path", "scope"),
    [
        ("get", ACCOUNT, "account:read"),
        ("delete", ACCOUNT, "account:write"),
        ("get", TOKENS, "account:read"),
        ("post", TOKENS, "account:write"),
        ("delete", f"{TOKENS}/1", "account:write"),
        ("get", MY_GAMES, "account:read"),
    ],
)
def test_a_token_without_the_scope_is_forbidden(
    api: APIClient, method: str, path: str, scope: str
) -> None:
    first = sign_up(api, "ada")["token"]
    narrow = token_with(api, first, "chat:write")
    refused = getattr(api, method)(path, {"scopes": ["play"]}, format="json", **bearer(narrow))
    assert assert_problem(refused, 403, "missing_scope")["required_scope"] == scope


def test_my_games_take_either_account_read_or_play(api: APIClient) -> None:
    first = sign_up(api, "ada")["token"]
    for scope in ("account:read", "play"):
        narrow = token_with(api, first, scope)
        assert api.get(MY_GAMES, **bearer(narrow)).status_code == 200


def test_an_account_token_acts_for_its_own_seat_only(api: APIClient) -> None:
    ada, bob, eve = (sign_up(api, handle)["token"] for handle in ("ada", "bob", "eve"))
    game = create_game(api, 2)["id"]
    join_as(api, game, ada)
    join_as(api, game, bob)
    reveal = {"action": "reveal", "column": 0, "row": 0}
    assert_problem(send(api, game, eve, reveal), 401, "invalid_token")
    leave = api.post(f"{GAMES}/{game}/players/0/leave", **bearer(bob))
    assert_problem(leave, 403, "forbidden")
    assert_problem(api.post(f"{GAMES}/{game}/players/0/leave", **bearer(eve)), 401, "invalid_token")


# Tokens


def test_tokens_are_created_with_scopes_and_listed_without_secrets(api: APIClient) -> None:
    first = sign_up(api, "ada")["token"]
    body = {"description": "my bot on the VPS", "scopes": ["play", "account:read"]}
    created = api.post(TOKENS, body, format="json", **bearer(first))
    assert created.status_code == 201 and "no-store" in created["Cache-Control"]
    new = created.json()
    assert set(new) == {"id", "token", "description", "scopes", "created_at"}
    assert new["scopes"] == ["play", "account:read"]
    assert new["description"] == "my bot on the VPS"
    listed = api.get(TOKENS, **bearer(new["token"]))
    assert listed.status_code == 200
    assert first not in listed.content.decode() and new["token"] not in listed.content.decode()
    rows = listed.json()
    assert [row["description"] for row in rows] == ["first token", "my bot on the VPS"]
    assert set(rows[1]) == {"id", "description", "scopes", "created_at", "last_used_at", "prefix"}
    assert rows[1]["prefix"] == new["token"][:14] and rows[0]["prefix"] == first[:14]
    assert "token_hash" not in listed.content.decode()


@pytest.mark.parametrize(
    "body",
    [
        {"scopes": ["fly"]},
        {"scopes": []},
        {"scopes": "play"},
        {"description": "x" * 101, "scopes": ["play"]},
        {"description": "no scopes"},
        {"scopes": ["play"], "extra": True},
    ],
)
def test_a_bad_token_request_is_refused(api: APIClient, body: dict[str, Any]) -> None:
    first = sign_up(api, "ada")["token"]
    refused = api.post(TOKENS, body, format="json", **bearer(first))
    assert_problem(refused, 400, "invalid_request")


def test_a_revoked_token_is_refused_and_cannot_be_revoked_again(api: APIClient) -> None:
    first = sign_up(api, "ada")["token"]
    other = api.post(TOKENS, {"scopes": ["play"]}, format="json", **bearer(first)).json()
    assert api.delete(f"{TOKENS}/{other['id']}", **bearer(first)).status_code == 204
    assert_problem(api.get(MY_GAMES, **bearer(other["token"])), 401, "invalid_token")
    again = api.delete(f"{TOKENS}/{other['id']}", **bearer(first))
    assert_problem(again, 404, "token_not_found")
    bob = sign_up(api, "bob")["token"]
    first_id = api.get(TOKENS, **bearer(first)).json()[0]["id"]
    assert_problem(api.delete(f"{TOKENS}/{first_id}", **bearer(bob)), 404, "token_not_found")
    assert api.get(ACCOUNT, **bearer(first)).status_code == 200  # bob could not revoke it


def test_last_used_at_is_written_at_most_once_a_minute(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = sign_up(api, "ada")["token"]
    start = timezone.now()
    moments = iter([start, start + timedelta(seconds=30), start + timedelta(seconds=61)])

    def used_at(moment: Any) -> Any:
        monkeypatch.setattr(timezone, "now", lambda: moment)
        credentials.REMEMBERED.forget()  # as a second later: looked up again
        assert api.get(ACCOUNT, **bearer(first)).status_code == 200
        return PersonalToken.objects.get().last_used_at

    assert used_at(next(moments)) == start
    assert used_at(next(moments)) == start  # within the minute: not written
    assert used_at(next(moments)) == start + timedelta(seconds=61)
    listed = api.get(TOKENS, **bearer(first)).json()[0]
    assert listed["last_used_at"].startswith(str((start + timedelta(seconds=61)).date()))


# Deleting an account


def test_a_deleted_account_keeps_its_handle_and_loses_its_tokens_and_page(api: APIClient) -> None:
    first = sign_up(api, "ada", "person")["token"]
    second = token_with(api, first, "play")
    game = create_game(api, 2)["id"]
    join_as(api, game, second)
    assert api.delete(ACCOUNT, **bearer(first)).status_code == 204
    for token in (first, second):
        assert_problem(api.get(ACCOUNT, **bearer(token)), 401, "invalid_token")
    assert_problem(api.get(f"{GAMES}/{game}", **bearer(second)), 401, "invalid_token")
    taken = api.post(ACCOUNTS, {"handle": "ADA", "kind": "bot"}, format="json")
    assert_problem(taken, 409, "handle_taken")
    assert_problem(api.get(f"{PLAYERS}/ada"), 404, "player_not_found")
    assert_problem(api.get(f"{PLAYERS}/ada/games"), 404, "player_not_found")
    # The game's log keeps the name the seat played under.
    assert api.get(f"{GAMES}/{game}").json()["players"][0]["name"] == "ada"


# Players' pages and their games


def test_an_unknown_player_is_a_404(api: APIClient) -> None:
    assert_problem(api.get(f"{PLAYERS}/nobody"), 404, "player_not_found")
    assert_problem(api.get(f"{PLAYERS}/nobody/games"), 404, "player_not_found")


def test_a_player_s_page_is_public_and_case_blind(api: APIClient) -> None:
    sign_up(api, "Ada")
    page = api.get(f"{PLAYERS}/ADA")
    assert page.status_code == 200
    body = page.json()
    assert set(body) == {
        "handle",
        "kind",
        "builtin",
        "owner",
        "created_at",
        "games_played",
        "games_won",
        "rating",
    }
    assert body["handle"] == "Ada" and body["builtin"] is False
    assert body["games_played"] == body["games_won"] == 0


def test_a_built_in_bot_has_a_page_that_counts_its_games(api: APIClient) -> None:
    page = api.get(f"{PLAYERS}/greedy").json()
    assert page["builtin"] is True and page["kind"] == "bot" and page["owner"] is None
    assert page["games_played"] == 0
    game = create_game(api, 2, end_score=1)["id"]
    seat_bot(api, game, "greedy")
    seat_bot(api, game, "greedy")
    waiting = create_game(api, 2)["id"]
    seat_bot(api, waiting, "greedy")
    run_jobs()
    assert api.get(f"{GAMES}/{game}").json()["status"] == "finished"
    page = api.get(f"{PLAYERS}/greedy").json()
    assert page["games_played"] == 1 and page["games_won"] == 1  # one game, both its seats
    games = api.get(f"{PLAYERS}/greedy/games").json()
    assert games["count"] == 2 and [g["id"] for g in games["results"]] == [waiting, game]
    assert games["results"][1]["accounts"] == ["greedy", "greedy"]
    assert api.get(f"{PLAYERS}/random").json()["games_played"] == 0


def test_a_player_s_games_are_paged_and_filtered(api: APIClient) -> None:
    ada = sign_up(api, "ada")["token"]
    games = [create_game(api, 2)["id"] for _ in range(3)]
    for game in games:
        join_as(api, game, ada)
    join(api, games[0], "Bob")  # dealt: setup
    first = api.get(f"{PLAYERS}/ada/games", {"limit": 2}).json()
    assert first["count"] == 3 and first["next"] is not None and first["previous"] is None
    assert [g["id"] for g in first["results"]] == [games[2], games[1]]
    rest = api.get(f"{PLAYERS}/ada/games", {"limit": 2, "offset": 2}).json()
    assert [g["id"] for g in rest["results"]] == [games[0]]
    waiting = api.get(f"{PLAYERS}/ada/games", {"status": "waiting"}).json()
    assert waiting["count"] == 2
    active = api.get(f"{PLAYERS}/ada/games", {"status": "active"}).json()
    assert [g["id"] for g in active["results"]] == [games[0]]
    assert active["results"][0]["accounts"] == ["ada", None]
    for bad in ({"status": "over"}, {"limit": 0}, {"offset": -1}, {"status": ""}):
        refused = api.get(f"{PLAYERS}/ada/games", bad)
        assert_problem(refused, 400, "invalid_request")


# My games


def test_my_games_put_the_games_where_it_is_my_turn_first(api: APIClient) -> None:
    ada, bob = sign_up(api, "ada")["token"], sign_up(api, "bob")["token"]
    mine = create_game(api, 2)["id"]  # oldest: setup, ada has reveals left
    theirs = create_game(api, 2)["id"]  # setup, ada has revealed, bob not yet
    waiting = create_game(api, 2)["id"]
    for game in (mine, theirs):
        join_as(api, game, ada)
        join_as(api, game, bob)
    join_as(api, waiting, ada)
    for column in (0, 1):
        reveal = {"action": "reveal", "column": column, "row": 0}
        act(api, mine, bob, reveal)
        act(api, theirs, ada, reveal)
    listed = api.get(MY_GAMES, **bearer(ada))
    assert listed.status_code == 200
    results = listed.json()["results"]
    assert [(g["id"], g["your_turn"]) for g in results] == [
        (mine, True),
        (theirs, False),
        (waiting, False),
    ]
    assert all(g["seat"] == 0 and g["turn_deadline"] is None for g in results)
    assert results[0]["accounts"] == ["ada", "bob"] and results[0]["status"] == "setup"
    bobs = api.get(MY_GAMES, **bearer(bob)).json()["results"]
    assert [(g["id"], g["your_turn"], g["seat"]) for g in bobs] == [
        (theirs, True, 1),
        (mine, False, 1),
    ]
    only_waiting = api.get(MY_GAMES, {"status": "waiting"}, **bearer(ada)).json()
    assert [g["id"] for g in only_waiting["results"]] == [waiting]
    active = api.get(MY_GAMES, {"status": "active", "limit": 1}, **bearer(ada)).json()
    assert active["count"] == 2 and [g["id"] for g in active["results"]] == [mine]
    assert api.get(ACCOUNT, **bearer(ada)).json()["games"] == {"played": 0, "won": 0, "active": 2}
    refused = api.get(MY_GAMES, {"status": "setup"}, **bearer(ada))
    assert_problem(refused, 400, "invalid_request")


def test_a_game_of_two_accounts_and_a_guest_is_played_to_its_end(api: APIClient) -> None:
    ada, bob = sign_up(api, "ada", "person")["token"], sign_up(api, "bob")["token"]
    seed, end_score = 3, 1
    game = create_game(api, 3, seed=seed, end_score=end_score)["id"]
    assert join_as(api, game, ada) == 0
    assert join_as(api, game, bob) == 1
    guest = join(api, game, "Cleo")["token"]
    tokens = [ada, bob, guest]
    for seat, action in engine_actions(3, seed, end_score):
        act(api, game, tokens[seat], action)
    final = api.get(f"{GAMES}/{game}").json()
    assert final["status"] == "finished"
    assert [p["account"] for p in final["players"]] == ["ada", "bob", None]
    winners = set(final["winners"])
    for seat, handle in enumerate(("ada", "bob")):
        me = api.get(ACCOUNT, **bearer(tokens[seat])).json()
        won = int(seat in winners)
        assert me["games"] == {"played": 1, "won": won, "active": 0}
        page = api.get(f"{PLAYERS}/{handle}").json()
        assert (page["games_played"], page["games_won"]) == (1, won)
        entry = api.get(MY_GAMES, **bearer(tokens[seat])).json()["results"][0]
        assert entry["id"] == game and entry["seat"] == seat and entry["your_turn"] is False
        assert entry["status"] == "finished" and entry["winners"] == final["winners"]
    finished = api.get(f"{PLAYERS}/bob/games", {"status": "finished"}).json()
    assert [g["id"] for g in finished["results"]] == [game]
