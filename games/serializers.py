"""Input serializers (validation) and output serializers (the documented response shapes).

Inputs refuse unknown fields, so a misspelt field is an error rather than silently ignored.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from engine import POSITION_KINDS, TURN_ACTION_KINDS
from engine.options import DEFAULT_END_SCORE, MAX_END_SCORE, MAX_SEATS, MIN_SEATS
from engine.state import PHASES

from .closed import ClosedShape
from .event_shapes import feed_events, history_events
from .models import Status
from .names import MAX_NAME_LENGTH, NAME_PATTERN, is_valid_name, normalized_name

MAX_SEED = 2**63 - 1


class StrictSerializer(ClosedShape):
    """Refuses fields it does not know (and the schema says so: `ClosedShape`)."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    {name: ["This field is not allowed."] for name in unknown}
                )
        return super().to_internal_value(data)


class StrictIntegerField(serializers.IntegerField):
    """Only a JSON integer: no strings, floats or booleans."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """Only JSON true or false."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class StrictCharField(serializers.CharField):
    """Only a JSON string."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class OptionsSerializer(StrictSerializer):
    """Rule options (R12), fixed for the whole game."""

    end_score = StrictIntegerField(
        min_value=1,
        max_value=MAX_END_SCORE,
        default=DEFAULT_END_SCORE,
        help_text="A total at or above this ends the game after the round (R3, R12).",
    )
    closer_penalty = StrictBooleanField(
        default=True,
        help_text="Double the closer's positive round score unless strictly lowest (R11).",
    )


class CreateGameSerializer(StrictSerializer):
    """A new game: its number of seats, rule options and optional seed."""

    seats = StrictIntegerField(
        min_value=MIN_SEATS, max_value=MAX_SEATS, help_text="Number of players (R2)."
    )
    options = OptionsSerializer(required=False)
    seed = StrictIntegerField(
        min_value=0,
        max_value=MAX_SEED,
        required=False,
        allow_null=True,
        help_text="Derive every shuffle from this seed: the same seed and the same actions "
        "give the same game. Anyone who knows it knows every card; omit it for a secret one.",
    )


@extend_schema_field(
    {"type": "string", "minLength": 1, "maxLength": MAX_NAME_LENGTH, "pattern": NAME_PATTERN}
)
class NameField(StrictCharField):
    """A player's name: the schema carries the rule's pattern (games.names)."""


class JoinSerializer(StrictSerializer):
    """A player taking the next open seat."""

    name = NameField(
        min_length=1,
        max_length=MAX_NAME_LENGTH,
        trim_whitespace=False,  # the rule applies to the name as sent (games.names)
        help_text="The player's display name: 1 to 40 characters, printable (no control, "
        "format, private-use or unassigned character, no line break), not only spaces. It is "
        "stored normalized (NFC) without the spaces around it.",
    )

    def validate_name(self, value: str) -> str:
        if not is_valid_name(value):
            raise serializers.ValidationError(
                "Names hold 1 to 40 printable characters, not only spaces."
            )
        return normalized_name(value)


class PositionSerializer(StrictSerializer):
    """A card of the acting seat's grid: column 0-3, row 0-2."""

    column = StrictIntegerField(min_value=0, max_value=3, help_text="Column 0-3.")
    row = StrictIntegerField(min_value=0, max_value=2, help_text="Row 0-2.")


class QueryIntegerField(serializers.IntegerField):
    """A whole number in the query string. Present but empty (`?at=`) is an invalid number,
    not an absent parameter (DRF's default for a field that is not required)."""

    def get_value(self, dictionary: Any) -> Any:
        if self.field_name in dictionary and dictionary[self.field_name] == "":
            return ""
        return super().get_value(dictionary)


class QueryChoiceField(serializers.ChoiceField):
    """One of `choices` in the query string; present but empty (`?status=`) is refused, as for
    `QueryIntegerField`."""

    def get_value(self, dictionary: Any) -> Any:
        if self.field_name in dictionary and dictionary[self.field_name] == "":
            return ""
        return super().get_value(dictionary)


class QueryBooleanField(serializers.BooleanField):
    """`true` or `false` in the query string, nothing else: DRF's field also takes `1`, `yes`
    or `on`, and reads an absent parameter as false (as for an unchecked HTML checkbox)."""

    def get_value(self, dictionary: Any) -> Any:
        return dictionary.get(self.field_name, serializers.empty)

    def to_internal_value(self, data: Any) -> bool:
        if data not in ("true", "false"):
            self.fail("invalid", input=data)
        return bool(data == "true")


