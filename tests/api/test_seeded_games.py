"""Seeded games (issue 12, item 2): a creator who chose the seed knows every card, so a game
created with an explicit `seed` says `seeded: true` in its lobby summary, its views and its
history, and the lobby filters on it; the seed itself is never served.

The attack: a creator with a secret seed predicted the first discard, two of the victim's
face-down cards and the first draw, 3 of 3, and the game looked like any other.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from engine import SeededShuffler
from engine.cards import CELLS
from games.models import Game, GameEvent
from tests.api.import_support import IMPORT, waiting_history
from tests.api.support import (
    GAMES,
    bearer,
    create_game,
    finished_game,
    get_view,
    join,
)

pytestmark = pytest.mark.django_db

SEED = 8_675_309_123


def lobby(api: APIClient, **query: Any) -> dict[str, bool]:
    """The listed games' ids with their `seeded`."""
    page = api.get(GAMES, {"limit": 100, **query})
    assert page.status_code == 200, page.content
    return {game["id"]: game["seeded"] for game in page.json()["results"]}


def test_the_rigging_creator_can_predict_the_cards_so_the_game_says_seeded(
    api: APIClient,
) -> None:
    """The probe's attack, replayed: from the seed alone the creator knows the first discard
    and the victim's face-down cards, so the victim must be told before joining."""
    game = create_game(api, 2, seed=SEED)
    assert game["seeded"] is True
    assert lobby(api, status="waiting", open_seats=1) == {game["id"]: True}
    victim = join(api, game["id"], "Victim")
    rigger = join(api, game["id"], "Rigger")
    deck = SeededShuffler(SEED).deal_order(1)
    seen = get_view(api, game["id"], victim["token"])
    assert seen["seeded"] is True
    assert seen["discard_top"] == deck[2 * CELLS]  # predicted, 1 of 3
    reveal = api.post(
        f"{GAMES}/{game['id']}/actions/reveal",
        {"column": 0, "row": 0},
        format="json",
        **bearer(victim["token"]),
    )
    assert reveal.json()["players"][0]["grid"][0][0]["value"] == deck[0]  # predicted, 2 of 3
    assert get_view(api, game["id"], rigger["token"])["seeded"] is True


def test_a_game_without_a_seed_is_not_seeded_anywhere(api: APIClient) -> None:
    game = create_game(api, 2, seed=None)
    assert game["seeded"] is False
    assert lobby(api) == {game["id"]: False}
    token = join(api, game["id"], "Ada")["token"]
    assert get_view(api, game["id"], token)["seeded"] is False
    assert get_view(api, game["id"])["seeded"] is False


def test_seeded_is_in_every_view_replays_included(api: APIClient) -> None:
    game_id, tokens = finished_game(api, 2, seed=3)
    assert get_view(api, game_id, tokens[0])["seeded"] is True
    assert api.get(f"{GAMES}/{game_id}", {"at": 1}).json()["seeded"] is True
    assert api.get(f"{GAMES}/{game_id}/history").json()["game"]["seeded"] is True


def test_the_seed_itself_is_never_served(api: APIClient) -> None:
    game_id, tokens = finished_game(api, 2, seed=SEED)
    answers = [
        api.get(f"{GAMES}/{game_id}"),
        api.get(f"{GAMES}/{game_id}", {"at": 3}),
        api.get(f"{GAMES}/{game_id}", **bearer(tokens[0])),
        api.get(f"{GAMES}/{game_id}/events"),
        api.get(f"{GAMES}/{game_id}/history"),
        api.get(GAMES),
    ]
    for answer in answers:
        assert answer.status_code == 200
        assert str(SEED) not in answer.content.decode() and '"seed"' not in answer.content.decode()


def test_the_lobby_filters_on_seeded(api: APIClient) -> None:
    rigged = create_game(api, 2, seed=SEED)["id"]
    secret = create_game(api, 2, seed=None)["id"]
    assert lobby(api, seeded="false") == {secret: False}
    assert lobby(api, seeded="true") == {rigged: True}
    assert lobby(api) == {rigged: True, secret: False}
    assert lobby(api, seeded="false", status="waiting", open_seats=2) == {secret: False}
    page = api.get(GAMES, {"seeded": "false"}).json()
    assert page["count"] == 1


def test_an_imported_game_is_not_seeded_and_deals_from_a_new_secret_seed(
    api: APIClient,
) -> None:
    """A waiting game exported from a seeded one: once imported, its deal is not the one the
    original's seed gives, and it says so (`seeded: false`)."""
    original = create_game(api, 2, seed=SEED)
    join(api, original["id"], "Ada")
    document = waiting_history("Ada", seats=2, game={"seeded": True})
    imported = api.post(IMPORT, document, format="json").json()
    assert imported["seeded"] is False
    assert lobby(api, seeded="false") == {imported["id"]: False}
    assert Game.objects.get(pk=imported["id"]).seed != SEED
    bob = join(api, imported["id"], "Bob")["token"]
    deal = GameEvent.objects.get(game_id=imported["id"], type="RoundDealt").payload["deck"]
    assert sorted(deal) == sorted(SeededShuffler(SEED).deal_order(1))
    assert deal != list(SeededShuffler(SEED).deal_order(1))  # not the original seed's deal
    assert get_view(api, imported["id"], bob)["seeded"] is False


def test_a_finished_import_of_a_seeded_game_is_not_seeded(api: APIClient) -> None:
    game_id, _ = finished_game(api, 2, seed=3)
    history = api.get(f"{GAMES}/{game_id}/history").json()
    imported = api.post(IMPORT, history, format="json").json()
    assert imported["seeded"] is False
    assert api.get(f"{GAMES}/{imported['id']}/history").json()["game"]["seeded"] is False
