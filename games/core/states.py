"""The state of a game at a version: from its snapshot, its checkpoints or a replay of its log
(the log is the truth; snapshots and checkpoints only make a read cheaper), and this process's
memory of warm games.
"""

from __future__ import annotations

import orjson
from django.conf import settings
from django.db import IntegrityError, OperationalError

from engine import (
    EMPTY,
    Event,
    GameState,
    SeededShuffler,
    replay,
)
from engine import state as engine_state
from engine.snapshot import StaleSnapshot, state_from_data, state_to_data
from games import store
from games.core.tokens import Credential
from games.models import Game, Status
from games.store import log
from games.store.warm import WARM

STATUS_OF_PHASE = {
    engine_state.WAITING: Status.WAITING,
    engine_state.SETUP: Status.SETUP,
    engine_state.PLAYING: Status.PLAYING,
    engine_state.ROUND_ENDED: Status.PLAYING,
    engine_state.FINISHED: Status.FINISHED,
    engine_state.CANCELED: Status.CANCELED,
}


def game_state(game: Game, at: int | None = None) -> GameState:
    """The game's state at its current version (or at version `at`).

    The current state comes from the game's snapshot when it was made at exactly the game's
    version; otherwise the log is replayed (and the snapshot refreshed, so the next read is
    cheap again). An earlier version is folded from the nearest checkpoint (`state_at`).
    """
    if at is not None and at != game.version:
        return state_at(game, at)
    if game.snapshot is not None and game.snapshot_version == game.version:
        try:
            return state_from_data(orjson.loads(game.snapshot))
        except (StaleSnapshot, KeyError, TypeError, ValueError):  # orjson's errors are too
            pass  # disposable: rebuild it below
    state = replay(log.engine_events(game))
    if state.version == game.version:
        store_snapshot(game, state)
    return state


def seat_state(game: Game, credential: Credential | None, seat: int | None) -> GameState:
    """The game's current state, read for `seat` (None: a spectator); this process then
    remembers it for the seat's next action (`games.warm`)."""
    state = game_state(game)
    update_memory(game, seat, credential, state)
    return state


def store_snapshot(game: Game, state: GameState) -> None:
    """Save `state` as the snapshot of `game`, unless the game has moved on meanwhile."""
    text = snapshot_text(state)
    Game.objects.filter(pk=game.pk, version=state.version).update(
        snapshot=text, snapshot_version=state.version
    )
    game.snapshot, game.snapshot_version = text, state.version


def snapshot_text(state: GameState) -> str:
    """`state` as the JSON text of its snapshot (`Game.snapshot`)."""
    return orjson.dumps(state_to_data(state)).decode()


def checkpoint_every() -> int:
    """Events between two checkpoints of a game's state (0: no checkpoints)."""
    return max(0, int(settings.REPLAY_CHECKPOINT_EVERY))


def state_at(game: Game, at: int) -> GameState:
    """The game's state at version `at`: its nearest checkpoint at or before `at`, then a fold
    of the (fewer than `checkpoint_every()`) events after it, so that a replay's cost does not
    grow with the log. Without a usable checkpoint the fold starts from the log's start, and
    saves the checkpoints it passes (games older than checkpoints, a lost or stale one)."""
    every = checkpoint_every()
    if not every:
        return replay(log.engine_events(game, 0, at))
    start = _checkpoint_state(game, at)
    state, passed = fold_with_checkpoints(start, log.engine_events(game, start.version, at), every)
    if passed:
        _save_checkpoints_quietly(game, passed)
    return state


def _checkpoint_state(game: Game, at: int) -> GameState:
    """The state of the game's nearest checkpoint at or before `at`; the empty state (the
    log's start) when there is none or it cannot be read (another snapshot format)."""
    found = store.nearest_checkpoint(game.id, at)
    if found is None:
        return EMPTY
    version, text = found
    try:
        state = state_from_data(orjson.loads(text))
    except (StaleSnapshot, KeyError, TypeError, ValueError):  # orjson's errors are too
        return EMPTY
    return state if state.version == version else EMPTY


def fold_with_checkpoints(
    start: GameState, events: list[Event], every: int
) -> tuple[GameState, list[tuple[int, str]]]:
    """`events` folded onto `start`, and the snapshot text of each state on the way at a
    version that is a multiple of `every` (version, text)."""
    state, done = start, 0
    passed: list[tuple[int, str]] = []
    while True:
        step = every - state.version % every  # events to the next multiple
        if done + step > len(events):
            return replay(events[done:], state), passed
        state = replay(events[done : done + step], state)
        done += step
        passed.append((state.version, snapshot_text(state)))


def _save_checkpoints_quietly(game: Game, checkpoints: list[tuple[int, str]]) -> None:
    """Save checkpoints a read passed; a cache, so a write that fails (the database busy with
    another writer) is given up: a later read will save them."""
    try:
        with store.atomic():
            store.save_checkpoints(game.id, checkpoints)
    except (OperationalError, IntegrityError):
        pass


def new_checkpoints(
    before: GameState, events: list[Event], after: GameState
) -> list[tuple[int, str]]:
    """The checkpoints an append from `before` to `after` passes (most pass none: this costs
    a comparison then)."""
    every = checkpoint_every()
    if not every or after.version // every == before.version // every:
        return []
    return fold_with_checkpoints(before, events, every)[1]


def update_memory(
    game: Game, seat: int | None, credential: Credential | None, state: GameState | None
) -> None:
    """The one place this process's memory of warm games (`games.warm`) changes: `state` is
    the game's, read or written for the seat of `credential`; None forgets the game (it led
    an action astray)."""
    if credential is None or seat is None:
        return
    if state is None:
        WARM.forget(game.id)
    else:
        WARM.remember(game, state, credential.seat_hash(game.id), seat)


def shuffler_of(game: Game) -> SeededShuffler:
    """The shuffles of `game`, from its secret seed: every deal and reshuffle the service
    makes for it (joins, actions, its own moves) comes from here."""
    return SeededShuffler(game.seed)
