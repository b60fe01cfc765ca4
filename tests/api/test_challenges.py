"""Challenges through the HTTP API: made, accepted (the game deals), declined, canceled and
expired (the game called off), listed and read by their parties only, every refusal with its
problem code, idempotent retries, the letters each step writes to the parties' inboxes, and
the rate limit."""

from __future__ import annotations

from typing import Any

import pytest
from django_tasks_db.models import DBTaskResult
from rest_framework.test import APIClient

from accounts.inbox import Letter, deliver
from accounts.models import Account, InboxEntry
from games.core.append import WRITE_ATTEMPTS
from games.models import Game, GameEvent, SeatHold
from play.challenges import expire_due_challenges
from play.models import Challenge
from play.sweep import sweep
from tests.api.bots_support import Clock, run_jobs
from tests.api.support import GAMES, assert_problem, bearer, create_game, get_view, join
from tests.play.support import CHALLENGES, account, answer, challenge, letters

pytestmark = pytest.mark.django_db


@pytest.fixture
def ada() -> str:
    return account("ada")


@pytest.fixture
def bob() -> str:
    return account("bob")


def canceled_reason(game_id: str) -> str | None:
    """The reason of the game's `GameCanceled` event, None if it has none."""
    event = GameEvent.objects.filter(game_id=game_id, type="GameCanceled").first()
    return None if event is None else str(event.payload["reason"])


def test_a_challenge_creates_a_waiting_game_with_its_challenger_bots_and_held_seats(
    api: APIClient, ada: str, bob: str
) -> None:
    body = {
        "players": ["BOB"],
        "seats": 4,
        "bots": ["greedy"],
        "options": {"end_score": 50},
        "expires_in": 120,
    }
    made = api.post(CHALLENGES, body, format="json", **bearer(ada))
    assert made.status_code == 201, made.content
    data = made.json()
    assert made["Location"] == f"{CHALLENGES}/{data['id']}"
    assert data["status"] == "pending" and data["challenger"] == "ada"
    assert data["invitees"] == [{"handle": "bob", "answer": "pending", "reason": None}]
    assert (data["seats"], data["bots"], data["listed"]) == (4, ["greedy"], False)
    assert data["options"]["end_score"] == 50
    game = get_view(api, data["game"])
    assert game["status"] == "waiting" and game["open_seats"] == 2
    assert [(p["account"], p["bot"]) for p in game["players"][:2]] == [
        ("ada", None),
        ("greedy", "greedy"),
    ]
    assert not Game.objects.get(pk=data["game"]).listed
    assert SeatHold.objects.filter(game_id=data["game"], account__handle="bob").count() == 1
    [(kind, payload)] = letters("bob")
    assert kind == "challenge" and payload == {**data, "challenge": data["id"]}
    assert letters("ada") == []
    read = api.get(f"{CHALLENGES}/{data['id']}", **bearer(bob))
    assert read.status_code == 200 and read.json() == data


def test_accepting_seats_the_invitee_and_the_full_game_deals(
    api: APIClient, ada: str, bob: str
) -> None:
    made = challenge(api, ada, ["bob"])
    accepted = answer(api, bob, made["id"], "accept")
    assert accepted.status_code == 200, accepted.content
    assert accepted.json()["status"] == "accepted"
    assert accepted.json()["invitees"][0]["answer"] == "accepted"
    game = get_view(api, made["game"], bob)
    assert game["status"] == "setup" and game["you"] == 1
    assert [p["account"] for p in game["players"]] == ["ada", "bob"]
    expected = {"challenge": made["id"], "game": made["game"], "handle": "bob"}
    for handle in ("ada", "bob"):
        assert letters(handle, "challenge_accepted") == [("challenge_accepted", expected)]
        assert [kind for kind, _ in letters(handle, "game_started")] == ["game_started"]
    again = answer(api, bob, made["id"], "accept")
    body = assert_problem(again, 409, "challenge_closed")
    assert body["challenge_status"] == "accepted"


def test_with_two_invitees_the_challenge_waits_for_both(api: APIClient, ada: str, bob: str) -> None:
    cyd = account("cyd")
    made = challenge(api, ada, ["bob", "cyd"], seats=3)
    first = answer(api, bob, made["id"], "accept").json()
    assert first["status"] == "pending"
    assert [i["answer"] for i in first["invitees"]] == ["accepted", "pending"]
    assert get_view(api, made["game"])["status"] == "waiting"
    twice = answer(api, bob, made["id"], "accept")
    assert assert_problem(twice, 409, "already_answered")["answer"] == "accepted"
    second = answer(api, cyd, made["id"], "accept").json()
    assert second["status"] == "accepted"
    assert get_view(api, made["game"])["status"] == "setup"
    assert len(letters("ada", "challenge_accepted")) == 2


