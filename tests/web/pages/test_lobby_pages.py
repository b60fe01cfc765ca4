"""The lobby's forms without a browser (Django's test client): "Play against bots" in one
post (remembered for the next visit), the create form's refusals (a bot beyond the seats, a
name with no seat left for it), bots named apart, and the lists' details (seats, clock, how
long a game has waited). tests/web/browser/test_lobby.py drives them in a real browser."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from games import core
from games.core.bots import default_name
from games.models import Game, Seat
from games.web.seats import SESSION_KEY
from tests.web.pages.test_accounts_pages import person
from tests.web.pages.test_pages import create

pytestmark = pytest.mark.django_db

FIELDS = {"seats": 2, "end_score": 100, "closer_penalty": "on"}


def names(game_id: str) -> list[tuple[str, str | None]]:
    return [(row.name, row.bot) for row in Seat.objects.filter(game_id=game_id).order_by("seat")]


def page(client: Client, path: str = "/") -> str:
    return unescape(client.get(path).content.decode())


def play_bots(client: Client, **fields: Any) -> Any:
    return client.post("/games/bots", fields)


def test_default_names_are_numbered_within_a_game() -> None:
    assert default_name("random") == "Random bot"
    assert default_name("random", ["Ada", None]) == "Random bot"
    assert default_name("random", ["Random bot", "Random bot 2", None]) == "Random bot 3"
    assert default_name("greedy", ["Random bot"]) == "Greedy bot"


def test_a_bot_beyond_the_seats_is_refused_with_a_message() -> None:
    answer = Client().post("/games/new", {**FIELDS, "name": "Ada", "seat_3": "random"})
    assert answer.status_code == 400
    said = unescape(answer.content.decode())
    assert "Seat 3: a bot is chosen for a seat beyond the game's 2" in said
    assert '<details class="more-options" open>' in said  # the error is not folded away
    assert not Game.objects.exists()


def test_a_name_with_every_seat_a_bot_is_refused_and_without_a_name_the_bots_play() -> None:
    bots = {"seat_1": "random", "seat_2": "random"}
    answer = Client().post("/games/new", {**FIELDS, "name": "Ada", **bots})
    assert answer.status_code == 400
    assert "You gave your name but every seat is a bot's" in unescape(answer.content.decode())
    game_id = create(Client(), "", **bots)  # no name: a game of bots to watch
    assert names(game_id) == [("Random bot", "random"), ("Random bot 2", "random")]


def test_the_create_forms_bots_are_named_apart() -> None:
    bots = {"seat_2": "greedy", "seat_3": "greedy", "seat_4": "random"}
    game_id = create(Client(), "Ada", seats=4, **bots)
    assert names(game_id) == [
        ("Ada", None),
        ("Greedy bot", "greedy"),
        ("Greedy bot 2", "greedy"),
        ("Random bot", "random"),
    ]


def test_the_apis_join_names_a_second_bot_apart_too() -> None:
    game = core.create_game(seats=3, options=None, seed=None)
    api = APIClient()
    url = f"/api/v1/games/{game.id}/players"
    answers = [api.post(url, {"bot": "greedy"}, format="json") for _ in range(2)]
    assert [a.json()["name"] for a in answers] == ["Greedy bot", "Greedy bot 2"]


def test_play_against_bots_seats_you_first_and_remembers_the_choice() -> None:
    guest = Client()
    lobby = page(guest)
    assert "Play against bots" in lobby and "<summary>More options</summary>" in lobby
    answer = play_bots(guest, name="Ada", bots=3, strategy="random")
    assert answer.status_code == 302
    game_id = answer["Location"].rsplit("/", 1)[1]
    assert names(game_id) == [
        ("Ada", None),
        ("Random bot", "random"),
        ("Random bot 2", "random"),
        ("Random bot 3", "random"),
    ]
    assert game_id in guest.session[SESSION_KEY]  # the guest's seat, as a create's
    assert Game.objects.get(pk=game_id).status == "setup"  # dealt at once
    again = page(guest)
    field = re.search(r'<input[^>]*name="bots"[^>]*>', again)
    assert field is not None and 'value="3"' in field[0]
    assert '<option value="random" selected>' in again
    assert 'value="Ada"' in again  # the name, in both forms


def test_play_against_bots_refuses_a_guest_without_a_name_and_seats_a_person() -> None:
    answer = play_bots(Client(), name="", bots=1, strategy="greedy")
    assert answer.status_code == 400
    assert "Give your name" in unescape(answer.content.decode())
    ada = person("Ada")
    assert "You play as Ada." in page(ada)
    game_id = play_bots(ada, bots=1, strategy="greedy")["Location"].rsplit("/", 1)[1]
    assert [row.account.handle for row in Seat.objects.filter(game_id=game_id)] == [
        "Ada",
        "greedy",
    ]


def test_the_lists_say_seats_clock_and_how_long_a_game_has_waited() -> None:
    waiting = create(Client(), "Ada", seats=3, turn_seconds=20, max_timeouts=3)
    Game.objects.filter(pk=waiting).update(created_at=timezone.now() - timedelta(minutes=3))
    playing = create(Client(), "Bob", seat_2="greedy")
    lobby = page(Client())
    entry = lobby.split(f'id="game-{waiting}"')[1].split("</li>")[0]
    assert "3 seats, 2 open · 20 s a turn · waiting 3 minutes" in entry
    entry = lobby.split(f'id="game-{playing}"')[1].split("</li>")[0]
    assert "2 seats · no clock · round 1" in entry
