"""A rated game's table page (R14): a guest's join is refused with the reason said on the
page (log in to sit), and a logged-in person's account takes the seat."""

from __future__ import annotations

from html import unescape

import pytest
from django.test import Client

from games import core
from games.models import Game, Seat
from games.web.views import RATED_JOIN
from tests.web.pages.test_accounts_pages import person
from tests.web.pages.test_pages import create, join

pytestmark = pytest.mark.django_db


def test_a_guest_is_told_to_log_in_and_an_account_sits() -> None:
    game = core.create_game(seats=2, options=None, seed=None, rated=True)
    guest = Client()
    refused = join(guest, str(game.id), "Eve")
    assert refused.status_code == 302  # back to the table, which says why
    page = unescape(guest.get(refused["Location"]).content.decode())
    assert RATED_JOIN in page
    assert not Seat.objects.filter(game=game).exists()
    ada = person("Ada")
    assert join(ada, str(game.id), "").status_code == 302
    assert [row.account.handle for row in Seat.objects.filter(game=game)] == ["Ada"]


def test_a_logged_in_person_creates_a_rated_game_against_a_bot_from_the_lobby() -> None:
    ada = person("Ada")
    assert 'name="rated"' in ada.get("/").content.decode()
    game_id = create(ada, "Ada", rated="on", seat_2="greedy")
    game = Game.objects.get(pk=game_id)
    assert game.options.get("rated") is True and game.status == "setup"
    assert [row.account.handle for row in Seat.objects.filter(game=game)] == ["Ada", "greedy"]


def test_the_rated_form_refuses_a_guest_and_a_bot_twice() -> None:
    guest = Client()
    assert 'name="rated"' not in guest.get("/").content.decode()
    fields = {"seats": 3, "end_score": 100, "name": "Eve", "rated": "on"}
    answer = guest.post("/games/new", fields)
    assert answer.status_code == 400 and "Log in to create a rated game" in answer.content.decode()
    twice = person("Bob").post("/games/new", {**fields, "seat_2": "greedy", "seat_3": "greedy"})
    assert twice.status_code == 400
    assert "A rated game seats each bot once" in unescape(twice.content.decode())
    assert not Game.objects.exists()
