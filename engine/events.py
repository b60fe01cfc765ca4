"""Events: past-tense facts, frozen, with plain-data payloads and a schema version per type.

A game's log is a sequence of these; `evolve` folds them into the state. Payloads hold only
ints, bools, strings, None and (nested) tuples, so they turn into JSON and back exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .options import Options
from .slots import fast_init

FinalGrid = tuple[int | None, ...]  # 12 cells, index column * 3 + row; None = removed (R8)


@fast_init
@dataclass(frozen=True, slots=True)
class GameCreated:
    """A game for `seats` players with its rule options (R2, R12).

    Schema 2 nests the options as an object (schema 1 had `end_score` and `closer_penalty` at
    the top level), so a new option (R12) no longer needs a new schema version.
    """

    seats: int
    options: Options
    SCHEMA_VERSION: ClassVar[int] = 2


@fast_init
@dataclass(frozen=True, slots=True)
class PlayerJoined:
    """A player took the next open seat: a person, or (`bot`, a strategy's name) a bot that
    the service plays.

    Schema 2 added `bot`; a schema 1 payload is a person's (`bot` null). Schema 3 added
    `account`: the handle of the account the seat belongs to (null: a guest's seat).
    """

    seat: int
    name: str
    bot: str | None = None
    account: str | None = None
    SCHEMA_VERSION: ClassVar[int] = 3


@fast_init
@dataclass(frozen=True, slots=True)
class PlayerLeft:
    """A seat of a game still waiting for players was given up: it is open again."""

    seat: int
    SCHEMA_VERSION: ClassVar[int] = 1


@fast_init
@dataclass(frozen=True, slots=True)
class SeatLeft:
    """The player of `seat` left a started game: the bot `bot` plays the seat to the end."""

    seat: int
    bot: str
    SCHEMA_VERSION: ClassVar[int] = 1


@fast_init
@dataclass(frozen=True, slots=True)
class TurnTimedOut:
    """`seat`'s time for its turn (or its setup reveals) ran out: the events that follow, up
    to the end of that turn, are the moves the service chose for it."""

    seat: int
    SCHEMA_VERSION: ClassVar[int] = 1


@fast_init
@dataclass(frozen=True, slots=True)
class SeatAbandoned:
    """`seat` timed out `max_timeouts` turns in a row (R12): the bot `bot` plays it from now
    on, to the end of the game."""

    seat: int
    bot: str
    SCHEMA_VERSION: ClassVar[int] = 1


@fast_init
@dataclass(frozen=True, slots=True)
class RoundDealt:
    """A round dealt from `deck` (all 150 cards, top first): seat s gets cards 12s..12s+11 as
    cells 0..11 (cell = column * 3 + row), the next card starts the discard pile and the rest
    is the draw pile, top first (R4)."""

    round: int
    deck: tuple[int, ...]
    SCHEMA_VERSION: ClassVar[int] = 1


@fast_init
@dataclass(frozen=True, slots=True)
class CardRevealed:
    """A face-down card turned face up: a setup reveal (R4.3) or after a discard (R6b)."""

    seat: int
    column: int
    row: int
    value: int
    SCHEMA_VERSION: ClassVar[int] = 1


@fast_init
@dataclass(frozen=True, slots=True)
class PlayStarted:
    """Every seat made its setup reveals; `seat` takes the first turn of the round (R5)."""

    round: int
    seat: int
    SCHEMA_VERSION: ClassVar[int] = 1


@fast_init
@dataclass(frozen=True, slots=True)
class CardDrawn:
    """`seat` took the top of the draw pile; only that seat may see `value` (R7)."""

    seat: int
    value: int
    SCHEMA_VERSION: ClassVar[int] = 1


@fast_init
@dataclass(frozen=True, slots=True)
class DiscardTaken:
    seat: int
    value: int
    SCHEMA_VERSION: ClassVar[int] = 1


@fast_init
@dataclass(frozen=True, slots=True)
class CardReplaced:
    """The held card `value` now lies face up at (column, row); `replaced` went face up onto
    the discard pile (R6)."""

    seat: int
    column: int
    row: int
    value: int
    replaced: int
    SCHEMA_VERSION: ClassVar[int] = 1


@fast_init
@dataclass(frozen=True, slots=True)
class DrawnCardDiscarded:
    seat: int
    value: int
    SCHEMA_VERSION: ClassVar[int] = 1


@fast_init
@dataclass(frozen=True, slots=True)
class ColumnRemoved:
    """Three equal face-up cards of `column` went onto the discard pile (R8)."""

    seat: int
    column: int
    value: int
    SCHEMA_VERSION: ClassVar[int] = 1


@fast_init
@dataclass(frozen=True, slots=True)
class DrawPileReshuffled:
    """The draw pile ran out: the discard pile but its top card became the draw pile in
    `order`, top first (R9)."""

    order: tuple[int, ...]
    SCHEMA_VERSION: ClassVar[int] = 1


@fast_init
@dataclass(frozen=True, slots=True)
class TurnPassed:
    seat: int
    next_seat: int
    SCHEMA_VERSION: ClassVar[int] = 1


@fast_init
@dataclass(frozen=True, slots=True)
class FinalTurnsBegan:
    """`closer_seat` ended a turn with no face-down card: each other seat plays once more (R10).

    Schema 2 renamed schema 1's `closer` to `closer_seat`, the name the views use.
    """

    closer_seat: int
    SCHEMA_VERSION: ClassVar[int] = 2


@fast_init
@dataclass(frozen=True, slots=True)
class RoundEnded:
    """The round is scored (R10, R11). `grids` are after the final reveal (None = removed).

    Schema 2 renamed schema 1's `closer` to `closer_seat`, the name the views use.
    """

    round: int
    closer_seat: int
    grids: tuple[FinalGrid, ...]
    raw_scores: tuple[int, ...]
    round_scores: tuple[int, ...]
    closer_doubled: bool
    totals: tuple[int, ...]
    SCHEMA_VERSION: ClassVar[int] = 2


#: Why a game ended: a total reached the end score (R3), or no person held a seat and the
#: service stopped playing it for its bots (R13).
END_SCORE = "end_score"
ROUND_LIMIT = "round_limit"
END_REASONS: tuple[str, ...] = (END_SCORE, ROUND_LIMIT)


@fast_init
@dataclass(frozen=True, slots=True)
class GameEnded:
    """The game is over, for `reason`; the lowest totals win, ties shared (R3, R13).

    Schema 2 added `reason`; a schema 1 payload is an end score's (R3 was the only end).
    """

    totals: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str = END_SCORE
    SCHEMA_VERSION: ClassVar[int] = 2


#: Why a game waiting for players was called off (R13): an invitee declined its challenge,
#: the challenger canceled it, or it expired unanswered.
DECLINED = "declined"
CANCELED_BY_CREATOR = "canceled"
EXPIRED = "expired"
CANCEL_REASONS: tuple[str, ...] = (DECLINED, CANCELED_BY_CREATOR, EXPIRED)


@fast_init
@dataclass(frozen=True, slots=True)
class GameCanceled:
    """The game was called off while it waited for players, for `reason` (R13): nothing was
    dealt, no one won, and no event follows."""

    reason: str
    SCHEMA_VERSION: ClassVar[int] = 1


Event = (
    GameCreated
    | PlayerJoined
    | RoundDealt
    | CardRevealed
    | PlayStarted
    | CardDrawn
    | DiscardTaken
    | CardReplaced
    | DrawnCardDiscarded
    | ColumnRemoved
    | DrawPileReshuffled
    | TurnPassed
    | FinalTurnsBegan
    | RoundEnded
    | GameEnded
    | PlayerLeft
    | SeatLeft
    | TurnTimedOut
    | SeatAbandoned
    | GameCanceled
)

EVENT_TYPES: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        GameCreated,
        PlayerJoined,
        RoundDealt,
        CardRevealed,
        PlayStarted,
        CardDrawn,
        DiscardTaken,
        CardReplaced,
        DrawnCardDiscarded,
        ColumnRemoved,
        DrawPileReshuffled,
        TurnPassed,
        FinalTurnsBegan,
        RoundEnded,
        GameEnded,
        PlayerLeft,
        SeatLeft,
        TurnTimedOut,
        SeatAbandoned,
        GameCanceled,
    )
}


class UnknownEventType(ValueError):
    pass


def event_type(event: Event) -> str:
    return type(event).__name__


def schema_version(event: Event) -> int:
    return type(event).SCHEMA_VERSION


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    if isinstance(value, Options):
        return value.to_data()
    return value


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_frozen(item) for item in value)
    return value


def event_to_data(event: Event) -> dict[str, Any]:
    """The event's payload as JSON-able data (tuples become lists)."""
    return {name: _plain(getattr(event, name)) for name in _field_names(type(event))}


#: Each event class's field names (`_field_names`).
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(kind: type) -> tuple[str, ...]:
    """An event class's field names, read once: `fields()` rebuilds its tuple on every call,
    and every action's events pass here (the action path's profile, docs/PERFORMANCE.md)."""
    names = _FIELD_NAMES.get(kind)
    if names is None:
        names = _FIELD_NAMES[kind] = tuple(f.name for f in fields(kind))
    return names


Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


def _game_created_v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 had the options at the top level; schema 2 nests them. A schema-1 payload
    that already holds `options` is no schema-1 payload (the nested one would be lost)."""
    if "options" in data:
        raise ValueError("a GameCreated schema 1 payload has its options at the top level")
    rest = {key: value for key, value in data.items() if key not in {"end_score", "closer_penalty"}}
    options = {key: data[key] for key in ("end_score", "closer_penalty") if key in data}
    return {**rest, "options": options}


def _closer_renamed(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 named the closing seat `closer`; schema 2 calls it `closer_seat`, as views do."""
    if "closer_seat" in data:
        raise ValueError("a schema 1 payload names the closer `closer`")
    return {("closer_seat" if key == "closer" else key): value for key, value in data.items()}


def _person_joined(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 had no bots: every seat that joined was a person's (`bot` null)."""
    if "bot" in data:
        raise ValueError("a PlayerJoined schema 1 payload has no `bot`")
    return {**data, "bot": None}


def _guest_joined(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 2 had no accounts: every seat that joined was a guest's (`account` null)."""
    if "account" in data:
        raise ValueError("a PlayerJoined schema 2 payload has no `account`")
    return {**data, "account": None}


def _ended_by_end_score(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 knew one end only: a total reached the end score (R3)."""
    if "reason" in data:
        raise ValueError("a GameEnded schema 1 payload has no `reason`")
    return {**data, "reason": END_SCORE}


#: (type name, stored version) -> function turning that payload into version + 1.
UPCASTERS: dict[tuple[str, int], Upcaster] = {
    ("GameCreated", 1): _game_created_v1_to_v2,
    ("PlayerJoined", 1): _person_joined,
    ("PlayerJoined", 2): _guest_joined,
    ("FinalTurnsBegan", 1): _closer_renamed,
    ("RoundEnded", 1): _closer_renamed,
    ("GameEnded", 1): _ended_by_end_score,
}

#: Payload fields that are richer than plain data, and how to rebuild them.
_DECODERS: dict[tuple[type[Any], str], Callable[[Any], Any]] = {
    (GameCreated, "options"): Options.from_data,
}


def upcast(type_name: str, version: int, data: dict[str, Any]) -> dict[str, Any]:
    """Bring a stored payload up to the current schema version of its type."""
    cls = EVENT_TYPES.get(type_name)
    if cls is None:
        raise UnknownEventType(type_name)
    while version < cls.SCHEMA_VERSION:
        data = UPCASTERS[(type_name, version)](data)
        version += 1
    if version != cls.SCHEMA_VERSION:
        raise ValueError(f"{type_name} has no schema version {version}")
    return data


def event_from_data(type_name: str, data: dict[str, Any], version: int | None = None) -> Event:
    """Rebuild an event from its type name and payload, upcasting an older schema version.

    Raises UnknownEventType, or TypeError/ValueError for a payload of the wrong shape
    (InvalidOptions, a ValueError, for options outside R12).
    """
    cls = EVENT_TYPES.get(type_name)
    if cls is None:
        raise UnknownEventType(type_name)
    if version is not None:
        data = upcast(type_name, version, data)
    if not isinstance(data, dict):
        raise TypeError("an event payload is an object")
    decoded = {
        key: _DECODERS[(cls, key)](value) if (cls, key) in _DECODERS else _frozen(value)
        for key, value in data.items()
    }
    event: Event = cls(**decoded)
    return event