def test_declining_calls_the_game_off_and_tells_each_party(
    api: APIClient, ada: str, bob: str
) -> None:
    cyd = account("cyd")
    made = challenge(api, ada, ["bob", "cyd"], seats=3)
    answer(api, cyd, made["id"], "accept")
    declined = answer(api, bob, made["id"], "decline", reason="too_fast")
    assert declined.status_code == 200, declined.content
    data = declined.json()
    assert data["status"] == "declined"
    assert data["invitees"][0] == {"handle": "bob", "answer": "declined", "reason": "too_fast"}
    assert get_view(api, made["game"])["status"] == "canceled"
    assert canceled_reason(made["game"]) == "declined"
    about = {"challenge": made["id"], "game": made["game"]}
    told = ("challenge_declined", {**about, "handle": "bob", "reason": "too_fast"})
    assert letters("ada", "challenge_declined", "challenge_canceled") == [told]
    assert letters("bob", "challenge_declined", "challenge_canceled") == [told]
    assert letters("cyd", "challenge_declined", "challenge_canceled") == [
        ("challenge_canceled", {**about, "reason": "declined"})
    ]
    late = answer(api, cyd, made["id"], "decline")
    assert assert_problem(late, 409, "challenge_closed")["challenge_status"] == "declined"


def test_a_decline_without_a_body_is_generic_and_a_bad_reason_is_refused(
    api: APIClient, ada: str, bob: str
) -> None:
    made = challenge(api, ada, ["bob"])
    bad = answer(api, bob, made["id"], "decline", reason="boring")
    assert "reason" in assert_problem(bad, 400, "invalid_request")["errors"]
    declined = answer(api, bob, made["id"], "decline")
    assert declined.json()["invitees"][0]["reason"] == "generic"


def test_the_challenger_cancels_and_only_the_challenger(api: APIClient, ada: str, bob: str) -> None:
    made = challenge(api, ada, ["bob"])
    assert_problem(answer(api, bob, made["id"], "cancel"), 403, "not_challenger")
    assert_problem(answer(api, ada, made["id"], "accept"), 403, "not_invited")
    assert_problem(answer(api, ada, made["id"], "decline"), 403, "not_invited")
    canceled = answer(api, ada, made["id"], "cancel")
    assert canceled.status_code == 200 and canceled.json()["status"] == "canceled"
    assert canceled_reason(made["game"]) == "canceled"
    expected = {"challenge": made["id"], "game": made["game"], "reason": "canceled"}
    for handle in ("ada", "bob"):
        assert letters(handle, "challenge_canceled") == [("challenge_canceled", expected)]
    closed = answer(api, bob, made["id"], "accept")
    assert assert_problem(closed, 409, "challenge_closed")["challenge_status"] == "canceled"
    assert not SeatHold.objects.filter(game_id=made["game"]).exists()


def test_an_unanswered_challenge_expires_at_its_time(
    api: APIClient, ada: str, bob: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock(monkeypatch)
    made = challenge(api, ada, ["bob"], expires_in=60)
    clock.advance(30)
    assert run_jobs() == 0  # the expiry's job is not due yet
    clock.advance(31)
    read = api.get(f"{CHALLENGES}/{made['id']}", **bearer(bob)).json()
    assert read["status"] == "expired"  # as soon as its time passes, job or not
    late = answer(api, bob, made["id"], "accept")
    assert assert_problem(late, 409, "challenge_closed")["challenge_status"] == "expired"
    assert get_view(api, made["game"])["status"] == "waiting"
    assert run_jobs() == 1
    assert Challenge.objects.get(pk=made["id"]).status == "expired"
    assert get_view(api, made["game"])["status"] == "canceled"
    assert canceled_reason(made["game"]) == "expired"
    expected = {"challenge": made["id"], "game": made["game"], "reason": "expired"}
    for handle in ("ada", "bob"):
        assert letters(handle, "challenge_canceled") == [("challenge_canceled", expected)]
    assert expire_due_challenges() == 0  # once only


def test_the_sweep_expires_a_challenge_whose_job_was_lost(
    api: APIClient, ada: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    account("bob")
    clock = Clock(monkeypatch)
    made = challenge(api, ada, ["bob"], expires_in=10)
    DBTaskResult.objects.all().delete()
    clock.advance(11)
    assert sweep() == 1  # the workers' sweep runs play's steps: the expiry among them
    assert canceled_reason(made["game"]) == "expired"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"players": ["ada"], "seats": 2}, "players"),
        ({"players": ["bob", "BOB"], "seats": 3}, "players"),
        ({"players": ["greedy"], "seats": 2}, "players"),
        ({"players": [], "seats": 2}, "players"),
        ({"players": ["not a handle"], "seats": 2}, "players"),
        ({"players": ["bob"], "seats": 2, "bots": ["greedy"]}, "seats"),
        ({"players": ["bob"], "seats": 9}, "seats"),
        ({"players": ["bob"], "seats": 3, "bots": ["deep-blue"]}, "bots.0"),
        ({"players": ["bob"], "seats": 2, "expires_in": 9}, "expires_in"),
        ({"players": ["bob"], "seats": 2, "expires_in": 86_401}, "expires_in"),
        ({"players": ["bob"], "seats": 2, "listed": "yes"}, "listed"),
        ({"players": ["bob"], "seats": 2, "rated": "yes"}, "rated"),
        ({"players": ["bob"], "seats": 4, "bots": ["greedy"] * 2, "rated": True}, "bots"),
        ({"players": ["bob"], "seats": 2, "options": {"end_score": 0}}, "options.end_score"),
    ],
)
def test_a_bad_challenge_is_refused_naming_the_field(
    api: APIClient, ada: str, bob: str, body: dict[str, Any], field: str
) -> None:
    refused = api.post(CHALLENGES, body, format="json", **bearer(ada))
    assert field in assert_problem(refused, 400, "invalid_request")["errors"]
    assert not Game.objects.exists() and not Challenge.objects.exists()


