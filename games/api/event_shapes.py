"""The documented shape of every engine event: one named schema per shape a payload can take,
and the feed's and the history's items as a `oneOf` discriminated by `type`.

Output shapes only document (responses are plain data from `engine.view.event_for_viewer` and
`games.history`). A payload takes one of up to three shapes:

- the full payload, at the type's current schema version (a finished game's feed, and the
  history of any game stored since that version);
- a redacted one where `event_for_viewer` changes the shape while a game is unfinished
  (`RoundDealtRedacted`, `DrawPileReshuffledRedacted`; a `CardDrawn` keeps its shape, its
  `value` null for other viewers);
- an older schema version, which a history shows as it was stored and an import accepts
  (the engine upcasts it on read): `GameCreatedSchema1`, `PlayerJoinedSchema1`,
  `FinalTurnsBeganSchema1`, `RoundEndedSchema1`.

The table `PAYLOADS` is keyed by the engine's own table of event types (`engine.EVENT_TYPES`):
an event type without a documented shape fails at import, and tests/api/test_event_schemas.py
checks every field of every type against the generated schema.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from engine import EVENT_TYPES
from engine.cards import CARD_COUNTS, CELLS, COLUMNS, DECK_SIZE, ROWS
from engine.events import CANCEL_REASONS, END_REASONS
from engine.options import (
    MAX_BOT_PACE_MS,
    MAX_END_SCORE,
    MAX_MAX_TIMEOUTS,
    MAX_SEATS,
    MAX_TURN_SECONDS,
    MIN_BOT_PACE_MS,
    MIN_MAX_TIMEOUTS,
    MIN_SEATS,
    MIN_TURN_SECONDS,
)
from games.api.closed import ClosedShape
from games.core.names import MAX_NAME_LENGTH

LOWEST_CARD = min(CARD_COUNTS)
HIGHEST_CARD = max(CARD_COUNTS)
GRID = (
    "12 cells indexed `column*3 + row` (4 columns of 3 cells, each column top to bottom), "
    "each a card value, or null for a card removed with its column (R8)"
)


class OneOfShapes(serializers.Field):
    """Documentation only: a payload that takes one of several shapes (`oneOf`). The shapes
    never overlap: each requires a field the others do not allow."""

    def __init__(self, shapes: tuple[type[serializers.Serializer], ...], **kwargs: Any) -> None:
        self.shapes = shapes
        super().__init__(**kwargs)


class OneOfShapesExtension(OpenApiSerializerFieldExtension):
    target_class = "games.api.event_shapes.OneOfShapes"

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> Any:
        shapes = self.target.shapes
        return {"oneOf": [auto_schema.resolve_serializer(s, direction).ref for s in shapes]}


# Fields, named for what they hold


def seat_number(help_text: str) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=0, max_value=MAX_SEATS - 1, help_text=help_text)


def card_value(help_text: str, **kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(
        min_value=LOWEST_CARD, max_value=HIGHEST_CARD, help_text=help_text, **kwargs
    )


def round_number() -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, help_text="The round, numbered from 1.")


def column_index() -> serializers.IntegerField:
    return serializers.IntegerField(
        min_value=0, max_value=COLUMNS - 1, help_text="Column 0-3 of the seat's grid."
    )


def row_index() -> serializers.IntegerField:
    return serializers.IntegerField(
        min_value=0, max_value=ROWS - 1, help_text="Row 0-2 of the column, top to bottom."
    )


def pile_size(help_text: str) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=0, max_value=DECK_SIZE, help_text=help_text)


def by_seat(help_text: str, **child: Any) -> serializers.ListField:
    """One entry per seat, in seat order (index = seat)."""
    return serializers.ListField(
        child=serializers.IntegerField(**child),
        min_length=MIN_SEATS,
        max_length=MAX_SEATS,
        help_text=f"{help_text} One entry per seat, index = seat.",
    )


def strategy_name(help_text: str, **kwargs: Any) -> serializers.CharField:
    """The name of a bot's strategy (`GET /api/v1/bots` lists them)."""
    return serializers.CharField(min_length=1, max_length=40, help_text=help_text, **kwargs)


def closer_seat_number() -> serializers.IntegerField:
    return seat_number(
        "The seat that ended a turn with no face-down card (R10); the views' `closer_seat`."
    )