GAME_STATUS_FILTERS = list(Status.values)
GAME_ORDERINGS = ["-created_at", "created_at", "-updated_at", "updated_at"]
MAX_PAGE = 100
MAX_OFFSET = 2**31 - 1


class GameListQuerySerializer(serializers.Serializer):
    """The lobby's filters, order and page; every bad value is refused (400), none ignored."""

    status = QueryChoiceField(choices=GAME_STATUS_FILTERS, required=False)
    seats = QueryIntegerField(min_value=MIN_SEATS, max_value=MAX_SEATS, required=False)
    open_seats = QueryIntegerField(min_value=1, max_value=MAX_SEATS, required=False)
    seeded = QueryBooleanField(required=False)
    ordering = QueryChoiceField(choices=GAME_ORDERINGS, default="-created_at")
    limit = QueryIntegerField(min_value=1, max_value=MAX_PAGE, default=20)
    offset = QueryIntegerField(min_value=0, max_value=MAX_OFFSET, default=0)


class AtQuerySerializer(serializers.Serializer):
    at = QueryIntegerField(min_value=1, max_value=2**31 - 1, required=False)


class EventsQuerySerializer(serializers.Serializer):
    after = QueryIntegerField(min_value=0, max_value=2**31 - 1, default=0)
    limit = QueryIntegerField(min_value=1, max_value=1000, default=100)


class EmptySerializer(StrictSerializer):
    """No fields: the body may be absent or `{}`."""


CELL_STATES = ["face_down", "face_up", "removed"]
CARD_SOURCES = ["deck", "discard"]
ACTION_KINDS = list(TURN_ACTION_KINDS)
LAST_ACTION_KINDS = ["join", *ACTION_KINDS]
HISTORY_FORMATS = ["skyjo-history"]
HISTORY_FORMAT_VERSIONS = [(1, "1")]

# Output shapes. Responses are built by `games.presenters` as plain data in exactly these
# shapes (rendering 96 nested cells through serializers would dominate a turn's cost); tests
# check every response against the OpenAPI schema generated from these.


class CellSerializer(serializers.Serializer):
    state = serializers.ChoiceField(choices=CELL_STATES)
    value = serializers.IntegerField(
        allow_null=True, help_text="Null unless the viewer may know the card."
    )


GRID_HELP = (
    "The 12 cards as 4 columns (left to right), each of 3 cells from top to bottom: "
    "`grid[column][row]`, column 0-3 and row 0-2, the positions actions take. Empty before the "
    "first deal."
)


class GridField(serializers.ListField):
    """4 columns of 3 cells, top to bottom (`grid[column][row]`); empty before the first deal."""

    child = serializers.ListField(
        child=CellSerializer(), min_length=3, max_length=3, help_text="One column, top to bottom."
    )

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("help_text", GRID_HELP)
        super().__init__(**kwargs)


class PlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField(allow_null=True, help_text="Null for an open seat.")
    total = serializers.IntegerField(help_text="Sum of the round scores so far.")
    grid = GridField()


class HeldCardSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    source = serializers.ChoiceField(choices=CARD_SOURCES)
    value = serializers.IntegerField(
        allow_null=True, help_text="Null for everyone but the drawer of a deck card (R7)."
    )


ACTION_DESCRIPTIONS = {
    "reveal": "Turn the face-down card at (column, row) face up: a setup reveal (R4.3) or the "
    "reveal after discarding a drawn card (R6b).",
    "draw": "Take the top card of the draw pile and look at it (R6b).",
    "take_discard": "Take the top card of the discard pile; it must then replace a card (R6a).",
    "replace": "Put the held card at (column, row); the card there goes face up onto the discard "
    "pile (R6).",
    "discard": "Put the card drawn from the draw pile onto the discard pile, then reveal (R6b).",
}


def action_component_name(kind: str) -> str:
    """`take_discard` -> `TakeDiscardAction`: the schema's name for that action's shape."""
    return "".join(part.capitalize() for part in kind.split("_")) + "Action"


def _action_shape(kind: str) -> type[StrictSerializer]:
    """The shape of one action, as `legal_actions` lists it and `POST .../actions` takes it:
    `action` (a constant) and, for a position, `column` and `row`, all required."""
    attributes: dict[str, Any] = {
        "__doc__": ACTION_DESCRIPTIONS[kind],
        "action": serializers.ChoiceField(choices=[kind], help_text=f"Always `{kind}`."),
    }
    if kind in POSITION_KINDS:
        attributes["column"] = StrictIntegerField(min_value=0, max_value=3, help_text="Column 0-3.")
        attributes["row"] = StrictIntegerField(min_value=0, max_value=2, help_text="Row 0-2.")
    name = action_component_name(kind) + "Serializer"
    return type(name, (StrictSerializer,), {"__module__": __name__, **attributes})