def test_an_unknown_player_is_not_found_and_nothing_is_made(api: APIClient, ada: str) -> None:
    refused = api.post(
        CHALLENGES, {"players": ["nobody"], "seats": 2}, format="json", **bearer(ada)
    )
    assert_problem(refused, 404, "player_not_found")
    assert not Game.objects.exists()


def test_tokens_and_scopes(api: APIClient, bob: str) -> None:
    body = {"players": ["bob"], "seats": 2}
    assert_problem(api.post(CHALLENGES, body, format="json"), 401, "account_token_required")
    seat = join(api, create_game(api)["id"], "Guest")["token"]
    as_seat = api.post(CHALLENGES, body, format="json", **bearer(seat))
    assert_problem(as_seat, 401, "account_token_required")
    reader = account("ada", ["challenge:read"])
    refused = api.post(CHALLENGES, body, format="json", **bearer(reader))
    assert assert_problem(refused, 403, "missing_scope")["required_scope"] == "challenge:write"
    no_play = account("cyd", ["challenge:write"])
    refused = api.post(CHALLENGES, body, format="json", **bearer(no_play))
    assert assert_problem(refused, 403, "missing_scope")["required_scope"] == "play"
    assert not Challenge.objects.exists() and Game.objects.count() == 1
    listing = api.get(CHALLENGES, **bearer(no_play))
    assert assert_problem(listing, 403, "missing_scope")["required_scope"] == "challenge:read"


def test_an_invitee_needs_play_to_accept(api: APIClient, ada: str) -> None:
    writer = account("bob", ["challenge:write", "challenge:read"])
    made = challenge(api, ada, ["bob"])
    refused = answer(api, writer, made["id"], "accept")
    assert assert_problem(refused, 403, "missing_scope")["required_scope"] == "play"
    assert Challenge.objects.get(pk=made["id"]).invitations.get().answer == "pending"
    declined = answer(api, writer, made["id"], "decline", reason="later")
    assert declined.status_code == 200  # declining takes no seat


def test_a_challenge_is_its_parties_business(api: APIClient, ada: str, bob: str) -> None:
    eve = account("eve")
    made = challenge(api, ada, ["bob"])
    url = f"{CHALLENGES}/{made['id']}"
    assert_problem(api.get(url, **bearer(eve)), 404, "challenge_not_found")
    for verb in ("accept", "decline", "cancel"):
        assert_problem(answer(api, eve, made["id"], verb), 404, "challenge_not_found")
    for unknown in ("not-a-uuid", "0" * 32):
        assert_problem(
            api.get(f"{CHALLENGES}/{unknown}", **bearer(ada)), 404, "challenge_not_found"
        )
    assert api.get(url, **bearer(ada)).status_code == 200


