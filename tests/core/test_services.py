"""The write path: every action appends all of its events or none, the summary row follows the
log, and lost races become 409s rather than forks, gaps or 500s."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from django.db import OperationalError, connection
from rest_framework.test import APIClient

from engine import Reveal, replay, view
from games import core, store
from games.core import lobby, turns
from games.core.tokens import SeatCredential
from games.models import Game, GameEvent, IdempotentResponse, Seat
from games.store import log
from games.store.errors import is_contention
from tests.api.support import (
    GAMES,
    act,
    assert_problem,
    create_game,
    finished_game,
    get_view,
    send,
    setup_reveals,
    start_game,
    without_identity,
)

pytestmark = pytest.mark.django_db


class Injected(Exception):
    """The failure a test injects in the middle of a write."""


def snapshot(game_id: str) -> tuple[Any, ...]:
    game = Game.objects.get(pk=game_id)
    return (
        list(GameEvent.objects.filter(game=game).order_by("sequence").values_list("id", "payload")),
        (game.version, game.status, game.round, game.current_seat, game.players_joined),
        list(Seat.objects.filter(game=game).values_list("seat", "name")),
        IdempotentResponse.objects.filter(game=game).count(),
    )


@pytest.fixture
def failing_client() -> APIClient:
    """A client that answers a server error as a 500 response instead of raising it."""
    return APIClient(raise_request_exception=False)


def fail_on_the_last_event(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The last event of the next write is stored with a schema version its column's CHECK
    refuses: the database fails the write after taking its first event and moving the game
    row (one statement on PostgreSQL, a transaction on SQLite). Answers how many events each
    failed write held."""
    held: list[int] = []
    original: Callable[..., bool] = store.append

    def append(
        game_id: Any, from_version: int, events: list[store.NewEvent], *args: Any, **kwargs: Any
    ) -> bool:
        held.append(len(events))
        broken = replace(events[-1], schema_version=-1)
        return original(game_id, from_version, [*events[:-1], broken], *args, **kwargs)

    monkeypatch.setattr(store, "append", append)
    return held


def fail_after_append(monkeypatch: pytest.MonkeyPatch) -> None:
    """`core.append_events` does all of its work (events and summary row), then raises:
    the write it belongs to (with the seat's row, the stored answer) is rolled back."""
    original: Callable[..., None] = core.append_events

    def append(*args: Any, **kwargs: Any) -> None:
        original(*args, **kwargs)
        raise Injected("after the append")

    for use_case in (turns, lobby):  # an action's append, a join's
        monkeypatch.setattr(use_case, "append_events", append)


@pytest.mark.parametrize("inject", [fail_on_the_last_event, fail_after_append])
def test_a_failing_action_leaves_no_event(
    api: APIClient,
    failing_client: APIClient,
    monkeypatch: pytest.MonkeyPatch,
    inject: Callable[[pytest.MonkeyPatch], Any],
) -> None:
    game_id, tokens = start_game(api, 2, seed=8)
    # The last setup reveal writes two events (CardRevealed, PlayStarted) in one action.
    act(api, game_id, tokens[0], {"action": "reveal", "column": 0, "row": 0})
    act(api, game_id, tokens[0], {"action": "reveal", "column": 0, "row": 1})
    act(api, game_id, tokens[1], {"action": "reveal", "column": 0, "row": 0})
    before = snapshot(game_id)
    served = get_view(api, game_id, tokens[1])
    held = inject(monkeypatch)
    last = {"action": "reveal", "column": 0, "row": 1}
    response = send(failing_client, game_id, tokens[1], last, HTTP_IDEMPOTENCY_KEY="k")
    assert_problem(response, 500, "server_error")
    if held is not None:
        assert held == [2]  # the write held both events when the failure came
    assert snapshot(game_id) == before
    assert get_view(api, game_id, tokens[1]) == served
    monkeypatch.undo()
    # Nothing was half done: the same action now succeeds, with both of its events.
    answer = act(api, game_id, tokens[1], last, HTTP_IDEMPOTENCY_KEY="k")
    assert answer["status"] == "playing" and answer["version"] == served["version"] + 2


@pytest.mark.parametrize("inject", [fail_on_the_last_event, fail_after_append])
def test_a_failing_join_leaves_no_seat(
    api: APIClient,
    failing_client: APIClient,
    monkeypatch: pytest.MonkeyPatch,
    inject: Callable[[pytest.MonkeyPatch], Any],
) -> None:
    game_id = create_game(api, 2)["id"]
    api.post(f"{GAMES}/{game_id}/players", {"name": "Ada"}, format="json")
    before = snapshot(game_id)
    inject(monkeypatch)
    response = failing_client.post(f"{GAMES}/{game_id}/players", {"name": "Bo"}, format="json")
    assert_problem(response, 500, "server_error")
    assert snapshot(game_id) == before  # no seat, no PlayerJoined, no RoundDealt


