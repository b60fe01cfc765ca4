"""Challenges raced from real threads (each its own database connection, as workers and
requests are): a challenge closes once whatever races for it. Any number of expiry jobs at
once expire it once; an accept racing a cancel (or a decline, or the expiry) either seats the
invitee in a game that then deals, or is refused on a game called off: never both, never a
half of either. On PostgreSQL too (DATABASE_URL), where the row's lock is what serializes."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from functools import partial
from typing import Any

import pytest
from django.db import connections

from accounts import services
from accounts.credentials import AccountCredential
from games.core import clock
from games.models import GameEvent
from play import ChallengeRequest, accept_challenge, cancel_challenge, create_challenge
from play.challenges import expire_challenge
from play.errors import ChallengeClosed
from play.models import Challenge
from tests.play.support import letters

pytestmark = pytest.mark.django_db(transaction=True)


def credential(handle: str) -> AccountCredential:
    return services.session_credential(services.sign_up(handle, "bot", None).account)


def race(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls at once, one thread each: each one's result, or the exception it raised."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int) -> None:
        try:
            barrier.wait(timeout=10)
            results[index] = calls[index]()
        except Exception as error:
            results[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def test_many_expiry_jobs_at_once_expire_a_challenge_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ada, _ = credential("ada"), credential("bob")
    made = create_challenge(ada, ChallengeRequest(players=["bob"], seats=2, expires_in=10))
    later = made.expires_at + timedelta(seconds=1)
    monkeypatch.setattr("games.core.clock.now", lambda: later)
    results = race(*[partial(expire_challenge, made.id)] * 6)
    assert sorted(results) == [False] * 5 + [True], results
    assert GameEvent.objects.filter(game_id=made.game_id, type="GameCanceled").count() == 1
    assert len(letters("bob", "challenge_canceled")) == 1


@pytest.mark.parametrize("closer", ["cancel", "expire"])
def test_an_accept_racing_a_close_is_all_or_nothing(
    closer: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ada, bob = credential("ada"), credential("bob")
    if closer == "expire":
        # Past every challenge's time; the accept still finds each pending (it came in time:
        # it reaches the row as the job does), so the row's lock alone decides.
        later = clock.now() + timedelta(seconds=11)
        monkeypatch.setattr("play.challenges.clock.now", lambda: later)
        monkeypatch.setattr("play.challenges.status_of", lambda c: str(c.status))
    for attempt in range(5):
        made = create_challenge(ada, ChallengeRequest(players=["bob"], seats=2, expires_in=10))
        if closer == "expire":
            close: Callable[[], Any] = partial(expire_challenge, made.id)
        else:
            close = partial(cancel_challenge, ada, made.id)
        accepted, closed = race(partial(accept_challenge, bob, made.id), close)
        status = Challenge.objects.get(pk=made.id).status
        events = list(GameEvent.objects.filter(game_id=made.game_id).values_list("type", flat=True))
        if isinstance(accepted, Challenge):  # the accept won: the game dealt, the close refused
            assert status == "accepted", attempt
            assert "RoundDealt" in events and "GameCanceled" not in events
            assert isinstance(closed, ChallengeClosed) or closed is False
        else:  # the close won: the accept was refused, no seat taken
            assert isinstance(accepted, ChallengeClosed), accepted
            assert status in ("canceled", "expired")
            assert events.count("PlayerJoined") == 1 and events[-1] == "GameCanceled"