def schema_1_closer() -> serializers.IntegerField:
    return seat_number("Schema 1's name for `closer_seat` (renamed in schema 2).")


# The payloads


class EventOptionsSerializer(ClosedShape):
    """The rule options of a game (R12), as `GameCreated` records them."""

    end_score = serializers.IntegerField(
        min_value=1,
        max_value=MAX_END_SCORE,
        help_text="A total at or above this ends the game after the round (R3).",
    )
    closer_penalty = serializers.BooleanField(
        help_text="Double the closer's positive round score unless strictly lowest (R11)."
    )
    turn_seconds = serializers.IntegerField(
        min_value=MIN_TURN_SECONDS,
        max_value=MAX_TURN_SECONDS,
        allow_null=True,
        required=False,
        help_text="Each turn's clock in seconds (R13); null or absent: no clock.",
    )
    max_timeouts = serializers.IntegerField(
        min_value=MIN_MAX_TIMEOUTS,
        max_value=MAX_MAX_TIMEOUTS,
        required=False,
        help_text="Timeouts in a row after which a bot plays the seat (R13); absent: 3.",
    )
    rated = serializers.BooleanField(
        required=False,
        help_text="A rated game: accounts only, and the result counts for their ratings "
        "(R14); absent: false.",
    )
    bot_pace_ms = serializers.IntegerField(
        min_value=MIN_BOT_PACE_MS,
        max_value=MAX_BOT_PACE_MS,
        allow_null=True,
        required=False,
        help_text="Milliseconds between two of the service's bots' actions, as the creator "
        "chose (R15: when the service moves, no rule); absent: none chosen.",
    )


class GameCreatedSerializer(ClosedShape):
    """A game for `seats` players with its rule options (R2, R12). Schema 2."""

    seats = serializers.IntegerField(
        min_value=MIN_SEATS, max_value=MAX_SEATS, help_text="Number of seats (players), 2-8."
    )
    options = EventOptionsSerializer(help_text="The rule options, fixed for the game (R12).")


class GameCreatedSchema1Serializer(ClosedShape):
    """`GameCreated` schema 1 (before options were nested): still imported and replayed."""

    seats = serializers.IntegerField(
        min_value=MIN_SEATS, max_value=MAX_SEATS, help_text="Number of seats (players), 2-8."
    )
    end_score = serializers.IntegerField(
        min_value=1,
        max_value=MAX_END_SCORE,
        required=False,
        help_text="Schema 1's `options.end_score` (default 100).",
    )
    closer_penalty = serializers.BooleanField(
        required=False, help_text="Schema 1's `options.closer_penalty` (default true)."
    )


def player_name() -> serializers.CharField:
    return serializers.CharField(
        min_length=1,
        max_length=MAX_NAME_LENGTH,
        help_text="The player's display name, as join stores it (the rule of `JoinRequest`'s "
        "`name`; an import refuses any other with `invalid_name`).",
    )


class PlayerJoinedSerializer(ClosedShape):
    """A player took the next open seat (the lowest); the first round is dealt once every
    seat is taken. Schema 3."""

    seat = seat_number("The seat taken: the lowest open one.")
    name = player_name()
    bot = strategy_name(
        "The strategy of the bot that plays the seat (R13); null for a person.", allow_null=True
    )
    account = serializers.CharField(
        allow_null=True,
        max_length=20,
        help_text="The handle of the account the seat belongs to (a built-in bot's is its "
        "strategy's name); null for a guest's seat. An import makes every person's seat a "
        "guest's (null).",
    )


class PlayerJoinedSchema2Serializer(ClosedShape):
    """`PlayerJoined` schema 2 (before accounts: every seat a guest's): still imported and
    replayed."""

    seat = seat_number("The seat taken: the lowest open one.")
    name = player_name()
    bot = strategy_name(
        "The strategy of the bot that plays the seat (R13); null for a person.", allow_null=True
    )


class PlayerJoinedSchema1Serializer(ClosedShape):
    """`PlayerJoined` schema 1 (before bots: always a person): still imported and replayed."""

    seat = seat_number("The seat taken: the lowest open one.")
    name = player_name()


class PlayerLeftSerializer(ClosedShape):
    """A player gave up a seat of a game still waiting for players: it is open again (R13)."""

    seat = seat_number("The seat given up.")


