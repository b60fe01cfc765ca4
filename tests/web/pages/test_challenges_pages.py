"""Challenges on the pages (Django's test client): the lobby's "Challenge players" makes one
instead of an open game (logged-in people only), the invitee's lobby lists it with Accept and
Decline (a reason), the challenger's with Cancel; accepting opens the table, and a table
called off says why."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.api.throttling import ChallengeCreationThrottle
from games.models import Game
from play.models import Challenge
from tests.play.support import letters
from tests.web.pages.test_accounts_pages import person

pytestmark = pytest.mark.django_db


def challenge(client: Client, handles: str, **fields: Any) -> Any:
    data = {"seats": 2, "end_score": 100, "closer_penalty": "on", "challenge": handles, **fields}
    return client.post("/games/new", data)


def made(client: Client, handles: str = "Bob", **fields: Any) -> Challenge:
    answer = challenge(client, handles, **fields)
    assert answer.status_code == 302, answer.content.decode()
    found = Challenge.objects.get()
    assert answer["Location"] == f"/games/{found.game_id}"
    return found


def test_only_a_logged_in_person_sees_the_challenge_field() -> None:
    assert "Challenge players" not in Client().get("/").content.decode()
    assert "Challenge players" in person("Ada").get("/").content.decode()
    refused = challenge(Client(), "Bob")
    assert refused.status_code == 400 and "Log in to challenge players" in refused.content.decode()
    assert not Game.objects.exists()


def test_a_challenge_from_the_lobby_waits_for_its_invitee() -> None:
    ada = person("Ada")
    person("Bob")
    found = made(ada, " bob , ", seat_2="greedy", seats=3)
    assert found.bots == ["greedy"]
    table = ada.get(f"/games/{found.game_id}").content.decode()
    assert "Waiting for players: 1 of 3 seats open." in table
    assert [kind for kind, _ in letters("Bob")] == ["challenge"]
    lobby = ada.get("/").content.decode()
    assert "You challenge Bob" in lobby and "Cancel challenge" in lobby


def test_the_invitee_accepts_from_the_lobby_and_the_table_opens() -> None:
    ada, bob = person("Ada"), person("Bob")
    found = made(ada)
    lobby = bob.get("/").content.decode()
    assert "Ada challenges you" in lobby and ">Accept</button>" in lobby
    accepted = bob.post(f"/challenges/{found.id}/accept")
    assert accepted.status_code == 302 and accepted["Location"] == f"/games/{found.game_id}"
    table = bob.get(accepted["Location"]).content.decode()
    assert "Bob (you)" in table and "everyone turns two cards face up" in table
    assert "Ada challenges you" not in bob.get("/").content.decode()


def test_declining_with_a_reason_calls_the_table_off() -> None:
    ada, bob = person("Ada"), person("Bob")
    found = made(ada)
    declined = bob.post(f"/challenges/{found.id}/decline", {"reason": "too_slow"})
    assert declined.status_code == 302 and declined["Location"] == "/"
    assert "You declined Ada&#x27;s challenge." in bob.get("/").content.decode()
    invitation = found.invitations.get()
    assert (invitation.answer, invitation.reason) == ("declined", "too_slow")
    table = ada.get(f"/games/{found.game_id}").content.decode()
    assert "This game was called off: an invitee declined the challenge." in table
    assert "Leave seat" not in table


def test_the_challenger_cancels_and_a_late_answer_is_refused_in_words() -> None:
    ada, bob = person("Ada"), person("Bob")
    found = made(ada)
    canceled = ada.post(f"/challenges/{found.id}/cancel")
    assert canceled.status_code == 302
    assert "the challenger canceled" in ada.get(f"/games/{found.game_id}").content.decode()
    late = bob.post(f"/challenges/{found.id}/accept", follow=True)
    assert "This challenge is canceled" in late.content.decode()
    assert bob.post(f"/challenges/{found.id}/cancel", follow=True).status_code == 200
    assert Challenge.objects.get().status == "canceled"


def test_a_stranger_and_a_guest_cannot_answer() -> None:
    ada = person("Ada")
    person("Bob")
    found = made(ada)
    eve = person("Eve")
    refused = eve.post(f"/challenges/{found.id}/accept", follow=True).content.decode()
    assert f"There is no challenge {found.id} of yours." in refused
    guest = Client().post(f"/challenges/{found.id}/accept")
    assert guest.status_code == 302 and guest["Location"] == "/login"
    assert Challenge.objects.get().status == "pending"


def test_a_refused_challenge_is_said_on_the_form() -> None:
    ada = person("Ada")
    unknown = challenge(ada, "Nobody")
    assert unknown.status_code == 400 and "There is no player" in unknown.content.decode()
    person("Bob")
    person("Cyd")
    crowded = challenge(ada, "Bob, Cyd")
    assert crowded.status_code == 400 and "too few seats" in crowded.content.decode()
    bad = challenge(ada, "Bob, 9lives")
    assert bad.status_code == 400 and "Not a handle: 9lives." in bad.content.decode()
    assert not Challenge.objects.exists() and not Game.objects.exists()


def test_challenges_from_the_page_are_limited_like_the_api(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ChallengeCreationThrottle, "THROTTLE_RATES", {"challenge_create": "1/hour"})
    ada = person("Ada")
    person("Bob")
    made(ada)
    assert challenge(ada, "Bob").status_code == 429
    assert Challenge.objects.count() == 1
