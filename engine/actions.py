"""What a seat can ask to do. Positions are (column 0-3, row 0-2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .cards import COLUMNS, ROWS


@dataclass(frozen=True, slots=True)
class Join:
    """Take the next open seat (the lobby; not a turn action): for a person, or for the bot
    that plays strategy `bot`; `account`: the handle of the account the seat belongs to
    (one seat per account and game)."""

    name: str
    bot: str | None = None
    account: str | None = None
    kind: ClassVar[str] = "join"


@dataclass(frozen=True, slots=True)
class Leave:
    """Give the seat up (R13): while the game waits for players the seat is open again; once
    it has started, the bot `bot` plays it to the end."""

    bot: str = "greedy"
    kind: ClassVar[str] = "leave"


@dataclass(frozen=True, slots=True)
class TimeOut:
    """The service's, not a seat's: the seat's time ran out (R13). After the options'
    `max_timeouts` in a row, the bot `bot` takes the seat over."""

    bot: str = "greedy"
    kind: ClassVar[str] = "time_out"


@dataclass(frozen=True, slots=True)
class StopPlay:
    """The service's, not a seat's: no person holds a seat any more, and the service stops
    playing the game for its bots (R13). The game ends on the totals of the rounds scored so
    far; a round dealt and not finished is not counted."""

    kind: ClassVar[str] = "stop_play"


@dataclass(frozen=True, slots=True)
class Cancel:
    """The service's, not a seat's: call the game off while it waits for players (R13), for
    `reason` (one of `events.CANCEL_REASONS`)."""

    reason: str
    kind: ClassVar[str] = "cancel"


@dataclass(frozen=True, slots=True)
class Reveal:
    """Turn the face-down card at (column, row) face up: a setup reveal (R4.3) or the reveal
    after discarding a drawn card (R6b)."""

    column: int
    row: int
    kind: ClassVar[str] = "reveal"
    title: ClassVar[str] = "Turn a card face up"


@dataclass(frozen=True, slots=True)
class Draw:
    """Take the top card of the draw pile and look at it (R6b)."""

    kind: ClassVar[str] = "draw"
    title: ClassVar[str] = "Draw from the draw pile"


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    """Take the top card of the discard pile; it must then replace a card (R6a)."""

    kind: ClassVar[str] = "take_discard"
    title: ClassVar[str] = "Take the top discard"


@dataclass(frozen=True, slots=True)
class Replace:
    """Put the held card at (column, row); the card there goes face up onto the discard
    pile (R6)."""

    column: int
    row: int
    kind: ClassVar[str] = "replace"
    title: ClassVar[str] = "Place the held card"


@dataclass(frozen=True, slots=True)
class Discard:
    """Put the card drawn from the draw pile onto the discard pile, then reveal (R6b)."""

    kind: ClassVar[str] = "discard"
    title: ClassVar[str] = "Discard the drawn card"


Action = (
    Join | Reveal | Draw | TakeDiscard | Replace | Discard | Leave | TimeOut | StopPlay | Cancel
)
TurnAction = Reveal | Draw | TakeDiscard | Replace | Discard

#: The turn actions by the name a client sends, in the order they are documented: the one
#: table the service's endpoints, schema and test helpers derive from.
TURN_ACTIONS: dict[str, type[TurnAction]] = {
    cls.kind: cls for cls in (Reveal, Draw, TakeDiscard, Replace, Discard)
}
TURN_ACTION_KINDS: tuple[str, ...] = tuple(TURN_ACTIONS)
#: The kinds that name a position (column, row) of the acting seat's grid.
POSITION_KINDS: frozenset[str] = frozenset({Reveal.kind, Replace.kind})

DRAW = Draw()
TAKE_DISCARD = TakeDiscard()
DISCARD = Discard()
#: One shared instance per position, so listing legal actions allocates nothing.
REVEALS: tuple[Reveal, ...] = tuple(Reveal(c, r) for c in range(COLUMNS) for r in range(ROWS))
REPLACES: tuple[Replace, ...] = tuple(Replace(c, r) for c in range(COLUMNS) for r in range(ROWS))


def action_to_data(action: Action) -> dict[str, Any]:
    """Plain data, as the API lists legal actions: {"action", "column"?, "row"?}."""
    if isinstance(action, Reveal | Replace):
        return {"action": action.kind, "column": action.column, "row": action.row}
    if isinstance(action, Join):
        bot = {} if action.bot is None else {"bot": action.bot}
        return {"action": action.kind, "name": action.name, **bot}
    if isinstance(action, Leave | TimeOut):
        return {"action": action.kind, "bot": action.bot}
    return {"action": action.kind}


_SINGLETONS: dict[str, TurnAction] = {a.kind: a for a in (DRAW, TAKE_DISCARD, DISCARD)}


def action_from_data(data: dict[str, Any]) -> TurnAction:
    """The inverse of `action_to_data` for turn actions; KeyError/ValueError on bad data."""
    kind = data["action"]
    if kind in POSITION_KINDS:
        return TURN_ACTIONS[kind](int(data["column"]), int(data["row"]))  # type: ignore[call-arg]
    if kind in _SINGLETONS:
        return _SINGLETONS[kind]
    raise ValueError(f"unknown action {kind!r}")
