"""Use cases: create, join, act, read. The one place that appends events.

Every write goes through `append_events`, inside a transaction that holds the game's row lock: it
replays the log, asks the engine to `decide`, and inserts all the new events at the next
sequence numbers, then moves the game's version on only if it is still the one it read
(optimistic concurrency, with the unique (game, sequence) constraint as the last guard).
An action therefore appends all of its events or none, and a concurrent writer can never
fork the log or leave a gap.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, OperationalError, connection, transaction
from django.utils import timezone

from engine import (
    Event,
    GameState,
    Join,
    Options,
    SeededShuffler,
    TurnAction,
    act,
    event_from_data,
    event_to_data,
    event_type,
    replay,
    schema_version,
)
from engine import (
    create_game as engine_create_game,
)
from engine import state as engine_state
from engine.events import GameCreated, PlayerJoined
from engine.snapshot import StaleSnapshot, state_from_data, state_to_data

from .auth import SeatCredential, hash_token, new_token, token_matches
from .history import audit_events, history_events
from .models import Game, GameEvent, IdempotentResponse, Seat, Status
from .presenters import game_data
from .problems import CHALLENGE, Problem

SEED_BITS = 63

STATUS_OF_PHASE = {
    engine_state.WAITING: Status.WAITING,
    engine_state.SETUP: Status.SETUP,
    engine_state.PLAYING: Status.PLAYING,
    engine_state.ROUND_ENDED: Status.PLAYING,
    engine_state.FINISHED: Status.FINISHED,
}


class ConcurrentUpdate(Problem):
    def __init__(self) -> None:
        super().__init__(409, "concurrent_update", "Another action changed the game; retry.")


#: PostgreSQL's serialization failure, deadlock and lock-not-available.
_CONTENTION_SQLSTATES = frozenset({"40001", "40P01", "55P03"})


def game_not_found(game_id: object) -> Problem:
    return Problem(404, "game_not_found", f"There is no game {game_id}.")


# Reading


def _game_uuid(game_id: object) -> uuid.UUID:
    try:
        return game_id if isinstance(game_id, uuid.UUID) else uuid.UUID(str(game_id))
    except ValueError:
        raise game_not_found(game_id) from None


def get_game(game_id: object) -> Game:
    try:
        return Game.objects.get(pk=_game_uuid(game_id))
    except Game.DoesNotExist:
        raise game_not_found(game_id) from None


def stored_events(game: Game, upto: int | None = None) -> Iterable[Event]:
    """The game's events in order (upcast to the current schemas), up to version `upto`."""
    rows = GameEvent.objects.filter(game=game).order_by("sequence")
    if upto is not None:
        rows = rows.filter(sequence__lte=upto)
    for type_name, version, payload in rows.values_list("type", "schema_version", "payload"):
        yield event_from_data(type_name, payload, version)


def event_rows(game: Game, *, after: int, limit: int) -> list[tuple[int, str, int, Any, Any]]:
    """Stored events after sequence `after`: (sequence, type, schema version, payload, time)."""
    rows = GameEvent.objects.filter(game=game, sequence__gt=after).order_by("sequence")
    return list(
        rows.values_list("sequence", "type", "schema_version", "payload", "created_at")[:limit]
    )


def game_state(game: Game, at: int | None = None) -> GameState:
    """The game's state at its current version (or at version `at`).

    The current state comes from the game's snapshot when it was made at exactly the game's
    version; otherwise, and for any earlier version, the log is replayed (and the snapshot
    refreshed, so the next read is cheap again).
    """
    if at is not None and at != game.version:
        return replay(stored_events(game, at))
    if game.snapshot is not None and game.snapshot_version == game.version:
        try:
            return state_from_data(game.snapshot)
        except (StaleSnapshot, KeyError, TypeError, ValueError):
            pass  # disposable: rebuild it below
    state = replay(stored_events(game))
    if state.version == game.version:
        store_snapshot(game, state)
    return state


def store_snapshot(game: Game, state: GameState) -> None:
    """Save `state` as the snapshot of `game`, unless the game has moved on meanwhile."""
    data = state_to_data(state)
    Game.objects.filter(pk=game.pk, version=state.version).update(
        snapshot=data, snapshot_version=state.version
    )
    game.snapshot, game.snapshot_version = data, state.version


