"""A game called off (`GameCanceled`, status `canceled`) shows as such wherever a status shows:
its view and feed, the lobby's list and its filter, "my games", a player's games, the account
stream's snapshot, its history, an import of that history, and `verify_games`."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from accounts.models import Account
from games import core
from games.models import Game
from tests.api.bots_support import Clock, run_jobs
from tests.api.support import GAMES, bearer, get_view
from tests.play.support import account, answer, challenge

pytestmark = pytest.mark.django_db


@pytest.fixture
def canceled(api: APIClient) -> dict[str, Any]:
    """A listed challenge of ada's, accepted by cyd and declined by bob: its game canceled
    with two accounts seated in it."""
    ada, bob, cyd = account("ada"), account("bob"), account("cyd")
    made = challenge(api, ada, ["bob", "cyd"], seats=3, listed=True)
    answer(api, cyd, made["id"], "accept")
    answer(api, bob, made["id"], "decline", reason="later")
    return {**made, "tokens": {"ada": ada, "bob": bob, "cyd": cyd}}


def test_the_view_and_the_feed_say_canceled(api: APIClient, canceled: dict[str, Any]) -> None:
    view = get_view(api, canceled["game"], canceled["tokens"]["ada"])
    assert view["status"] == "canceled" and view["legal_actions"] == []
    feed = api.get(f"{GAMES}/{canceled['game']}/events").json()
    assert feed["events"][-1]["type"] == "GameCanceled"
    assert feed["events"][-1]["data"] == {"reason": "declined"}


def test_lists_and_their_filters(api: APIClient, canceled: dict[str, Any]) -> None:
    lobby = api.get(GAMES, {"status": "canceled"}).json()["results"]
    assert [(game["id"], game["status"]) for game in lobby] == [(canceled["game"], "canceled")]
    assert api.get(GAMES, {"status": "waiting"}).json()["results"] == []
    mine = api.get(
        "/api/v1/account/games", {"status": "canceled"}, **bearer(canceled["tokens"]["cyd"])
    )
    assert mine.status_code == 200, mine.content
    assert [game["id"] for game in mine.json()["results"]] == [canceled["game"]]
    played = api.get("/api/v1/players/ada/games", {"status": "canceled"}).json()["results"]
    assert [game["status"] for game in played] == ["canceled"]
    assert api.get("/api/v1/account", **bearer(canceled["tokens"]["ada"])).json()["games"] == {
        "played": 0,
        "won": 0,
        "active": 0,
    }


def test_the_account_stream_s_snapshot_leaves_it_out(canceled: dict[str, Any]) -> None:
    ada = Account.objects.get(handle="ada")
    assert core.unfinished_games(ada.id) == []


def test_its_history_imports_as_a_canceled_game_without_tokens(
    api: APIClient, canceled: dict[str, Any]
) -> None:
    history = api.get(f"{GAMES}/{canceled['game']}/history")
    assert history.status_code == 200, history.content
    document = history.json()
    assert document["game"]["status"] == "canceled"
    assert document["events"][-1] == {
        **document["events"][-1],
        "type": "GameCanceled",
        "data": {"reason": "declined"},
    }
    imported = api.post(f"{GAMES}/import", document, format="json")
    assert imported.status_code == 201, imported.content
    body = imported.json()
    assert body["status"] == "canceled" and body["seat_tokens"] == []
    assert Game.objects.get(pk=body["id"]).status == "canceled"
    assert [p["name"] for p in body["players"][:2]] == ["ada", "cyd"]


def test_verify_games_accepts_it_with_its_seats_challenge_letters(
    canceled: dict[str, Any],
) -> None:
    out = StringIO()
    call_command("verify_games", canceled["game"], "--verbosity", "2", stdout=out)
    assert f"ok   {canceled['game']}" in out.getvalue()
    assert "1 games checked, 0 do not replay." in out.getvalue()


@pytest.mark.parametrize("how", ["declined", "canceled", "expired"])
def test_each_way_of_calling_a_challenge_off_imports_as_it_was(
    api: APIClient, how: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ada, bob = account("ada"), account("bob")
    made = challenge(api, ada, ["bob"], seats=3, bots=["greedy"], expires_in=10)
    if how == "declined":
        answer(api, bob, made["id"], "decline")
    elif how == "canceled":
        answer(api, ada, made["id"], "cancel")
    else:
        Clock(monkeypatch).advance(11)
        assert run_jobs() == 1
    original = api.get(f"{GAMES}/{made['game']}/history").json()
    assert original["events"][-1]["data"] == {"reason": how}
    imported = api.post(f"{GAMES}/import", original, format="json").json()
    again = api.get(f"{GAMES}/{imported['id']}/history").json()
    assert played(again) == played(original)  # the accounts' seats become guests'
    assert again["game"]["status"] == "canceled"


def played(history: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """A history's events, their types and data, without the seats' accounts."""
    return [
        (e["type"], {k: v for k, v in e["data"].items() if k != "account"})
        for e in history["events"]
    ]
