"""A rated game's table page (R14): a guest's join is refused with the reason said on the
page (log in to sit), and a logged-in person's account takes the seat."""

from __future__ import annotations

from html import unescape

import pytest
from django.test import Client

from games import core
from games.models import Seat
from games.web.views import RATED_JOIN
from tests.web.pages.test_accounts_pages import person
from tests.web.pages.test_pages import join

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