def replayed_state(game: Game) -> GameState:
    """The state from the log alone, ignoring any snapshot (the cold path, and audits)."""
    return replay(stored_events(game))


def seat_of(game: Game, credential: SeatCredential | None, *, required: bool) -> int | None:
    """The seat `credential` stands for in `game`; 401 for a token of no seat of this game."""
    if credential is None:
        if required:
            raise Problem(
                401,
                "invalid_token",
                "This needs a seat token: 'Authorization: Bearer'.",
                headers=CHALLENGE,
            )
        return None
    found = None
    # No ORDER BY: Seat's default ordering ("game", "seat") would join games_game and sort by
    # its created_at on every authenticated request, for rows compared in any order anyway.
    seats = Seat.objects.filter(game=game).order_by().values_list("seat", "token_hash")
    for seat, token_hash in seats:
        if token_matches(token_hash, credential):  # constant time, every seat compared
            found = seat
    if found is None:
        raise Problem(
            401, "invalid_token", "This token is not a seat of this game.", headers=CHALLENGE
        )
    return found


# Writing


def append_events(game: Game, before: GameState, events: list[Event], after: GameState) -> None:
    """Insert `events` after version `before.version` and move the game's summary and
    snapshot on, in the same UPDATE that checks the version it read."""
    snapshot = state_to_data(after)
    GameEvent.objects.bulk_create(
        GameEvent(
            game=game,
            sequence=before.version + offset,
            type=event_type(event),
            payload=event_to_data(event),
            schema_version=schema_version(event),
        )
        for offset, event in enumerate(events, start=1)
    )
    moved = Game.objects.filter(pk=game.pk, version=before.version).update(
        version=after.version,
        status=STATUS_OF_PHASE[after.phase],
        round=after.round,
        current_seat=after.current,
        players_joined=sum(1 for name in after.names if name is not None),
        updated_at=timezone.now(),
        snapshot=snapshot,
        snapshot_version=after.version,
    )
    if moved != 1:
        raise ConcurrentUpdate()
    game.version = after.version
    game.status = STATUS_OF_PHASE[after.phase]
    game.round = after.round
    game.current_seat = after.current
    game.snapshot, game.snapshot_version = snapshot, after.version


def _locked(game_id: object) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=_game_uuid(game_id))
    except Game.DoesNotExist:
        raise game_not_found(game_id) from None


def _is_contention(error: OperationalError) -> bool:
    """A write refused because another holds the lock: SQLite's "database (table) is locked"
    (its busy timeout spent, or at once between connections of a shared in-memory database),
    PostgreSQL's serialization failure, deadlock or lock timeout."""
    if getattr(error.__cause__, "sqlstate", None) in _CONTENTION_SQLSTATES:
        return True
    return connection.vendor == "sqlite" and "locked" in str(error)


