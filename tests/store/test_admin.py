"""The admin: games and their logs can be browsed; the log cannot be changed there."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.auth.models import User
from django.test import Client, RequestFactory

from games import core
from games.models import Game, GameEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser_client(django_user_model: type[User]) -> Client:
    user = django_user_model.objects.create_superuser("root", "root@example.com", "x")
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def game() -> Game:
    game = core.create_game(seats=2, options={"end_score": 50}, seed=424242)
    core.join_game(game.id, "Ada")
    core.join_game(game.id, "Grace")
    return Game.objects.get(pk=game.pk)


def test_game_changelist_renders(superuser_client: Client, game: Game) -> None:
    response = superuser_client.get("/admin/games/game/")
    assert response.status_code == 200
    assert str(game.id) in response.content.decode()
    filtered = superuser_client.get("/admin/games/game/", {"status__exact": "setup"})
    assert filtered.status_code == 200 and str(game.id) in filtered.content.decode()


def test_game_change_page_renders_its_seats_and_log(superuser_client: Client, game: Game) -> None:
    response = superuser_client.get(f"/admin/games/game/{game.id}/change/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Ada" in page and "Grace" in page
    assert "RoundDealt" in page and "PlayerJoined" in page
    assert "424242" not in page  # the seed stays hidden


def test_games_cannot_be_added_or_deleted_in_the_admin(
    superuser_client: Client, game: Game
) -> None:
    assert superuser_client.get("/admin/games/game/add/").status_code == 403
    assert superuser_client.get(f"/admin/games/game/{game.id}/delete/").status_code == 403
    assert Game.objects.filter(pk=game.pk).exists()


def test_game_event_admin_has_no_write_permission(superuser_client: Client, game: Game) -> None:
    event_admin = admin.site._registry[GameEvent]
    request = RequestFactory().get("/admin/games/gameevent/")
    request.user = User.objects.get(username="root")
    assert not event_admin.has_add_permission(request)
    assert not event_admin.has_change_permission(request)
    assert not event_admin.has_delete_permission(request)
    event = GameEvent.objects.get(game=game, sequence=2)
    assert not event_admin.has_change_permission(request, event)
    assert not event_admin.has_delete_permission(request, event)
    assert event_admin.has_view_permission(request, event)


def test_game_events_can_be_browsed_not_changed(superuser_client: Client, game: Game) -> None:
    listing = superuser_client.get("/admin/games/gameevent/")
    assert listing.status_code == 200
    assert "RoundDealt" in listing.content.decode()
    event = GameEvent.objects.get(game=game, sequence=2)
    detail = superuser_client.get(f"/admin/games/gameevent/{event.pk}/change/")
    assert detail.status_code == 200  # read only
    payload = event.payload
    posted = superuser_client.post(
        f"/admin/games/gameevent/{event.pk}/change/",
        {"type": "Forged", "payload": "{}", "sequence": 9},
    )
    assert posted.status_code == 403
    assert superuser_client.get("/admin/games/gameevent/add/").status_code == 403
    assert superuser_client.get(f"/admin/games/gameevent/{event.pk}/delete/").status_code == 403
    bulk_delete = superuser_client.post(
        "/admin/games/gameevent/",
        {"action": "delete_selected", "_selected_action": [event.pk], "post": "yes"},
    )
    assert bulk_delete.status_code in (200, 302)
    event = GameEvent.objects.get(pk=event.pk)
    assert (event.type, event.payload, event.sequence) == ("PlayerJoined", payload, 2)
    assert GameEvent.objects.filter(game=game).count() == 4