class SeatLeftSerializer(ClosedShape):
    """A player left a started game: a bot plays the seat to the end (R13)."""

    seat = seat_number("The seat its player left.")
    bot = strategy_name("The strategy of the bot that plays the seat from now on.")


class TurnTimedOutSerializer(ClosedShape):
    """The seat's time for its turn (or its setup reveals) ran out (R13): the events after
    this one, to the end of that turn, are the moves the service made for it."""

    seat = seat_number("The seat whose time ran out.")


class SeatAbandonedSerializer(ClosedShape):
    """The seat timed out `max_timeouts` turns in a row (R13): a bot plays it from now on."""

    seat = seat_number("The seat handed over.")
    bot = strategy_name("The strategy of the bot that plays the seat from now on.")


class GameCanceledSerializer(ClosedShape):
    """The game was called off while it waited for players (R13): nothing was dealt, no one
    won, and no event follows."""

    reason = serializers.ChoiceField(
        choices=list(CANCEL_REASONS),
        help_text="`declined`: an invitee declined its challenge. `canceled`: the challenger "
        "called the challenge off. `expired`: the challenge was not answered in time.",
    )


class RoundDealtSerializer(ClosedShape):
    """A round dealt from `deck` (R4). The full payload: in a history, and in the feed of a
    finished game."""

    round = round_number()
    deck = serializers.ListField(
        child=card_value("A card value."),
        min_length=DECK_SIZE,
        max_length=DECK_SIZE,
        help_text="All 150 cards, top first: seat s gets cards 12s to 12s+11 as its grid's "
        "cells 0-11 (cell = column*3 + row), the next card starts the discard pile face up, "
        "and the rest is the draw pile, top first.",
    )


class RoundDealtRedactedSerializer(ClosedShape):
    """A round dealt (R4), as the feed of an unfinished game shows it to everyone: the deck's
    order stays secret, only the first discard is face up."""

    round = round_number()
    discard_top = card_value("The card that starts the discard pile, face up.")
    deck_size = pile_size("Cards in the draw pile.")


class CardRevealedSerializer(ClosedShape):
    """A face-down card turned face up: a setup reveal (R4.3), or after a discard (R6b)."""

    seat = seat_number("Whose grid.")
    column = column_index()
    row = row_index()
    value = card_value("The card now face up.")


class PlayStartedSerializer(ClosedShape):
    """Every seat made its setup reveals: the round's turns begin (R5)."""

    round = round_number()
    seat = seat_number("The seat that takes the round's first turn.")


class CardDrawnSerializer(ClosedShape):
    """`seat` took the top card of the draw pile (R6)."""

    seat = seat_number("The seat that drew.")
    value = card_value(
        "The card drawn. Null in the feed of an unfinished game for every viewer but the "
        "drawer (R7); always set in a history and once the game is finished.",
        allow_null=True,
    )


class DiscardTakenSerializer(ClosedShape):
    """`seat` took the top card of the discard pile (R6)."""

    seat = seat_number("The seat that took it.")
    value = card_value("The card taken, now held.")


class CardReplacedSerializer(ClosedShape):
    """The held card now lies face up at (column, row); the card it replaced went face up onto
    the discard pile (R6)."""

    seat = seat_number("Whose grid.")
    column = column_index()
    row = row_index()
    value = card_value("The held card, now face up at (column, row).")
    replaced = card_value("The card it replaced, now the top of the discard pile.")


class DrawnCardDiscardedSerializer(ClosedShape):
    """The card drawn from the draw pile went face up onto the discard pile (R6b)."""

    seat = seat_number("The seat that discarded it.")
    value = card_value("The card discarded.")


class ColumnRemovedSerializer(ClosedShape):
    """Three equal face-up cards of a column went onto the discard pile (R8)."""

    seat = seat_number("Whose grid.")
    column = column_index()
    value = card_value("The value of the three cards removed.")


class DrawPileReshuffledSerializer(ClosedShape):
    """The draw pile ran out: the discard pile, but its top card, became the draw pile (R9).
    The full payload: in a history, and in the feed of a finished game."""

    order = serializers.ListField(
        child=card_value("A card value."),
        max_length=DECK_SIZE,
        help_text="The new draw pile, top first.",
    )


