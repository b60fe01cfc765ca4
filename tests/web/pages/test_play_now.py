"""The lobby's "Play now" without a browser (Django's test client): a logged-in person seeks
through quick play's use cases and waits on the seek's page, whose re-reads keep the seek alive
and open the table once matched; "Cancel" withdraws it; a guest plays a bot at once, the seat's
token in the session. (tests/web/browser/test_play_now.py drives it in Chromium.)"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.api.throttling import GameCreationThrottle
from games.core.tokens import SeatCredential
from games.models import Game, Seat
from games.web.seats import SESSION_KEY
from play.models import Seek, SeekStatus
from tests.api.bots_support import Clock, run_jobs
from tests.web.pages.test_accounts_pages import person

pytestmark = pytest.mark.django_db


def play_now(client: Client) -> Any:
    return client.post("/play")


def searching_page(client: Client) -> tuple[Seek, str]:
    """Play now, followed to the seek's page: the seek and the page."""
    answer = play_now(client)
    assert answer.status_code == 302 and answer["Location"].startswith("/seeks/")
    seek = Seek.objects.get(pk=answer["Location"].rsplit("/", 1)[1])
    page = client.get(answer["Location"])
    assert page.status_code == 200
    return seek, page.content.decode()


def test_the_lobby_offers_play_now_to_guests_and_people() -> None:
    guest = Client().get("/").content.decode()
    assert "Play now" in guest and "greedy bot at once, as Guest" in guest
    ada = person("Ada").get("/").content.decode()
    assert "Play now" in ada and "table of 2 to 4" in ada and "after 20 seconds" in ada


def test_a_person_seeks_and_waits_on_the_seeks_page() -> None:
    ada = person("Ada")
    seek, page = searching_page(ada)
    assert (seek.seats_min, seek.seats_max, seek.turn_seconds, seek.bots_after) == (2, 4, None, 20)
    assert seek.account.handle == "Ada" and seek.status == SeekStatus.SEARCHING
    assert "Searching…" in page and ">Cancel</button>" in page
    assert f'hx-get="/seeks/{seek.id}/status"' in page and 'hx-trigger="every 2s"' in page
    again = play_now(ada)  # another click finds the seek it has
    assert again["Location"] == f"/seeks/{seek.id}"
    assert Seek.objects.count() == 1


def test_the_pages_reads_keep_the_seek_alive(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock(monkeypatch)
    ada = person("Ada")
    seek, _ = searching_page(ada)
    for _ in range(3):
        clock.advance(20)
        status = ada.get(f"/seeks/{seek.id}/status", HTTP_HX_REQUEST="true")
        assert status.status_code == 200 and "Searching…" in status.content.decode()
    clock.advance(31)
    over = ada.get(f"/seeks/{seek.id}/status", HTTP_HX_REQUEST="true").content.decode()
    assert "The search has expired" in over and "hx-trigger" not in over
    assert "Play now" in over


def test_once_matched_the_page_opens_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock(monkeypatch)
    ada, bob = person("Ada"), person("Bob")
    first, _ = searching_page(ada)
    clock.advance(0.001)
    second, _ = searching_page(bob)
    run_jobs()
    assert Seek.objects.get(pk=first.pk).status == SeekStatus.SEARCHING  # 2 of 4: wait
    clock.advance(20)
    ada.get(f"/seeks/{first.id}/status")
    bob.get(f"/seeks/{second.id}/status")
    run_jobs()  # 20 s on: the two of them
    game = Seek.objects.get(pk=first.pk).game
    assert game is not None and game.seats == 2
    polled = ada.get(f"/seeks/{first.id}/status", HTTP_HX_REQUEST="true")
    assert polled["HX-Redirect"] == f"/games/{game.id}"
    assert bob.get(f"/seeks/{second.id}")["Location"] == f"/games/{game.id}"
    table = ada.get(f"/games/{game.id}").content.decode()
    assert "Ada (you)" in table


def test_a_person_alone_plays_bots_after_the_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock(monkeypatch)
    ada = person("Ada")
    seek, _ = searching_page(ada)
    clock.advance(20)
    run_jobs()
    game = Seek.objects.get(pk=seek.pk).game
    assert game is not None
    seats = Seat.objects.filter(game=game).order_by("seat")
    assert [(s.name, s.bot) for s in seats] == [("Ada", None), ("Greedy bot", "greedy")]


def test_cancel_stops_searching() -> None:
    ada = person("Ada")
    seek, _ = searching_page(ada)
    answer = ada.post(f"/seeks/{seek.id}/cancel")
    assert answer.status_code == 302 and answer["Location"] == "/"
    assert Seek.objects.get(pk=seek.pk).status == SeekStatus.CANCELED
    assert "You stopped searching." in ada.get("/").content.decode()
    page = ada.get(f"/seeks/{seek.id}").content.decode()
    assert "You stopped searching" in page and "hx-get" not in page


def test_cancel_after_the_match_opens_the_table() -> None:
    ada = person("Ada")
    seek, _ = searching_page(ada)
    Seek.objects.filter(pk=seek.pk).update(bots_after=0)
    run_jobs()
    game = Seek.objects.get(pk=seek.pk).game
    assert game is not None
    answer = ada.post(f"/seeks/{seek.id}/cancel")
    assert answer["Location"] == f"/games/{game.id}"
    assert Seek.objects.get(pk=seek.pk).status == SeekStatus.MATCHED


def test_a_seek_is_its_persons_alone() -> None:
    ada, bob = person("Ada"), person("Bob")
    seek, _ = searching_page(ada)
    for path in (f"/seeks/{seek.id}", "/seeks/nonsense"):
        assert bob.get(path)["Location"] == "/"
    assert bob.get(f"/seeks/{seek.id}/status", HTTP_HX_REQUEST="true")["HX-Redirect"] == "/"
    assert bob.post(f"/seeks/{seek.id}/cancel")["Location"] == "/"
    assert Seek.objects.get(pk=seek.pk).status == SeekStatus.SEARCHING
    guest = Client().get(f"/seeks/{seek.id}")
    assert guest["Location"] == f"/login?next=%2Fseeks%2F{seek.id}"


def test_a_guest_plays_a_bot_at_once() -> None:
    guest = Client()
    answer = play_now(guest)
    assert answer.status_code == 302 and answer["Location"].startswith("/games/")
    game_id = answer["Location"].rsplit("/", 1)[1]
    game = Game.objects.get(pk=game_id)
    assert game.seats == 2 and game.status == "setup" and not game.seeded
    seats = Seat.objects.filter(game=game).order_by("seat")
    assert [(s.name, s.bot) for s in seats] == [("Guest", None), ("Greedy bot", "greedy")]
    token = guest.session[SESSION_KEY][game_id]
    assert SeatCredential(token).token_hash == seats[0].token_hash
    assert "Guest (you)" in guest.get(answer["Location"]).content.decode()
    assert not Seek.objects.exists()


def test_a_guests_play_now_counts_against_the_creation_limit(
    rates: dict[str, str], settings: Any
) -> None:
    settings.THROTTLING = True
    rates["game_create"] = "1/hour"
    guest = Client()
    assert play_now(guest)["Location"].startswith("/games/")
    refused = play_now(guest)
    assert refused["Location"] == "/"
    assert "Too many games" in guest.get("/").content.decode()
    assert Game.objects.count() == 1
    assert GameCreationThrottle().rate == "1/hour"


def test_play_now_is_a_post_with_csrf() -> None:
    assert Client().get("/play").status_code == 405
    strict = Client(enforce_csrf_checks=True)
    assert strict.post("/play").status_code == 403
    assert not Game.objects.exists()
