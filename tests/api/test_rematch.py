"""`POST /games/{id}/rematch`: one rematch per finished game, whoever asks first (201, then
200 for everyone), its people's seats kept for them, its bots reseated, its accounts told; and
every refusal, each with its code."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from accounts.models import InboxEntry
from engine.options import Options
from games import core
from games.models import Game, Seat
from tests.play.support import account, finished, play_to_the_end, rematch, seated_game

from .bots_support import Clock, leave
from .support import (
    GAMES,
    assert_problem,
    bearer,
    create_game,
    finished_game,
    get_view,
    join,
    start_game,
)

pytestmark = pytest.mark.django_db


def answered(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Cache-Control"] == "no-store, private"
    data: dict[str, Any] = response.json()
    return data


def test_the_first_call_creates_the_rematch_and_every_seat_gets_the_same(api: APIClient) -> None:
    old, (ada, bob) = finished_game(api, 2)
    first = answered(rematch(api, old, ada), 201)
    assert set(first) == {"game", "seat", "token"} and first["seat"] == 0
    second = answered(rematch(api, old, bob), 200)
    assert second["game"] == first["game"] and second["seat"] == 1
    assert second["token"] not in (first["token"], bob)
    assert Game.objects.filter(rematch_of_id=old).count() == 1
    again = answered(rematch(api, old, ada), 200)  # seated already: its seat, a new token
    assert again == {"game": first["game"], "seat": 0, "token": again["token"]}
    new = get_view(api, first["game"], again["token"])
    assert new["you"] == 0 and new["status"] == "setup"  # both seated: dealt
    assert [p["name"] for p in new["players"]] == ["Player 0", "Player 1"]
    assert get_view(api, first["game"], second["token"])["you"] == 1


def test_a_guest_s_new_token_acts_and_the_old_one_does_not(api: APIClient) -> None:
    old, (ada, _) = finished_game(api, 2)
    new = answered(rematch(api, old, ada), 201)
    assert_problem(api.get(f"{GAMES}/{new['game']}", **bearer(ada)), 401, "invalid_token")
    assert get_view(api, new["game"], new["token"])["you"] == new["seat"]
    assert get_view(api, old, ada)["you"] == 0  # the old game still reads with the old token


def test_a_guest_asking_again_without_a_key_gets_its_seat_with_a_token_that_acts(
    api: APIClient,
) -> None:
    """A guest whose answer was lost asks again with its old token, and no `Idempotency-Key`:
    its seat in the rematch gets a new token, and the one answered before stops working."""
    old, (ada, _, _) = finished_game(api, 3)
    first = answered(rematch(api, old, ada), 201)
    second = answered(rematch(api, old, ada), 200)
    third = answered(rematch(api, old, ada), 200)
    assert first["seat"] == second["seat"] == third["seat"] == 0
    assert len({first["token"], second["token"], third["token"]}) == 3
    for spent in (first["token"], second["token"]):
        assert_problem(api.get(f"{GAMES}/{first['game']}", **bearer(spent)), 401, "invalid_token")
    assert get_view(api, first["game"], third["token"])["you"] == 0
    assert Seat.objects.filter(game_id=first["game"]).count() == 1


def test_a_guest_who_left_the_rematch_is_never_given_another_s_seat(api: APIClient) -> None:
    """Ada takes her seat in the waiting rematch, leaves it, and Eve takes it (Bob's and
    Cyd's are kept for them): asking again, Ada is seated anew or refused, and Eve's token
    still acts."""
    old, (ada, _, _) = finished_game(api, 3)
    first = answered(rematch(api, old, ada), 201)
    assert leave(api, first["game"], first["seat"], first["token"]).status_code == 200
    eve = join(api, first["game"], "Eve")
    assert eve["seat"] == first["seat"]
    assert_problem(rematch(api, old, ada), 409, "seat_reserved")  # the open seats are kept
    assert get_view(api, first["game"], eve["token"])["you"] == eve["seat"]


def test_the_rematch_is_the_old_game_again_with_a_new_secret_seed(api: APIClient) -> None:
    old, (ada, _) = finished_game(api, 2, end_score=1)
    private = Game.objects.get(pk=old)
    Game.objects.filter(pk=old).update(listed=False)
    new_id = answered(rematch(api, old, ada), 201)["game"]
    new = Game.objects.get(pk=new_id)
    assert new.rematch_of_id == private.id and new.listed is False
    assert new.seed != private.seed and new.seeded is False and private.seeded is True
    assert Options.from_data(new.options) == Options.from_data(private.options)
    assert new.seats == 2 and new.created_by is None
    view = get_view(api, new_id)
    assert view["rematch_of"] == old and view["rematch"] is None and view["listed"] is False
    assert view["options"]["end_score"] == 1
    finished_view = get_view(api, old)
    assert finished_view["rematch"] == {"game": new_id} and finished_view["rematch_of"] is None


def test_the_lists_show_the_links(api: APIClient) -> None:
    old, (ada, _) = finished_game(api, 2)
    new_id = answered(rematch(api, old, ada), 201)["game"]
    summaries = {game["id"]: game for game in api.get(GAMES).json()["results"]}
    assert summaries[old]["rematch"] == {"game": new_id} and summaries[old]["rematch_of"] is None
    assert summaries[new_id]["rematch_of"] == old and summaries[new_id]["rematch"] is None


def test_bots_are_reseated_with_their_strategies(api: APIClient) -> None:
    old, (ada, _, _) = finished(api, ["Ada", "bot:greedy", "bot:random"])
    new = answered(rematch(api, old, ada), 201)
    view = get_view(api, new["game"], new["token"])
    assert [(p["name"], p["bot"]) for p in view["players"]] == [
        ("Greedy bot", "greedy"),
        ("Random bot", "random"),
        ("Ada", None),
    ]
    assert view["you"] == 2 and view["status"] == "setup"


def test_a_seat_whose_player_left_is_no_bot_of_the_rematch(api: APIClient) -> None:
    game_id, credentials = seated_game(api, ["Ada", "Bob", "bot:greedy"])
    bob = credentials[1]
    assert bob is not None
    assert leave(api, game_id, 1, bob).status_code == 200  # a bot plays Bob's seat now
    play_to_the_end(api, game_id, [credentials[0], None, None])
    assert_problem(rematch(api, game_id, bob), 401, "invalid_token")  # its token is gone
    ada = credentials[0]
    new = answered(rematch(api, game_id, ada), 201)
    view = get_view(api, new["game"])
    assert [p["bot"] for p in view["players"]] == ["greedy", None, None]
    assert view["open_seats"] == 1 and view["reserved"] == []  # Bob's seat: anyone's
    assert join(api, new["game"], "Cyd")["seat"] == 2


def test_accounts_are_seated_by_their_account_and_told(api: APIClient) -> None:
    ada, bob = account("ada"), account("bob")
    old, _ = finished(api, [ada, bob, "Cyd", "bot:greedy"])
    before = set(InboxEntry.objects.values_list("id", flat=True))
    cyd = Seat.objects.get(game_id=old, seat=2)
    assert cyd.account is None
    first = answered(rematch(api, old, bob), 201)
    assert first == {"game": first["game"], "seat": 1}  # no token: bob's own tokens act
    new_id = first["game"]
    letters = InboxEntry.objects.exclude(id__in=before).order_by("id")
    assert [(e.account.handle, e.type, e.payload) for e in letters] == [
        ("ada", "rematch_offered", {"game": old, "next_game": new_id})
    ]  # not bob (the caller), not the guest, not the built-in bot
    assert get_view(api, new_id, bob)["you"] == 1
    assert get_view(api, new_id)["reserved"] == ["ada"]
    assert answered(rematch(api, old, bob), 200) == {"game": new_id, "seat": 1}
    assert answered(rematch(api, old, ada), 200) == {"game": new_id, "seat": 2}
    assert InboxEntry.objects.exclude(id__in=before).count() == 1  # told once
    assert core.inbox_mismatch(Game.objects.get(pk=old)) is None  # verify_games: still whole
    events = api.get("/api/v1/account/events", **bearer(ada)).json()["entries"]
    assert events[-1]["type"] == "rematch_offered" and events[-1]["next_game"] == new_id


def test_a_rematch_can_be_rematched(api: APIClient) -> None:
    old, (ada, bob) = finished_game(api, 2)
    first = answered(rematch(api, old, ada), 201)
    second = answered(rematch(api, old, bob), 200)
    tokens = [first["token"], second["token"]]
    play_to_the_end(api, first["game"], tokens)
    third = answered(rematch(api, first["game"], tokens[1]), 201)
    assert third["game"] not in (old, first["game"])
    chain = [third["game"]]
    while (back := get_view(api, chain[-1])["rematch_of"]) is not None:
        chain.append(back)
    assert chain == [third["game"], first["game"], old]
    assert get_view(api, first["game"])["rematch"] == {"game": third["game"]}


@override_settings(REMATCH_HOLD_SECONDS=60)
def test_the_seats_open_to_anyone_once_their_hold_expires(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock(monkeypatch)
    old, (ada, bob) = finished_game(api, 2)
    new = answered(rematch(api, old, ada), 201)["game"]
    stranger = api.post(f"{GAMES}/{new}/players", {"name": "Eve"}, format="json")
    assert_problem(stranger, 409, "seat_reserved")
    clock.advance(59)
    assert_problem(
        api.post(f"{GAMES}/{new}/players", {"name": "Eve"}, format="json"), 409, "seat_reserved"
    )
    clock.advance(2)
    assert join(api, new, "Eve")["seat"] == 1
    assert_problem(rematch(api, old, bob), 409, "game_full")  # Bob came too late


@override_settings(REMATCH_HOLD_SECONDS=60)
def test_a_late_player_takes_an_open_seat_if_there_is_one(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock(monkeypatch)
    old, (ada, bob, cyd) = finished_game(api, 3)
    new = answered(rematch(api, old, ada), 201)["game"]
    clock.advance(61)
    join(api, new, "Eve")  # takes an expired hold's seat: one left
    late = answered(rematch(api, old, cyd), 200)
    assert late["game"] == new and late["seat"] == 2 and "token" in late
    assert_problem(rematch(api, old, bob), 409, "game_full")


def test_the_refusals(api: APIClient) -> None:
    unfinished, (ada, _) = start_game(api, 2)
    assert_problem(rematch(api, unfinished, ada), 409, "game_not_finished")
    old, (ada, _) = finished_game(api, 2)
    assert_problem(rematch(api, old, None), 401, "invalid_token")  # a spectator
    assert_problem(rematch(api, old, "not-a-token"), 401, "invalid_token")
    assert_problem(rematch(api, old, account("eve")), 403, "not_a_player")
    assert_problem(rematch(api, "00000000-0000-0000-0000-000000000000", ada), 404, "game_not_found")
    _, (token_of_another_game, _) = finished_game(api, 2, seed=4)
    assert_problem(rematch(api, old, token_of_another_game), 401, "invalid_token")
    body = api.post(f"{GAMES}/{old}/rematch", {"seats": 2}, format="json", **bearer(ada))
    assert_problem(body, 400, "invalid_request")
    assert not Game.objects.filter(rematch_of_id__isnull=False).exists()  # nothing was made


def test_a_canceled_game_has_no_rematch(api: APIClient) -> None:
    game_id = create_game(api, 2)["id"]
    ada = join(api, game_id, "Ada")["token"]
    core.cancel_game(game_id, "canceled")
    assert_problem(rematch(api, game_id, ada), 409, "game_canceled")


def test_an_idempotency_key_replays_the_seat_with_a_new_token(api: APIClient) -> None:
    old, (ada, _) = finished_game(api, 2)
    key = {"HTTP_IDEMPOTENCY_KEY": "rematch-1"}
    first = answered(rematch(api, old, ada, **key), 201)
    again = rematch(api, old, ada, **key)
    replayed = answered(again, 201)
    assert again["Idempotent-Replayed"] == "true"
    assert replayed["game"] == first["game"] and replayed["seat"] == first["seat"]
    assert replayed["token"] != first["token"]
    assert get_view(api, first["game"], replayed["token"])["you"] == first["seat"]
    assert_problem(
        api.get(f"{GAMES}/{first['game']}", **bearer(first["token"])), 401, "invalid_token"
    )
    assert Game.objects.filter(rematch_of_id=old).count() == 1


def test_an_account_s_key_belongs_to_the_account(api: APIClient) -> None:
    ada = account("ada")
    old, _ = finished(api, [ada, "Bob"])
    key = {"HTTP_IDEMPOTENCY_KEY": "again"}
    first = answered(rematch(api, old, ada, **key), 201)
    assert rematch(api, old, ada, **key)["Idempotent-Replayed"] == "true"
    other, _ = finished(api, [ada, "Cyd"])
    assert_problem(rematch(api, other, ada, **key), 422, "idempotency_key_reused")
    assert first["seat"] == 0


def test_an_account_that_left_the_game_is_no_player_of_it(api: APIClient) -> None:
    ada = account("ada")
    game_id, credentials = seated_game(api, [ada, "Bob"])
    assert leave(api, game_id, 0, ada).status_code == 200  # a bot plays Ada's seat now
    play_to_the_end(api, game_id, [None, credentials[1]])
    assert_problem(rematch(api, game_id, ada), 403, "not_a_player")
    new = answered(rematch(api, game_id, credentials[1]), 201)
    assert get_view(api, new["game"])["reserved"] == []  # no seat kept for who left
    letters = InboxEntry.objects.filter(account__handle="ada", type="rematch_offered")
    assert letters.count() == 1  # told all the same: it may take the open seat


def test_an_account_is_known_before_its_malformed_body_is_refused(api: APIClient) -> None:
    """An account's personal token (both schemes are the rematch's) is who calls: its
    malformed body is refused as such, even from an account that sat nowhere in the game
    (which a well-formed call tells with 403 `not_a_player`); without `play`, or for no such
    game, it is refused for that first."""
    old, _ = finished_game(api, 2)
    eve = account("eve")
    malformed = {"seats": 2}
    url = f"{GAMES}/{old}/rematch"
    assert_problem(api.post(url, malformed, format="json", **bearer(eve)), 400, "invalid_request")
    narrow = account("zed", ["chat:write"])
    assert_problem(api.post(url, malformed, format="json", **bearer(narrow)), 403, "missing_scope")
    nowhere = f"{GAMES}/00000000-0000-0000-0000-000000000000/rematch"
    assert_problem(
        api.post(nowhere, malformed, format="json", **bearer(eve)), 404, "game_not_found"
    )
    assert_problem(rematch(api, old, eve), 403, "not_a_player")
    assert not Game.objects.filter(rematch_of_id__isnull=False).exists()