def _write(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Run a write in a transaction; a lost race on (game, sequence) or on the database's
    write lock becomes a 409 (nothing was written: the transaction rolled back)."""
    try:
        with transaction.atomic():
            return fn(*args, **kwargs)
    except IntegrityError:
        raise ConcurrentUpdate() from None
    except OperationalError as error:
        if _is_contention(error):
            raise ConcurrentUpdate() from None
        raise


def create_game(*, seats: int, options: dict[str, Any] | None, seed: int | None) -> Game:
    rules = Options(**(options or {}))
    events = engine_create_game(seats, rules)  # validates seats and options (R2, R12)
    if seed is None:
        seed = secrets.randbits(SEED_BITS)

    def write() -> Game:
        game = Game.objects.create(seats=seats, options=rules.to_data(), seed=seed)
        empty = replay(())
        append_events(game, empty, events, replay(events))
        return game

    game: Game = _write(write)
    return game


@dataclass(frozen=True)
class Joined:
    game: Game
    seat: int
    name: str
    token: str
    state: GameState


def join_game(game_id: object, name: str) -> Joined:
    def write() -> Joined:
        game = _locked(game_id)
        before = game_state(game)
        events, after = act(before, None, Join(name), SeededShuffler(game.seed))
        seat = events[0].seat  # type: ignore[union-attr]
        token = new_token()
        Seat.objects.create(game=game, seat=seat, name=name, token_hash=hash_token(token))
        append_events(game, before, events, after)
        return Joined(game, seat, name, token, after)

    joined: Joined = _write(write)
    return joined


@dataclass(frozen=True)
class RotatedToken:
    seat: int
    name: str
    token: str


def rotate_token(game_id: object, seat: int, credential: SeatCredential | None) -> RotatedToken:
    """Replace `seat`'s token by a new one, authorised by its current token (401 for a token of
    no seat of this game, 403 for another seat's). The old token stops working at once.

    Tokens are not part of the game's log: no event is appended and the version stays.
    """

    def write() -> RotatedToken:
        game = _locked(game_id)  # the row lock orders this against joins and actions
        own = seat_of(game, credential, required=True)
        if own != seat:
            raise Problem(403, "forbidden", "A seat token may only rotate its own seat's token.")
        row = Seat.objects.select_for_update().get(game=game, seat=seat)
        token = new_token()
        row.token_hash = hash_token(token)
        row.save(update_fields=["token_hash"])
        return RotatedToken(seat, row.name, token)

    rotated: RotatedToken = _write(write)
    return rotated


@dataclass(frozen=True)
class ActionResult:
    game: Game
    seat: int
    version: int
    body: dict[str, Any]
    replayed: bool = False


def request_fingerprint(kind: str, payload: Any) -> str:
    canonical = json.dumps([kind, payload], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def perform_action(
    game_id: object,
    credential: SeatCredential | None,
    action: TurnAction,
    *,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    fingerprint: str = "",
) -> ActionResult:
    """Apply one turn action for the credential's seat; answer that seat's new view.

    `expected_version` (If-Match) refuses with 412 when the game has moved on.
    `idempotency_key` returns the first answer for a retried identical request.
    """

    def write() -> ActionResult:
        game = _locked(game_id)
        seat = seat_of(game, credential, required=True)
        assert seat is not None
        if idempotency_key is not None:
            earlier = IdempotentResponse.objects.filter(
                game=game, seat=seat, key=idempotency_key
            ).first()
            if earlier is not None:
                if earlier.request_hash != fingerprint:
                    raise Problem(
                        422,
                        "idempotency_key_reused",
                        "This Idempotency-Key was used for another request.",
                    )
                return ActionResult(game, seat, earlier.version, earlier.body, replayed=True)
        if expected_version is not None and expected_version != game.version:
            raise Problem(
                412,
                "version_mismatch",
                f"The game is at version {game.version}, not {expected_version}.",
                current_version=game.version,
            )
        before = game_state(game)
        events, after = act(before, seat, action, SeededShuffler(game.seed))
        append_events(game, before, events, after)
        body = game_data(game, after, seat)
        if idempotency_key is not None:
            IdempotentResponse.objects.create(
                game=game,
                seat=seat,
                key=idempotency_key,
                request_hash=fingerprint,
                status_code=200,
                body=body,
                version=after.version,
            )
        return ActionResult(game, seat, after.version, body)

    result: ActionResult = _write(write)
    return result


@dataclass(frozen=True)
class Imported:
    game: Game
    state: GameState
    seat_tokens: list[dict[str, Any]]


def import_history(document: Any) -> Imported:
    """A new game from a history document, every event audited by the rules first.

    A finished history becomes a finished game; an unfinished one becomes playable, with a new
    token for each joined seat and a new secret seed for the shuffles still to come.
    """
    events, state = audit_events(history_events(document))
    first = events[0]
    assert isinstance(first, GameCreated)
    options = first.options
    joined = [(e.seat, e.name) for e in events if isinstance(e, PlayerJoined)]
    finished = state.phase == engine_state.FINISHED

    def write() -> Imported:
        game = Game.objects.create(
            seats=first.seats, options=options.to_data(), seed=secrets.randbits(SEED_BITS)
        )
        tokens = []
        for seat, name in joined:
            token = new_token()
            Seat.objects.create(game=game, seat=seat, name=name, token_hash=hash_token(token))
            tokens.append({"seat": seat, "name": name, "token": token})
        append_events(game, replay(()), events, state)
        return Imported(game, state, [] if finished else tokens)

    imported: Imported = _write(write)
    return imported
