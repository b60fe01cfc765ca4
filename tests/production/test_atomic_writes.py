"""An action that fails half-way leaves nothing, with real commits and rollbacks (no test
transaction around them) and other processes watching: while the failing writer holds its
events and the game row it moved, uncommitted, the servers' readers do not see them and their
writers wait on that row; after the rollback the game goes on from where it was.

That the competing writer waited is shown, not assumed: on PostgreSQL it is seen waiting for a
lock (pg_locks) while the failing writer holds the row, and on both databases its answer comes
after the failing writer let go (SQLite shows no waiters, so there the order is the proof).

The failing action carries an Idempotency-Key, so its write is a transaction of two steps (the
append, then the stored answer) and the failure comes between them. (Without a key, an append
on PostgreSQL is one statement: there is no "between" to stop at. tests/core/test_services.py
fails the append itself, and injects these failures inside a test transaction.)
"""

from __future__ import annotations

import threading
import time
from typing import Any

import httpx
import pytest
from django.db import connection, connections

from engine import Reveal
from games import core, store
from games.core import idempotency
from games.core.tokens import SeatCredential
from games.models import GameEvent
from loadtest.server import RunningServer

from .support import assert_log_intact
from .test_concurrent_clients import GAMES, bearer, start_game

pytestmark = pytest.mark.django_db(transaction=True)


class Injected(Exception):
    """The failure injected between the append and the commit."""


WAITING_IN_THIS_DATABASE = """
    SELECT count(*) FROM pg_locks AS lock JOIN pg_stat_activity AS backend USING (pid)
    WHERE NOT lock.granted AND backend.datname = current_database()
"""


def a_writer_waits_for_a_lock(timeout: float) -> bool:
    """Whether, within `timeout`, a session of this database comes to wait for a lock (the
    competing write, queued behind the row the failing writer moved). PostgreSQL only."""
    deadline = time.monotonic() + timeout
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute(WAITING_IN_THIS_DATABASE)
            (waiting,) = cursor.fetchone() or (0,)
            if waiting:
                return True
            time.sleep(0.02)
    return False


def acted(game_id: str, credential: SeatCredential) -> idempotency.Answer:
    """A keyed action as the API performs it: the answer stored in the append's transaction."""
    result = core.perform_action(game_id, credential, Reveal(3, 2))
    return idempotency.Answer(200, result.body, result.version, result.game.id)


def test_a_failing_action_is_invisible_then_gone(
    servers: list[RunningServer], http: list[httpx.Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, tokens = start_game(http[0], 2, seed=41)
    reveal = "/api/v1/games/{}/actions/reveal"
    for token, positions in ((tokens[0], [(0, 0), (0, 1)]), (tokens[1], [(0, 0)])):
        for column, row in positions:
            answer = http[0].post(
                reveal.format(game_id), json={"column": column, "row": row}, headers=bearer(token)
            )
            assert answer.status_code == 200, answer.text
    before = assert_log_intact(game_id)

    inserted, proceed = threading.Event(), threading.Event()
    original = store.append

    def append(
        game: Any, from_version: int, events: list[store.NewEvent], *args: Any, **kwargs: Any
    ) -> bool:
        assert original(game, from_version, events, *args, **kwargs)
        inserted.set()
        proceed.wait(timeout=30)
        raise Injected(f"after appending {len(events)} events")

    monkeypatch.setattr(store, "append", append)
    outcome: list[BaseException | None] = []

    def failing_writer() -> None:  # the last setup reveal appends 2 events (reveal, play starts)
        try:
            credential = SeatCredential(tokens[1])
            keyed = core.seat_key(game_id, credential, "once", "reveal 3 2")
            idempotency.run(keyed, lambda _: acted(game_id, credential))
            outcome.append(None)
        except BaseException as error:
            outcome.append(error)
        finally:
            connections.close_all()

    competing: list[httpx.Response] = []
    sent, answered_at = threading.Event(), [0.0]

    def competing_writer() -> None:  # the same seat's same step, through the other server
        hooks = {"request": [lambda _request: sent.set()]}
        with httpx.Client(base_url=servers[1].url, timeout=60, event_hooks=hooks) as client:
            competing.append(
                client.post(
                    reveal.format(game_id), json={"column": 1, "row": 1}, headers=bearer(tokens[1])
                )
            )
        answered_at[0] = time.monotonic()

    writer = threading.Thread(target=failing_writer)
    writer.start()
    other = threading.Thread(target=competing_writer)
    try:
        assert inserted.wait(timeout=30), "the writer did not reach its inserts"
        # Mid-write: both events are in the writer's transaction, not committed.
        spectator = http[0].get(f"{GAMES}/{game_id}").json()
        assert (spectator["version"], spectator["status"]) == (before.version, "setup")
        feed = http[1].get(f"{GAMES}/{game_id}/events", params={"after": 0}).json()
        assert [e["sequence"] for e in feed["events"]] == list(range(1, before.version + 1))
        other.start()
        assert sent.wait(timeout=30), "the competing writer sent nothing"
        if connection.vendor == "postgresql":
            assert a_writer_waits_for_a_lock(timeout=30), "the competing writer never waited"
        assert not competing, "a competing writer went past the game row's lock"
    finally:
        released_at = time.monotonic()
        proceed.set()
        writer.join(timeout=30)
        if other.ident is not None:
            other.join(timeout=60)
    assert len(outcome) == 1 and isinstance(outcome[0], Injected), outcome
    # Rolled back: the competing action went on from the same version, with both its events.
    assert competing and competing[0].status_code == 200, competing
    assert answered_at[0] > released_at, "the competing write landed before the rollback"
    after = assert_log_intact(game_id)
    assert after.version == before.version + 2 == competing[0].json()["version"]
    assert after.status == "playing"
    types = list(
        GameEvent.objects.filter(game_id=game_id, sequence__gt=before.version)
        .order_by("sequence")
        .values_list("type", flat=True)
    )
    assert types == ["CardRevealed", "PlayStarted"]
    grid = competing[0].json()["players"][1]["grid"]
    assert grid[1][1]["state"] == "face_up" and grid[3][2]["state"] == "face_down"
