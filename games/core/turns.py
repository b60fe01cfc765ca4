"""A seat's turn action: loaded (from this process's memory of warm games when it has the
game), decided by the rules and appended in one write that checks the seat's token.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from functools import partial
from typing import Any

from engine import (
    GameState,
    TurnAction,
    act,
)
from engine.errors import RuleError
from games.core import clock, idempotency
from games.core.append import VersionMoved, append_events, optimistic
from games.core.errors import (
    VersionMismatch,
)
from games.core.reading import game_and_seat, game_uuid, refuse_if_played_by_bot
from games.core.resources import game_data
from games.core.states import game_state, shuffler_of, update_memory
from games.core.tokens import Credential
from games.models import Game
from games.store.warm import WARM


@dataclass(frozen=True)
class ActionResult:
    """The acting seat's game and its new view, as data."""

    game: Game
    seat: int
    version: int
    body: dict[str, Any]


def action_fingerprint(action: dict[str, Any]) -> str:
    """What tells a retried action from another under the same Idempotency-Key: its kind and
    position, whether it was sent to its typed path or to `/actions`."""
    rest = {name: value for name, value in action.items() if name != "action"}
    return idempotency.fingerprint(action["action"], rest)


def perform_action(
    game_id: object,
    credential: Credential | None,
    action: TurnAction,
    *,
    expected_versions: frozenset[int] | None = None,
) -> ActionResult:
    """Apply one turn action for the credential's seat; answer that seat's new view.

    `expected_versions` (If-Match) refuses with 412 unless the game is at one of them. Each
    attempt loads the game (`load`), then decides and appends (`decide_and_append`); the retry
    loop (`optimistic`) starts again from a fresh load when another write landed first. An
    Idempotency-Key is honoured around it, as for every POST (`idempotency.run`, with the
    seat's `seat_key`): the answer is stored in the transaction of the append.
    """
    request = SeatAction(game_uuid(game_id), credential, action, expected_versions)
    return optimistic(partial(_attempt_action, request), request.game_id)


@dataclass(frozen=True)
class SeatAction:
    """A seat's action as it was asked for: what each attempt of `perform_action` decides."""

    game_id: uuid.UUID
    credential: Credential | None
    action: TurnAction
    expected_versions: frozenset[int] | None


@dataclass(frozen=True)
class Loaded:
    """The acting seat's game and the state it is at: read from the database, or (`warm`)
    from this process's memory of the game (`games.warm`), which may be out of date."""

    game: Game
    seat: int
    state: GameState
    warm: bool


def _attempt_action(request: SeatAction, tries: int) -> ActionResult:
    """One attempt: the first from memory when it has the game, then from fresh reads.
    Decided on memory, only a landed write counts: any refusal is forgotten and decided
    again on a fresh read (`VersionMoved`)."""
    loaded = load(request, warm=tries == 0)
    try:
        return decide_and_append(request, loaded)
    except (RuleError, VersionMismatch, VersionMoved):
        if not loaded.warm:
            raise
        update_memory(loaded.game, loaded.seat, request.credential, None)
        raise VersionMoved() from None


def load(request: SeatAction, *, warm: bool) -> Loaded:
    """The acting seat's game and state: from memory if `warm` and it has them, else read
    (404 for no such game, 401 for a token of no seat of it)."""
    if warm and request.credential is not None:
        found = WARM.get(request.game_id, request.credential.seat_hash(request.game_id))
        if found is not None and not clock.is_overdue(found[0].turn_deadline):
            return Loaded(*found, warm=True)
    game, seat = game_and_seat(request.game_id, request.credential, required=True, for_write=True)
    assert seat is not None
    return Loaded(game, seat, game_state(game), warm=False)


def decide_and_append(request: SeatAction, loaded: Loaded) -> ActionResult:
    """The action decided on the loaded state and appended in one write that also checks the
    seat's token, and remembered for the seat's next action."""
    _check_version(request.expected_versions, loaded.game)
    game, seat, before = loaded.game, loaded.seat, loaded.state
    refuse_if_played_by_bot(before, seat)
    assert request.credential is not None  # `load` found the seat of its token
    events, after = act(before, seat, request.action, shuffler_of(game))
    held = request.credential.seat_hash(game.id)
    append_events(game, before, events, after, seat_token=(seat, held))
    update_memory(game, seat, request.credential, after)
    return ActionResult(game, seat, after.version, game_data(game, after, seat))


def _check_version(expected: frozenset[int] | None, game: Game) -> None:
    """412 `version_mismatch` unless If-Match named the game's version (None: no condition;
    weak tags are no names, as they never match)."""
    if expected is not None and game.version not in expected:
        raise VersionMismatch(game.version, _mismatch_detail(expected, game.version))


def _mismatch_detail(expected: frozenset[int], version: int) -> str:
    if not expected:  # only weak tags: a client comparing weakly needs telling why
        return (
            f'A weak tag (W/"...") never matches in If-Match; the game is at version {version}: '
            f'send its ETag as it came, "{version}".'
        )
    named = ", ".join(str(number) for number in sorted(expected))
    return f"The game is at version {version}, not {named}."


def seat_key(
    game_id: object, credential: Credential | None, key: str, fingerprint: str
) -> idempotency.Idempotency:
    """An action's Idempotency-Key, in the scope of the seat its token stands for (401 for
    a token of no seat of the game): the same key from another seat is another request."""
    game, seat = game_and_seat(game_id, credential, required=True)
    assert seat is not None
    return idempotency.Idempotency(idempotency.seat_scope(game.id, seat), key, fingerprint)
