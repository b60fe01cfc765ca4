"""Play's letters racing the others' on PostgreSQL: a letter is numbered after its account's
last one, so a use case writing to an inbox another transaction is writing to (a busy bot
account's `your_turn`, say) waits for that transaction, then collides on the unique (account,
sequence) index. Each of play's use cases that writes letters tries again, reading afresh,
rather than failing with a 500: a challenge made, accepted, declined, canceled or expired, a
rematch, a match. Real threads, each its own connection; SQLite's one writer never races."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, connections, transaction
from rest_framework.test import APIClient

import play
from accounts import services
from accounts.credentials import AccountCredential
from accounts.inbox import Letter, deliver
from games.core import clock
from games.core.tokens import SeatCredential
from play import ChallengeRequest
from play.matcher import match
from play.models import Challenge, ChallengeStatus, SeekStatus
from tests.play.seek_support import fresh, seek
from tests.play.support import account, finished, letters

pytestmark = pytest.mark.django_db(transaction=True)

#: The letter another transaction is writing to the inbox when the use case writes its own.
BUSY = "your_turn"
#: Seconds the other transaction waits for the use case's statement to wait on it.
PATIENCE = 10


@pytest.fixture(autouse=True)
def _postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("SQLite's writers take turns: no two number a letter at once")


def credential(handle: str) -> AccountCredential:
    return services.session_credential(services.sign_up(handle, "bot", None).account)


def someone_waits() -> bool:
    """Whether a statement of another connection waits for a lock (this one's transaction)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE NOT granted")
        (waiting,) = cursor.fetchone()
    return bool(waiting)


@contextmanager
def letter_in_flight(handle: str) -> Iterator[None]:
    """A letter to `handle` written by another connection's transaction that commits only once
    a statement waits for it (or the `with` ends): the use case run in the `with` numbers its
    own letter to `handle` as this one, waits for it, and loses the number when it commits."""
    written, ended, failures = threading.Event(), threading.Event(), []

    def write() -> None:
        try:
            with transaction.atomic():
                deliver([Letter(handle, BUSY, {"game": "elsewhere"})])
                written.set()
                deadline = time.monotonic() + PATIENCE
                while not (ended.is_set() or someone_waits() or time.monotonic() > deadline):
                    time.sleep(0.01)
        except Exception as error:  # pragma: no cover - told below
            failures.append(error)
        finally:
            written.set()
            connections.close_all()

    writer = threading.Thread(target=write)
    writer.start()
    assert written.wait(PATIENCE)
    try:
        yield
    finally:
        ended.set()
        writer.join(PATIENCE * 2)
    assert not failures, failures


def numbered(handle: str) -> list[str]:
    """The types of the account's letters, in their numbers' order (1, 2, 3... with no gap)."""
    found = letters(handle)
    return [kind for kind, _ in found]


def racing(handle: str, use_case: Callable[[], Any]) -> Any:
    """`use_case`'s answer, run while another transaction writes a letter to `handle`."""
    with letter_in_flight(handle):
        return use_case()


def test_a_challenge_to_a_busy_account_is_made() -> None:
    ada, _ = credential("ada"), credential("bob")
    made = racing("bob", lambda: play.create_challenge(ada, ChallengeRequest(["bob"], seats=2)))
    assert made.status == ChallengeStatus.PENDING
    assert numbered("bob") == [BUSY, "challenge"]


@pytest.mark.parametrize("verb", ["accept", "decline"])
def test_an_answer_while_the_challenger_is_busy_lands(verb: str) -> None:
    ada, bob = credential("ada"), credential("bob")
    made = play.create_challenge(ada, ChallengeRequest(["bob"], seats=2))
    answer = play.accept_challenge if verb == "accept" else play.decline_challenge
    answered = racing("ada", lambda: answer(bob, made.id))
    status = "accepted" if verb == "accept" else "declined"
    assert answered.status == status
    assert numbered("ada")[:2] == [BUSY, f"challenge_{status}"]


def test_a_cancel_while_an_invitee_is_busy_lands() -> None:
    ada, _ = credential("ada"), credential("bob")
    made = play.create_challenge(ada, ChallengeRequest(["bob"], seats=2))
    assert racing("bob", lambda: play.cancel_challenge(ada, made.id)).status == "canceled"
    assert numbered("bob") == ["challenge", BUSY, "challenge_canceled"]


def test_an_expiry_while_the_challenger_is_busy_lands(monkeypatch: pytest.MonkeyPatch) -> None:
    ada, _ = credential("ada"), credential("bob")
    made = play.create_challenge(ada, ChallengeRequest(["bob"], seats=2, expires_in=10))
    later = made.expires_at + timedelta(seconds=1)
    monkeypatch.setattr(clock, "now", lambda: later)
    assert racing("ada", lambda: play.expire_challenge(made.id)) is True
    assert Challenge.objects.get(pk=made.id).status == ChallengeStatus.EXPIRED
    assert numbered("ada") == [BUSY, "challenge_canceled"]


def test_a_rematch_offered_to_a_busy_account_is_made(api: APIClient) -> None:
    bob = account("bob")
    old, (ada, _) = finished(api, ["Ada", bob])
    assert ada is not None
    before = numbered("bob")
    done = racing("bob", lambda: play.rematch(old, SeatCredential(ada)))
    assert done.created and done.token is not None
    assert numbered("bob") == [*before, BUSY, "rematch_offered"]


def test_a_match_of_a_busy_seeker_starts() -> None:
    ada, bob = credential("ada"), credential("bob")
    first, second = seek(ada), seek(bob)
    assert racing("ada", match) == 2
    assert fresh(first).status == fresh(second).status == SeekStatus.MATCHED
    assert numbered("ada")[:2] == [BUSY, "seek_matched"]