def test_listing_by_direction_and_status_newest_first(api: APIClient, ada: str, bob: str) -> None:
    first = challenge(api, ada, ["bob"])
    second = challenge(api, bob, ["ada"])
    answer(api, ada, second["id"], "decline")

    def listed(token: str, **query: str) -> list[str]:
        page = api.get(CHALLENGES, query, **bearer(token))
        assert page.status_code == 200, page.content
        return [item["id"] for item in page.json()["results"]]

    assert listed(ada) == [second["id"], first["id"]]
    assert listed(ada, direction="outgoing") == [first["id"]]
    assert listed(ada, direction="incoming") == [second["id"]]
    assert listed(bob, direction="incoming", status="pending") == [first["id"]]
    assert listed(bob, status="declined") == [second["id"]]
    assert listed(ada, limit="1") == [second["id"]]
    page = api.get(CHALLENGES, {"limit": 1}, **bearer(ada)).json()
    assert page["count"] == 2 and page["next"] is not None
    bad = api.get(CHALLENGES, {"direction": "sideways"}, **bearer(ada))
    assert "direction" in assert_problem(bad, 400, "invalid_request")["errors"]


def test_a_retry_with_the_same_key_makes_one_challenge(api: APIClient, ada: str, bob: str) -> None:
    body = {"players": ["bob"], "seats": 2}
    headers = {**bearer(ada), "HTTP_IDEMPOTENCY_KEY": "challenge-1"}
    first = api.post(CHALLENGES, body, format="json", **headers)
    again = api.post(CHALLENGES, body, format="json", **headers)
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true" and again.content == first.content
    assert again["Location"] == first["Location"]
    assert Challenge.objects.count() == 1 and len(letters("bob")) == 1
    other = api.post(CHALLENGES, {**body, "seats": 3}, format="json", **headers)
    assert_problem(other, 422, "idempotency_key_reused")
    challenge_id = first.json()["id"]
    key = {**bearer(bob), "HTTP_IDEMPOTENCY_KEY": "accept-1"}
    url = f"{CHALLENGES}/{challenge_id}/accept"
    accepted = api.post(url, format="json", **key)
    replayed = api.post(url, format="json", **key)
    assert replayed.status_code == 200 and replayed.content == accepted.content


def test_held_seats_keep_others_out_and_extra_seats_are_open(
    api: APIClient, ada: str, bob: str
) -> None:
    made = challenge(api, ada, ["bob"], seats=3, listed=True)
    join(api, made["game"], "Guest")  # the extra seat, open to anyone with the link
    full = api.post(f"{GAMES}/{made['game']}/players", {"name": "Eve"}, format="json")
    assert_problem(full, 409, "seat_reserved")
    listed = api.get(GAMES, {"status": "waiting"}).json()["results"]
    assert [game["id"] for game in listed] == [made["game"]]
    answer(api, bob, made["id"], "accept")
    game = get_view(api, made["game"])
    assert game["status"] == "setup"
    assert [p["name"] for p in game["players"]] == ["ada", "Guest", "bob"]


def test_an_invitee_who_joined_the_game_directly_still_accepts(
    api: APIClient, ada: str, bob: str
) -> None:
    made = challenge(api, ada, ["bob"], seats=3)
    joined = api.post(f"{GAMES}/{made['game']}/players", {}, format="json", **bearer(bob))
    assert joined.status_code == 201, joined.content
    accepted = answer(api, bob, made["id"], "accept")
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"


def test_challenges_are_rate_limited_per_account(
    api: APIClient, ada: str, bob: str, rates: dict[str, str]
) -> None:
    rates["challenge_create"] = "2/hour"
    for _ in range(2):
        challenge(api, ada, ["bob"])
    refused = api.post(CHALLENGES, {"players": ["bob"], "seats": 2}, format="json", **bearer(ada))
    assert_problem(refused, 429, "throttled")
    assert refused["Retry-After"]
    assert challenge(api, bob, ["ada"])["challenger"] == "bob"  # each account counts apart


def test_a_challenge_s_bots_count_against_the_bot_seat_limit(
    api: APIClient, ada: str, bob: str, rates: dict[str, str]
) -> None:
    rates["bot_seat"] = "2/hour"
    body = {"players": ["bob"], "seats": 4, "bots": ["greedy", "random"]}
    assert api.post(CHALLENGES, body, format="json", **bearer(ada)).status_code == 201
    refused = api.post(CHALLENGES, body, format="json", **bearer(ada))
    assert_problem(refused, 429, "throttled")
    assert Challenge.objects.count() == 1


