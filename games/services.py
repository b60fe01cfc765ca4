"""Use cases: create, join, act, read. The one place that appends events.

Every write goes through `_append`, inside a transaction that holds the game's row lock: it
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

from django.db import IntegrityError, transaction
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

from .auth import SeatCredential, hash_token, new_token, token_matches
from .models import Game, GameEvent, IdempotentResponse, Seat, Status
from .presenters import game_data
from .problems import Problem

SEED_BITS = 63

_STATUS_OF_PHASE = {
    engine_state.WAITING: Status.WAITING,
    engine_state.SETUP: Status.SETUP,
    engine_state.PLAYING: Status.PLAYING,
    engine_state.ROUND_ENDED: Status.PLAYING,
    engine_state.FINISHED: Status.FINISHED,
}


class ConcurrentUpdate(Problem):
    def __init__(self) -> None:
        super().__init__(409, "concurrent_update", "Another action changed the game; retry.")


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


def game_state(game: Game, at: int | None = None) -> GameState:
    """Replay the game's log (up to version `at`) through the engine."""
    return replay(stored_events(game, at))


def seat_of(game: Game, credential: SeatCredential | None, *, required: bool) -> int | None:
    """The seat `credential` stands for in `game`; 401 for a token of no seat of this game."""
    if credential is None:
        if required:
            raise Problem(401, "invalid_token", "This needs a seat token: 'Authorization: Bearer'.")
        return None
    found = None
    for seat, token_hash in Seat.objects.filter(game=game).values_list("seat", "token_hash"):
        if token_matches(token_hash, credential):  # constant time, every seat compared
            found = seat
    if found is None:
        raise Problem(401, "invalid_token", "This token is not a seat of this game.")
    return found


# Writing


def _append(game: Game, before: GameState, events: list[Event], after: GameState) -> None:
    """Insert `events` after version `before.version` and move the game's summary on."""
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
        status=_STATUS_OF_PHASE[after.phase],
        round=after.round,
        current_seat=after.current,
        players_joined=sum(1 for name in after.names if name is not None),
        updated_at=timezone.now(),
    )
    if moved != 1:
        raise ConcurrentUpdate()
    game.version = after.version
    game.status = _STATUS_OF_PHASE[after.phase]
    game.round = after.round
    game.current_seat = after.current


def _locked(game_id: object) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=_game_uuid(game_id))
    except Game.DoesNotExist:
        raise game_not_found(game_id) from None


def _write(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Run a write in a transaction; a lost race on (game, sequence) becomes a 409."""
    try:
        with transaction.atomic():
            return fn(*args, **kwargs)
    except IntegrityError:
        raise ConcurrentUpdate() from None


def create_game(*, seats: int, options: dict[str, Any] | None, seed: int | None) -> Game:
    rules = Options(**(options or {}))
    events = engine_create_game(seats, rules)  # validates seats and options (R2, R12)
    if seed is None:
        seed = secrets.randbits(SEED_BITS)

    def write() -> Game:
        game = Game.objects.create(seats=seats, options=rules.to_data(), seed=seed)
        empty = replay(())
        _append(game, empty, events, replay(events))
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
        _append(game, before, events, after)
        return Joined(game, seat, name, token, after)

    joined: Joined = _write(write)
    return joined


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
        _append(game, before, events, after)
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