class DrawPileReshuffledRedactedSerializer(ClosedShape):
    """The draw pile ran out and the discard pile, but its top card, became the draw pile (R9),
    as the feed of an unfinished game shows it: the new order stays secret."""

    deck_size = pile_size("Cards in the new draw pile.")


class TurnPassedSerializer(ClosedShape):
    """A turn ended; the next seat in order plays."""

    seat = seat_number("The seat whose turn ended.")
    next_seat = seat_number("The seat that plays next.")


class FinalTurnsBeganSerializer(ClosedShape):
    """A seat ended a turn with no face-down card: every other seat plays once more (R10).
    Schema 2."""

    closer_seat = closer_seat_number()


class FinalTurnsBeganSchema1Serializer(ClosedShape):
    """`FinalTurnsBegan` schema 1 (`closer`): still imported and replayed."""

    closer = schema_1_closer()


class RoundEndedSerializer(ClosedShape):
    """The round is scored (R10, R11). Schema 2."""

    round = round_number()
    closer_seat = closer_seat_number()
    grids = serializers.ListField(
        child=serializers.ListField(
            child=card_value("A card value; null: removed.", allow_null=True),
            min_length=CELLS,
            max_length=CELLS,
        ),
        min_length=MIN_SEATS,
        max_length=MAX_SEATS,
        help_text=f"Each seat's grid after the final reveal, index = seat: {GRID}.",
    )
    raw_scores = by_seat("The sum of each seat's cards.")
    round_scores = by_seat(
        "Each seat's score for the round: its raw score, doubled for the closer if "
        "`closer_doubled`."
    )
    closer_doubled = serializers.BooleanField(
        help_text="Whether the closer's round score was doubled (R11)."
    )
    totals = by_seat("Each seat's total after this round.")


class RoundEndedSchema1Serializer(RoundEndedSerializer):
    """`RoundEnded` schema 1 (`closer`): still imported and replayed."""

    closer_seat = None
    closer = schema_1_closer()


class GameEndedSchema1Serializer(ClosedShape):
    """`GameEnded` schema 1 (before `reason`: always an end score): still imported and
    replayed."""

    totals = by_seat("The final totals.")
    winners = serializers.ListField(
        child=seat_number("A winning seat."),
        min_length=1,
        max_length=MAX_SEATS,
        help_text="The seats with the lowest total, in seat order (several on a tie).",
    )


class GameEndedSerializer(GameEndedSchema1Serializer):
    """The game is over (R3, R13), for `reason`. Schema 2."""

    reason = serializers.ChoiceField(
        choices=list(END_REASONS),
        help_text="`end_score`: a total reached the end score (R3). `round_limit`: no person "
        "held a seat, and the service stopped playing the game for its bots after the rounds "
        "it plays so (R13; the round then dealt is not played). The lowest totals win either "
        "way.",
    )


@dataclass(frozen=True)
class Payloads:
    """The shapes of one event type's payload."""

    current: type[serializers.Serializer]
    redacted: type[serializers.Serializer] | None = None
    older: tuple[type[serializers.Serializer], ...] = ()

    @property
    def in_feed(self) -> tuple[type[serializers.Serializer], ...]:
        """`GET /events` upcasts every payload, and redacts some while the game is unfinished."""
        return (self.current,) if self.redacted is None else (self.current, self.redacted)

    @property
    def in_history(self) -> tuple[type[serializers.Serializer], ...]:
        """A history holds each payload at the schema version it was stored with."""
        return (self.current, *self.older)