def test_a_game_its_invitees_joined_themselves_is_an_accepted_challenge(
    api: APIClient, ada: str, bob: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock(monkeypatch)
    made = challenge(api, ada, ["bob"], expires_in=60)
    joined = api.post(f"{GAMES}/{made['game']}/players", {}, format="json", **bearer(bob))
    assert joined.status_code == 201 and joined.json()["game"]["status"] == "setup"
    read = api.get(f"{CHALLENGES}/{made['id']}", **bearer(ada)).json()
    assert read["status"] == "accepted"  # its game dealt: nothing is left to answer

    def listed(status: str) -> list[str]:
        page = api.get(CHALLENGES, {"status": status}, **bearer(ada)).json()
        return [item["id"] for item in page["results"]]

    assert (listed("accepted"), listed("pending")) == ([made["id"]], [])
    assert_problem(answer(api, ada, made["id"], "cancel"), 409, "challenge_closed")
    clock.advance(61)
    assert listed("accepted") == [made["id"]] and listed("expired") == []
    assert run_jobs() == 1
    assert Challenge.objects.get(pk=made["id"]).status == "accepted"
    assert get_view(api, made["game"])["status"] == "setup"  # played, never called off
    assert letters("ada", "challenge_canceled") == []


def test_a_challenge_counts_against_its_limits_once_and_only_once_it_is_valid(
    api: APIClient, ada: str, bob: str, rates: dict[str, str]
) -> None:
    rates["challenge_create"] = "1/hour"
    rates["bot_seat"] = "2/hour"
    unknown = {"players": ["nobody"], "seats": 4, "bots": ["greedy", "random"]}
    assert_problem(
        api.post(CHALLENGES, unknown, format="json", **bearer(ada)), 404, "player_not_found"
    )
    malformed = {"players": ["bob"], "seats": 99, "bots": ["greedy", "random"]}
    assert_problem(
        api.post(CHALLENGES, malformed, format="json", **bearer(ada)), 400, "invalid_request"
    )
    body = {"players": ["bob"], "seats": 4, "bots": ["greedy", "random"]}
    key = {"HTTP_IDEMPOTENCY_KEY": "one-challenge"}
    made = api.post(CHALLENGES, body, format="json", **bearer(ada), **key)
    assert made.status_code == 201, made.content
    replayed = api.post(CHALLENGES, body, format="json", **bearer(ada), **key)
    assert replayed.status_code == 201 and replayed["Idempotent-Replayed"] == "true"
    assert replayed.json() == made.json()
    refused = api.post(CHALLENGES, body, format="json", **bearer(ada))
    assert_problem(refused, 429, "throttled")
    assert refused["Retry-After"]
    assert Challenge.objects.count() == 1 and Game.objects.count() == 1  # none left behind


def test_a_challenge_s_bots_over_the_limit_leave_no_challenge_nor_game(
    api: APIClient, ada: str, bob: str, rates: dict[str, str]
) -> None:
    rates["bot_seat"] = "1/hour"
    body = {"players": ["bob"], "seats": 4, "bots": ["greedy", "random"]}
    assert_problem(api.post(CHALLENGES, body, format="json", **bearer(ada)), 429, "throttled")
    assert not Challenge.objects.exists() and not Game.objects.exists()
    assert letters("bob") == []


def test_a_challenge_that_keeps_losing_its_letters_numbers_is_409_and_leaves_nothing(
    api: APIClient, ada: str, bob: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each attempt's letter collides with another writer's (here, a row of the same number
    written again): tried a bounded number of times, then 409, all or nothing."""
    bob_id = Account.objects.get(handle="bob").id
    deliver([Letter("bob", "your_turn", {})])
    attempts: list[object] = []

    def collide(letters: object) -> None:
        attempts.append(letters)
        InboxEntry.objects.create(account_id=bob_id, sequence=1, type="your_turn", payload={})

    monkeypatch.setattr("play.challenges.deliver", collide)
    games = Game.objects.count()
    refused = api.post(CHALLENGES, {"players": ["bob"], "seats": 2}, format="json", **bearer(ada))
    assert_problem(refused, 409, "concurrent_update")
    assert len(attempts) == WRITE_ATTEMPTS
    assert not Challenge.objects.exists() and Game.objects.count() == games
    assert not SeatHold.objects.exists()


def test_a_challenge_is_casual_or_rated_as_it_says(api: APIClient, ada: str, bob: str) -> None:
    made = challenge(api, ada, ["bob"], rated=False)
    assert made["rated"] is False
    assert letters("bob", "challenge")[0][1]["rated"] is False
    assert get_view(api, made["game"])["rated"] is False
    rated = challenge(api, ada, ["bob"], seats=3, bots=["greedy"], rated=True)
    assert rated["rated"] is True
    assert letters("bob", "challenge")[1][1]["rated"] is True
    view = get_view(api, rated["game"])
    assert view["rated"] is True and view["options"]["rated"] is True
    assert [p["name"] for p in view["players"]][:2] == ["ada", "Greedy bot"]
