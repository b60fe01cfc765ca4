"""Play's times are the service's clock's (`games.core.clock.now`), as the times they are
compared with: a challenge's creation and expiry, a chat message's time and its sender's burst
window, a seek's creation. A test that moves the clock (an hour on, here) sees them move with
it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from rest_framework.test import APIClient

import play
from accounts import services
from accounts.credentials import AccountCredential
from games.core.resources import iso_time
from games.core.tokens import SeatCredential
from play import ChallengeRequest
from play.errors import ChatThrottled
from play.models import ChatMessage
from tests.api.bots_support import Clock
from tests.api.support import start_game
from tests.play.seek_support import seek

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """The service's clock, an hour ahead of the wall's."""
    moved = Clock(monkeypatch)
    moved.advance(3600)
    return moved


def credential(handle: str) -> AccountCredential:
    return services.session_credential(services.sign_up(handle, "bot", None).account)


def test_a_challenge_is_made_at_the_service_s_time(clock: Clock) -> None:
    ada, _ = credential("ada"), credential("bob")
    made = play.create_challenge(ada, ChallengeRequest(["bob"], seats=2, expires_in=60))
    assert made.created_at == clock.now
    assert made.expires_at - made.created_at == timedelta(seconds=60)
    assert play.challenge_data(made)["created_at"] == iso_time(clock.now)


def test_a_seek_is_made_at_the_service_s_time(clock: Clock) -> None:
    assert seek(credential("ada")).created_at == clock.now


def test_a_chat_message_is_written_and_counted_at_the_service_s_time(
    api: APIClient, clock: Clock, settings: Any
) -> None:
    settings.SKYJO_CHAT_BURST, settings.SKYJO_CHAT_BURST_SECONDS = 2, 10
    game_id, tokens = start_game(api)
    author = play.writer(game_id, SeatCredential(tokens[0]))
    assert play.post_message(author, "players", "one")["at"] == iso_time(clock.now)
    play.post_message(author, "players", "two")
    with pytest.raises(ChatThrottled):  # the two are within the window, by the same clock
        play.post_message(author, "players", "three")
    clock.advance(10)
    play.post_message(author, "players", "three")
    assert ChatMessage.objects.filter(game_id=game_id).count() == 3