#: One shape per turn action, in the engine's order (`engine.TURN_ACTIONS`).
ACTION_SHAPES: dict[str, type[StrictSerializer]] = {
    kind: _action_shape(kind) for kind in TURN_ACTION_KINDS
}
LEGAL_ACTION = PolymorphicProxySerializer(
    component_name="LegalAction",
    serializers=ACTION_SHAPES,
    resource_type_field_name="action",
    many=False,
)
#: The schema of one action, whichever it is: a `oneOf` told apart by `action`.
LEGAL_ACTION_REF = {"$ref": "#/components/schemas/LegalAction"}


class AnyActionSerializer(serializers.Serializer):
    """One of `legal_actions` as it is: its `action` chooses the shape the rest must have."""

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise serializers.ValidationError({"non_field_errors": ["Expected a JSON object."]})
        kind = data.get("action")
        shape = ACTION_SHAPES.get(kind) if isinstance(kind, str) else None
        if shape is None:
            expected = ", ".join(TURN_ACTION_KINDS)
            raise serializers.ValidationError({"action": [f"Expected one of: {expected}."]})
        form = shape(data=data)
        form.is_valid(raise_exception=True)
        return dict(form.validated_data)


@extend_schema_field(LEGAL_ACTION)
class LegalActionField(serializers.DictField):
    """One of `LegalAction`'s shapes."""


class LastActionSerializer(serializers.Serializer):
    """The most recent action that changed the game, and what it caused."""

    seat = serializers.IntegerField(help_text="The seat that acted.")
    action = serializers.ChoiceField(
        choices=LAST_ACTION_KINDS,
        help_text="`join` (took a seat), or the turn action as `legal_actions` names it.",
    )
    column = serializers.IntegerField(
        allow_null=True,
        min_value=0,
        max_value=3,
        help_text="`reveal` and `replace`: the position's column 0-3; else null.",
    )
    row = serializers.IntegerField(
        allow_null=True,
        min_value=0,
        max_value=2,
        help_text="`reveal` and `replace`: the position's row 0-2; else null.",
    )
    value = serializers.IntegerField(
        allow_null=True,
        help_text="The card revealed, drawn, taken from the discard pile, placed or discarded. "
        "A card drawn from the draw pile is shown to its drawer only (null for everyone else) "
        "while it is held (R7); null for `join`.",
    )
    replaced = serializers.IntegerField(
        allow_null=True,
        help_text="`replace`: the card that left the grid for the discard pile; else null.",
    )
    removed_column = serializers.IntegerField(
        allow_null=True,
        min_value=0,
        max_value=3,
        help_text="The column of three equal cards this action completed and removed (R8): "
        "its three cards were `value`. Null if none.",
    )
    final_turns_began = serializers.BooleanField(
        help_text="This action left its seat without a face-down card: that seat is now "
        "`closer_seat` and each other seat plays once more (R10)."
    )
    ended_round = serializers.IntegerField(
        allow_null=True,
        min_value=1,
        help_text="The round this action ended and scored (R10, R11), else null. Its result is "
        "the entry of `rounds` with that `round` (the last one); unless `ended_game`, the view "
        "is already the next round's, in setup. A client notices a round's end by this field "
        "(or by `round` going up between two views).",
    )
    ended_game = serializers.BooleanField(
        help_text="This action ended the game (R3): `status` is `finished`, `winners` is set."
    )


class RoundPlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    grid = GridField()
    raw_score = serializers.IntegerField()
    round_score = serializers.IntegerField()
    doubled = serializers.BooleanField()


class RoundSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    closer_seat = serializers.IntegerField()
    players = RoundPlayerSerializer(many=True)


class GameOptionsSerializer(serializers.Serializer):
    end_score = serializers.IntegerField()
    closer_penalty = serializers.BooleanField()


GAME_STATUSES = list(PHASES)


class GameSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    seeded = serializers.BooleanField(
        help_text="Created with an explicit `seed`: whoever knows it knows every card, dealt "
        "or to come. Join only a game whose creator you trust; `GET /games?seeded=false` "
        "lists the others. An imported game is not seeded (new secret seed)."
    )
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField(
        help_text="When the game's last event was stored (with `?at=N`: event N's time)."
    )
    status = serializers.ChoiceField(
        choices=GAME_STATUSES,
        help_text="`round_ended` is only seen when replaying between two events (`?at=`).",
    )
    version = serializers.IntegerField(help_text="Sequence number of the last event.")
    round = serializers.IntegerField(help_text="0 before the first deal.")
    seats = serializers.IntegerField()
    open_seats = serializers.IntegerField()
    options = GameOptionsSerializer()
    you = serializers.IntegerField(allow_null=True, help_text="The viewer's seat; null: spectator.")
    current_seat = serializers.IntegerField(allow_null=True)
    closer_seat = serializers.IntegerField(
        allow_null=True,
        help_text="The seat that ended a turn with no face-down card this round (R10), if any.",
    )
    final_turns_left = serializers.IntegerField(
        min_value=0,
        help_text="After the closer: the seats still to finish their final turn, the current "
        "seat's included (R10). 0 when no final turns are being played.",
    )
    starting_seat = serializers.IntegerField(
        allow_null=True,
        help_text="The seat that starts (or, while playing, started) this round (R5): in "
        "later rounds the previous round's closer; in round 1 the highest pair of setup "
        "reveals, so null until every seat has made its reveals. Null once finished.",
    )
    discard_top = serializers.IntegerField(allow_null=True)
    discard_size = serializers.IntegerField()
    deck_size = serializers.IntegerField()
    held_card = HeldCardSerializer(allow_null=True)
    players = PlayerSerializer(many=True)
    legal_actions = serializers.ListField(
        child=LegalActionField(),
        help_text="What the viewer may do now, each ready to send as it is to "
        "`POST /api/v1/games/{id}/actions`. Empty when it is not the viewer's move.",
    )
    rounds = RoundSerializer(many=True)
    winners = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    last_action = LastActionSerializer(
        allow_null=True,
        help_text="The most recent action that changed the game, as the caller may see it; "
        "null before the first join.",
    )


class GameSummarySerializer(serializers.Serializer):
    id = serializers.UUIDField()
    seeded = serializers.BooleanField(
        help_text="Created with an explicit `seed`: whoever knows it knows every card, dealt "
        "or to come. Join only a game whose creator you trust; `GET /games?seeded=false` "
        "lists the others. An imported game is not seeded (new secret seed)."
    )
    created_at = serializers.DateTimeField()
    status = serializers.ChoiceField(choices=GAME_STATUSES)
    version = serializers.IntegerField()
    round = serializers.IntegerField()
    seats = serializers.IntegerField()
    open_seats = serializers.IntegerField()
    options = GameOptionsSerializer()
    players = serializers.ListField(child=serializers.CharField(), help_text="Joined names.")
    updated_at = serializers.DateTimeField(help_text="When the game's last event was stored.")
    totals = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Each seat's total so far, by seat (`totals[seat]`; 0 before a round is scored).",
    )
    winners = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="The winning seats (R3), null until the game is finished.",
    )


class GameListSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = GameSummarySerializer(many=True)


class EventFeedSerializer(serializers.Serializer):
    events = feed_events(many=True, help_text="Each event as the caller may see it.")
    version = serializers.IntegerField(help_text="The game's current version.")


class HistoryPlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()


class HistoryGameSerializer(serializers.Serializer):
    id = serializers.UUIDField(required=False)
    created_at = serializers.DateTimeField(
        required=False,
        help_text="When the game was created. An import keeps it as the new game's "
        "`created_at` (a past time with its UTC offset); its events are stored at the import.",
    )
    seats = serializers.IntegerField()
    options = GameOptionsSerializer()
    players = HistoryPlayerSerializer(many=True)
    status = serializers.ChoiceField(choices=GAME_STATUSES, required=False)
    version = serializers.IntegerField(required=False)
    winners = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, required=False
    )
    seeded = serializers.BooleanField(
        required=False,
        help_text="Whether the game was created with an explicit seed. An import does not "
        "check it against anything: the imported game gets a new secret seed, so it is not "
        "seeded.",
    )


class HistorySerializer(serializers.Serializer):
    """A complete game log, format `skyjo-history` version 1 (see the README)."""

    format = serializers.ChoiceField(choices=HISTORY_FORMATS)
    format_version = serializers.ChoiceField(
        choices=HISTORY_FORMAT_VERSIONS, help_text="The version of the format: always 1."
    )
    game = HistoryGameSerializer()
    events = history_events(many=True, help_text="Every event, in order, nothing hidden.")


class SeatTokenSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    token = serializers.CharField()


class ImportedGameSerializer(GameSerializer):
    seat_tokens = SeatTokenSerializer(
        many=True,
        help_text="For an unfinished game: a new token for every joined seat, shown once. "
        "Empty for a finished game.",
    )


class JoinedSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    token = serializers.CharField(
        help_text="Bearer token for this seat. Shown once; the service keeps only its hash."
    )
    game = GameSerializer(help_text="The game as the new seat sees it.")