_SHAPES: dict[str, Payloads] = {
    "GameCreated": Payloads(GameCreatedSerializer, older=(GameCreatedSchema1Serializer,)),
    "PlayerJoined": Payloads(
        PlayerJoinedSerializer,
        older=(PlayerJoinedSchema1Serializer, PlayerJoinedSchema2Serializer),
    ),
    "RoundDealt": Payloads(RoundDealtSerializer, redacted=RoundDealtRedactedSerializer),
    "CardRevealed": Payloads(CardRevealedSerializer),
    "PlayStarted": Payloads(PlayStartedSerializer),
    "CardDrawn": Payloads(CardDrawnSerializer),
    "DiscardTaken": Payloads(DiscardTakenSerializer),
    "CardReplaced": Payloads(CardReplacedSerializer),
    "DrawnCardDiscarded": Payloads(DrawnCardDiscardedSerializer),
    "ColumnRemoved": Payloads(ColumnRemovedSerializer),
    "DrawPileReshuffled": Payloads(
        DrawPileReshuffledSerializer, redacted=DrawPileReshuffledRedactedSerializer
    ),
    "TurnPassed": Payloads(TurnPassedSerializer),
    "FinalTurnsBegan": Payloads(
        FinalTurnsBeganSerializer, older=(FinalTurnsBeganSchema1Serializer,)
    ),
    "RoundEnded": Payloads(RoundEndedSerializer, older=(RoundEndedSchema1Serializer,)),
    "GameEnded": Payloads(GameEndedSerializer, older=(GameEndedSchema1Serializer,)),
    "PlayerLeft": Payloads(PlayerLeftSerializer),
    "SeatLeft": Payloads(SeatLeftSerializer),
    "TurnTimedOut": Payloads(TurnTimedOutSerializer),
    "SeatAbandoned": Payloads(SeatAbandonedSerializer),
    "GameCanceled": Payloads(GameCanceledSerializer),
}

#: Event type name -> its payload shapes, for every type of the engine's table (a KeyError at
#: import names a type that has none).
PAYLOADS: dict[str, Payloads] = {name: _SHAPES[name] for name in EVENT_TYPES}


# The items of the feed and of a history: one member per type, discriminated by `type`


def _data(shapes: tuple[type[serializers.Serializer], ...], help_text: str) -> serializers.Field:
    if len(shapes) == 1:
        return shapes[0](help_text=help_text)
    return OneOfShapes(shapes, help_text=help_text)


def _type(name: str) -> serializers.ChoiceField:
    return serializers.ChoiceField(
        choices=[name], help_text=f"The event type: always `{name}` for this shape."
    )


def _sequence() -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, help_text="1, 2, 3... without gaps.")


def _feed_item(name: str, payloads: Payloads) -> type[serializers.Serializer]:
    fields = {
        "sequence": _sequence(),
        "type": _type(name),
        "at": serializers.DateTimeField(help_text="When it was stored."),
        "data": _data(payloads.in_feed, "The payload as the caller may see it (see the shapes)."),
    }
    doc = f"A `{name}` event of the feed, as the caller may see it."
    return _serializer(f"{name}Event", doc, fields)


def _history_item(name: str, payloads: Payloads) -> type[serializers.Serializer]:
    current = EVENT_TYPES[name].SCHEMA_VERSION
    fields = {
        "sequence": _sequence(),
        "type": _type(name),
        "schema_version": serializers.IntegerField(
            min_value=1,
            max_value=current,
            help_text=f"The version of the payload's shape: {current} today"
            + ("." if current == 1 else "; older versions are still imported and replayed."),
        ),
        "at": serializers.DateTimeField(required=False, help_text="When it was stored."),
        "data": _data(payloads.in_history, "The full payload at its `schema_version`."),
    }
    doc = f"A `{name}` event of a history: the full payload, nothing hidden."
    return _serializer(f"{name}HistoryEvent", doc, fields)


def _serializer(
    component: str, doc: str, fields: dict[str, serializers.Field]
) -> type[serializers.Serializer]:
    """A serializer class named for its component (drf-spectacular names it after the class)."""
    attrs: dict[str, Any] = {"__module__": __name__, "__doc__": doc, **fields}
    return type(f"{component}Serializer", (serializers.Serializer,), attrs)


FEED_ITEMS = {name: _feed_item(name, payloads) for name, payloads in PAYLOADS.items()}
HISTORY_ITEMS = {name: _history_item(name, payloads) for name, payloads in PAYLOADS.items()}


def feed_events(**kwargs: Any) -> PolymorphicProxySerializer:
    """The feed's items: `Event`, a `oneOf` of the `{type}Event` members, by `type`."""
    return PolymorphicProxySerializer(
        component_name="Event",
        serializers=FEED_ITEMS,
        resource_type_field_name="type",
        **kwargs,
    )


def history_events(**kwargs: Any) -> PolymorphicProxySerializer:
    """A history's items: `HistoryEvent`, a `oneOf` of the `{type}HistoryEvent` members."""
    return PolymorphicProxySerializer(
        component_name="HistoryEvent",
        serializers=HISTORY_ITEMS,
        resource_type_field_name="type",
        **kwargs,
    )
