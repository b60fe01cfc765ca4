"""The admin shows challenges, seeks and chats, and changes none of them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from accounts.services import sign_up
from games import core
from play.models import Challenge, ChatMessage, Invitation, Seek

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser_client(django_user_model: type[User]) -> Client:
    user = django_user_model.objects.create_superuser("root", "root@example.com", "x")
    client = Client()
    client.force_login(user)
    return client


def test_challenges_seeks_and_chats_are_browsed_not_changed(superuser_client: Client) -> None:
    ada = sign_up("ada-bot", "bot", None).account
    bob = sign_up("bob-bot", "bot", None).account
    game = core.create_game(seats=2, options=None, seed=None, listed=False)
    soon = timezone.now() + timedelta(minutes=5)
    challenge = Challenge.objects.create(game=game, challenger=ada, expires_at=soon)
    Invitation.objects.create(challenge=challenge, account=bob)
    seek = Seek.objects.create(
        account=bob, seats_min=2, seats_max=4, seen_at=timezone.now(), expires_at=soon
    )
    ChatMessage.objects.create(game=game, sequence=1, room="spectators", name="ada", text="hi")
    pages = {
        "challenge": challenge.pk,
        "seek": seek.pk,
        "chatmessage": ChatMessage.objects.get().pk,
    }
    for model, pk in pages.items():
        assert superuser_client.get(f"/admin/play/{model}/").status_code == 200
        assert superuser_client.get(f"/admin/play/{model}/{pk}/change/").status_code == 200
        assert superuser_client.get(f"/admin/play/{model}/add/").status_code == 403
    page = superuser_client.get(f"/admin/play/challenge/{challenge.pk}/change/").content
    assert b"bob-bot" in page