def test_a_failing_action_without_idempotency_key_leaves_no_event(
    api: APIClient, failing_client: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without an Idempotency-Key the append is the whole write (on PostgreSQL one statement,
    no transaction around it): a failure inside it still leaves nothing."""
    game_id, tokens = start_game(api, 2, seed=8)
    act(api, game_id, tokens[0], {"action": "reveal", "column": 0, "row": 0})
    act(api, game_id, tokens[0], {"action": "reveal", "column": 0, "row": 1})
    act(api, game_id, tokens[1], {"action": "reveal", "column": 0, "row": 0})
    before = snapshot(game_id)
    assert fail_on_the_last_event(monkeypatch) == []
    last = {"action": "reveal", "column": 0, "row": 1}
    assert_problem(send(failing_client, game_id, tokens[1], last), 500, "server_error")
    assert snapshot(game_id) == before
    monkeypatch.undo()
    assert act(api, game_id, tokens[1], last)["status"] == "playing"


def test_a_failing_creation_leaves_no_game(
    failing_client: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    fail_on_the_last_event(monkeypatch)
    response = failing_client.post(GAMES, {"seats": 2}, format="json")
    assert_problem(response, 500, "server_error")
    assert not Game.objects.exists() and not GameEvent.objects.exists()


def test_an_event_already_at_the_next_sequence_is_a_conflict(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The unique (game, sequence) constraint is the last guard against a fork: a writer
    that read the log just before another inserted its event cannot insert beside it."""
    game_id, tokens = start_game(api, 2, seed=9)
    game = Game.objects.get(pk=game_id)
    original = core.game_state
    monkeypatch.setattr(
        turns,
        "game_state",
        lambda game, at=None: original(game, game.version if at is None else at),
    )
    GameEvent.objects.create(  # the other writer's event, its game row not yet moved on
        game=game, sequence=game.version + 1, type="CardRevealed", payload={}, schema_version=1
    )
    before = snapshot(game_id)
    response = send(api, game_id, tokens[0], {"action": "reveal", "column": 0, "row": 0})
    assert_problem(response, 409, "concurrent_update")
    assert snapshot(game_id) == before


def test_a_game_moved_on_behind_the_reader_is_a_conflict(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The summary row moves only from the version the action read (optimistic check)."""
    game_id, tokens = start_game(api, 2, seed=10)
    original = core.game_state

    def stale_read(game: Game, at: int | None = None) -> Any:
        state = original(game, at)
        Game.objects.filter(pk=game.pk).update(version=game.version + 1)  # another writer
        return state

    monkeypatch.setattr(turns, "game_state", stale_read)
    events = GameEvent.objects.filter(game_id=game_id).count()
    response = send(api, game_id, tokens[0], {"action": "reveal", "column": 0, "row": 0})
    assert_problem(response, 409, "concurrent_update")
    assert GameEvent.objects.filter(game_id=game_id).count() == events


class DriverError(Exception):
    """What a database driver raises; PostgreSQL's carry an SQLSTATE."""

    def __init__(self, sqlstate: str) -> None:
        super().__init__(sqlstate)
        self.sqlstate = sqlstate


def lock_error(message: str) -> OperationalError:
    """The error this database gives when it cannot get a lock (as Django wraps it)."""
    error = OperationalError(message)
    if connection.vendor != "sqlite":
        error.__cause__ = DriverError("55P03")
    return error


@pytest.mark.parametrize("message", ["database is locked", "database table is locked"])
def test_a_write_lock_not_obtained_is_a_conflict(
    api: APIClient, monkeypatch: pytest.MonkeyPatch, message: str
) -> None:
    game_id, tokens = start_game(api, 2, seed=12)
    before = snapshot(game_id)

    def locked(*args: Any, **kwargs: Any) -> bool:
        raise lock_error(message)

    monkeypatch.setattr(store, "append", locked)
    response = send(api, game_id, tokens[0], {"action": "reveal", "column": 0, "row": 0})
    assert_problem(response, 409, "concurrent_update")
    assert snapshot(game_id) == before


def test_postgresql_lock_failures_are_contention() -> None:
    for sqlstate in ("40001", "40P01", "55P03"):
        error = OperationalError("could not serialize access")
        error.__cause__ = DriverError(sqlstate)
        assert is_contention(error)
    other = OperationalError("connection refused")
    other.__cause__ = DriverError("08006")
    assert not is_contention(other)


def test_other_database_errors_are_not_hidden(
    failing_client: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, tokens = start_game(failing_client, 2, seed=13)

    def broken(*args: Any, **kwargs: Any) -> bool:
        raise OperationalError("disk I/O error")

    monkeypatch.setattr(store, "append", broken)
    response = send(failing_client, game_id, tokens[0], {"action": "reveal", "column": 0, "row": 0})
    assert_problem(response, 500, "server_error")


def test_the_summary_row_follows_the_log(api: APIClient) -> None:
    game_id, tokens = start_game(api, 3, seed=14)
    setup_reveals(api, game_id, tokens)
    seat = get_view(api, game_id)["current_seat"]
    act(api, game_id, tokens[seat], {"action": "draw"})
    game = Game.objects.get(pk=game_id)
    state = core.game_state(game)
    assert (game.version, game.status, game.round, game.current_seat, game.players_joined) == (
        state.version,
        state.phase,
        state.round,
        state.current,
        3,
    )
    assert (game.totals, game.winners) == ([0, 0, 0], None)
    last = GameEvent.objects.get(game=game, sequence=game.version)
    assert game.updated_at == last.created_at
    # Any earlier version replays too, and the log replays to what is served.
    assert core.game_state(game, at=1).seats == 3
    assert view(state, seat).to_data() == without_identity(get_view(api, game_id, tokens[seat]))


def test_the_summary_row_holds_the_totals_and_winners_of_a_finished_game(
    api: APIClient,
) -> None:
    game_id, _ = finished_game(api, 3)
    game = Game.objects.get(pk=game_id)  # written by the hand-written append, read by the ORM
    state = replay(log.engine_events(game))
    assert game.totals == list(state.totals) and len(game.totals) == 3
    assert game.winners == list(state.winners) and game.winners


@pytest.mark.django_db(transaction=True)  # the racing action commits on its own
def test_a_write_that_lost_a_race_decides_again_on_the_new_state(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No lock is held while deciding: when another action lands between this one's read and
    its write, this one's write changes nothing, and it reads again and decides again; still
    legal (both seats reveal in setup), it lands after the other."""
    game_id, tokens = start_game(api, 2, seed=15)
    original = core.game_state
    reads: list[int] = []

    def racing_read(game: Game, at: int | None = None) -> Any:
        state = original(game, at)
        reads.append(state.version)
        if len(reads) == 1:  # the other seat's reveal lands after this read
            core.perform_action(game_id, SeatCredential(tokens[1]), Reveal(2, 2))
        return state

    monkeypatch.setattr(turns, "game_state", racing_read)
    answer = act(api, game_id, tokens[0], {"action": "reveal", "column": 0, "row": 0})
    start = reads[0]
    assert reads == [start, start, start + 1]  # read, the racer's read, read again
    assert answer["version"] == start + 2
    logged = GameEvent.objects.filter(game_id=game_id, sequence__gt=start).order_by("sequence")
    assert [(e.type, e.payload["seat"]) for e in logged] == [
        ("CardRevealed", 1),
        ("CardRevealed", 0),
    ]


@pytest.mark.django_db(transaction=True)  # the racing action commits on its own
def test_only_a_write_that_lost_a_race_waits_for_the_games_lock(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first attempt decides without a lock (a lone writer's fast path); once it has lost a
    race, the action reads and decides again in a transaction holding the game's write lock,
    so that no third writer can make it lose again (a burst of seats acting at once)."""
    game_id, tokens = start_game(api, 2, seed=16)
    original_read, original_lock = core.game_state, store.lock_game
    reads: list[tuple[int, bool]] = []  # (version read, inside a transaction)
    locked: list[Any] = []

    def racing_read(game: Game, at: int | None = None) -> Any:
        state = original_read(game, at)
        reads.append((state.version, connection.in_atomic_block))
        if len(reads) == 1:  # the other seat's reveal lands after this read
            core.perform_action(game_id, SeatCredential(tokens[1]), Reveal(2, 2))
        return state

    def lock(game: Any) -> None:
        locked.append(str(game))
        original_lock(game)

    monkeypatch.setattr(turns, "game_state", racing_read)
    monkeypatch.setattr(store, "lock_game", lock)
    act(api, game_id, tokens[0], {"action": "reveal", "column": 0, "row": 0})
    start = reads[0][0]
    assert reads == [(start, False), (start, False), (start + 1, True)]
    assert locked == [game_id]  # by the second attempt only
    act(api, game_id, tokens[1], {"action": "reveal", "column": 1, "row": 1})
    assert locked == [game_id]  # alone, no lock
