"""Issue 23's "done when", through the API as two clients would: two people's accounts find
each other by a challenge, by quick play and by an invite link; they play, chat and rematch,
each learning what it needs from its own account's events (no lobby polling)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlparse

import pytest
from rest_framework.test import APIClient

from tests.api.bots_support import run_jobs
from tests.api.chat_support import read, say
from tests.api.support import GAMES, bearer, get_view
from tests.play.support import account, answer, challenge, play_to_the_end, rematch

pytestmark = pytest.mark.django_db


def inbox(api: APIClient, token: str, *types: str) -> list[dict[str, Any]]:
    """The account's events of `types`, oldest first, as its client reads them."""
    response = api.get("/api/v1/account/events?after=0", **bearer(token))
    assert response.status_code == 200, response.content
    return [entry for entry in response.json()["entries"] if entry["type"] in types]


@pytest.fixture
def people() -> tuple[str, str]:
    return account("ada", kind="person"), account("bob", kind="person")


def test_a_challenge_played_chatted_and_rematched(api: APIClient, people: tuple[str, str]) -> None:
    ada, bob = people
    sent = challenge(api, ada, ["bob"], options={"end_score": 1})
    [letter] = inbox(api, bob, "challenge")
    assert letter["challenge"] == sent["id"]
    assert answer(api, bob, letter["challenge"], "accept").status_code == 200
    game = sent["game"]
    assert [e["game"] for e in inbox(api, ada, "game_started")] == [game]

    assert say(api, game, ada, "players", "good luck").status_code == 201
    assert [m["text"] for m in read(api, game, bob).json()["messages"]] == ["good luck"]
    play_to_the_end(api, game, [ada, bob])
    assert get_view(api, game)["status"] == "finished"

    first = rematch(api, game, bob)
    assert first.status_code == 201, first.content
    [offer] = inbox(api, ada, "rematch_offered")
    assert offer == {**offer, "game": game, "next_game": first.json()["game"]}
    second = rematch(api, game, ada)
    assert (second.status_code, second.json()["game"]) == (200, offer["next_game"])
    again = get_view(api, offer["next_game"], ada)
    assert (again["status"], again["rematch_of"]) == ("setup", game)
    assert get_view(api, game)["rematch"] == {"game": offer["next_game"]}


def test_quick_play_seats_both_in_one_game(api: APIClient, people: tuple[str, str]) -> None:
    seeks = [
        api.post("/api/v1/seeks", {"seats": {"min": 2, "max": 2}}, format="json", **bearer(token))
        for token in people
    ]
    assert [s.status_code for s in seeks] == [201, 201]
    run_jobs()
    matched = [inbox(api, token, "seek_matched") for token in people]
    games = {letters[0]["game"] for letters in matched}
    assert len(games) == 1 and sorted(letters[0]["seat"] for letters in matched) == [0, 1]
    [game] = games
    assert get_view(api, game, people[0])["status"] == "setup"


def test_an_invite_link_is_the_way_into_a_private_game(
    api: APIClient, people: tuple[str, str]
) -> None:
    ada, bob = people
    created = api.post(GAMES, {"seats": 2, "listed": False}, format="json", **bearer(ada))
    assert created.status_code == 201, created.content
    link = created.json()["invite_url"]
    game = urlparse(link).path.rsplit("/", 1)[-1]
    lobby = api.get(f"{GAMES}?status=waiting", **bearer(bob)).json()["results"]
    assert game not in [entry["id"] for entry in lobby]
    assert api.get(urlparse(link).path).status_code == 200  # the table page the link opens
    for token in (ada, bob):
        joined = api.post(f"{GAMES}/{game}/players", {}, format="json", **bearer(token))
        assert joined.status_code == 201, joined.content
    assert get_view(api, game, bob)["status"] == "setup"
    assert [e["game"] for e in inbox(api, bob, "game_started")] == [game]
