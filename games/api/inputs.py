"""Input serializers: they run, validating what clients send (bodies and queries), and
document it. They refuse unknown fields, so a misspelt field is an error rather than
silently ignored."""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

import play
from accounts.handles import HANDLE_PATTERN, is_well_formed
from accounts.models import Kind
from accounts.scopes import ALL_SCOPES, SCOPES
from engine import POSITION_KINDS, TURN_ACTION_KINDS, TURN_ACTIONS
from engine.cards import COLUMNS, ROWS
from engine.options import (
    DEFAULT_END_SCORE,
    DEFAULT_MAX_TIMEOUTS,
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
from games.core import ACCOUNT_GAME_STATUSES, bots
from games.core.cursors import Cursor, parse_cursor
from games.core.names import MAX_NAME_LENGTH, NAME_PATTERN, is_valid_name, normalized_name
from games.models import Status
from play import DEFAULT_EXPIRES_IN, MAX_EXPIRES_IN, MIN_EXPIRES_IN
from play.models import ChallengeStatus, DeclineReason

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
    turn_seconds = StrictIntegerField(
        min_value=MIN_TURN_SECONDS,
        max_value=MAX_TURN_SECONDS,
        default=None,
        allow_null=True,
        help_text="Each turn's clock, in seconds (R13): the time a seat has for its turn (and "
        "for its setup reveals); when it runs out the service plays the turn for the seat "
        "(`greedy`). Null (the default): no clock.",
    )
    max_timeouts = StrictIntegerField(
        min_value=MIN_MAX_TIMEOUTS,
        max_value=MAX_MAX_TIMEOUTS,
        default=DEFAULT_MAX_TIMEOUTS,
        help_text="After this many timeouts in a row a bot plays the seat for the rest of the "
        "game (R13).",
    )
    bot_pace_ms = StrictIntegerField(
        min_value=MIN_BOT_PACE_MS,
        max_value=MAX_BOT_PACE_MS,
        default=None,
        allow_null=True,
        help_text="Milliseconds the service leaves between two of its bots' actions (R15; one "
        "action each, each its own event). Null (the default): the service's pace, "
        "`SKYJO_BOT_PACE_MS` (700 ms unless its operator says otherwise) while a person plays "
        "a seat, and at once for bots alone; the game's `bot_pace_ms` says the pace in force. "
        "0: at once, even with a person seated.",
    )


HANDLE_HELP = (
    "3 to 20 letters, digits, `_` or `-`, starting with a letter; unique whatever its case."
)


@extend_schema_field({"type": "string", "minLength": 3, "maxLength": 20, "pattern": HANDLE_PATTERN})
class HandleField(StrictCharField):
    """An account's handle: the schema carries its pattern (accounts.handles)."""


#: Why a rated game takes no seed: its creator would know every card.
RATED_SEED = "A rated game's deal is secret: whoever knows its seed knows every card. Send no seed."


class CreateGameSerializer(StrictSerializer):
    """A new game: its number of seats, rule options and optional seed; whether lobbies list
    it, and the accounts its seats are kept for."""

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
    listed = StrictBooleanField(
        default=True,
        help_text="`false`: a private game, left out of `GET /api/v1/games` and the lobby page "
        "for everyone but its players (and its creator's account); its unguessable id, the "
        "answer's `invite_url`, is the invitation.",
    )
    rated = StrictBooleanField(
        default=False,
        help_text="`true`: a rated game (R14). Every seat is an account's, each account once "
        "(people, bot accounts, the built-in bots: a join with `bot` seats the built-in bot's "
        "account); a guest's join gets 409 `account_required`. Its deal is secret: a `seed` "
        "is refused (400), since whoever knows it knows every card. `false` (the default): "
        "a casual game.",
    )
    reserved = serializers.ListField(
        child=HandleField(max_length=20, trim_whitespace=False),
        required=False,
        max_length=MAX_SEATS,
        help_text="Keep a seat for each of these accounts (handles): anyone else who joins gets "
        "409 `seat_reserved` while every open seat is kept, until its account takes it, the "
        "creator frees it (`DELETE /api/v1/games/{id}/reservations/{handle}`) or the game "
        "starts. Needs the creator's personal token (scope `play`): 401 "
        "`account_token_required` without; 404 `player_not_found` for a handle of no account; "
        "400 for more handles than seats, or a built-in bot's (seat it with `bot` instead).",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["rated"] and attrs.get("seed") is not None:
            raise serializers.ValidationError({"seed": [RATED_SEED]})
        return attrs

    def validate_reserved(self, value: list[str]) -> list[str]:
        for handle in value:
            if not is_well_formed(handle):
                raise serializers.ValidationError(HANDLE_HELP)
            if handle.lower() in bots.STRATEGY_NAMES:
                raise serializers.ValidationError(
                    f"{handle} is a built-in bot: seat it with a join's `bot`, not a reservation."
                )
        return value


@extend_schema_field(
    {"type": "string", "minLength": 1, "maxLength": MAX_NAME_LENGTH, "pattern": NAME_PATTERN}
)
class NameField(StrictCharField):
    """A player's name: the schema carries the rule's pattern (games.names)."""


class StrategyField(serializers.ChoiceField):
    """A bot's strategy, one of `GET /api/v1/bots` (the schema's enum `Strategy`)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=list(bots.descriptions()), **kwargs)
        self.error_messages["invalid_choice"] = (
            '"{input}" is no strategy: GET /api/v1/bots lists them.'
        )

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, str):
            self.fail("invalid_choice", input=data)
        return super().to_internal_value(data)


class JoinSerializer(StrictSerializer):
    """A player taking the next open seat: a person (`name`), or a bot (`bot`, and a `name`
    if you like) that the service plays (R13)."""

    name = NameField(
        min_length=1,
        max_length=MAX_NAME_LENGTH,
        trim_whitespace=False,  # the rule applies to the name as sent (games.names)
        required=False,
        help_text="The player's display name: 1 to 40 characters, printable (no control, "
        "format, private-use or unassigned character, no line break), not only spaces. It is "
        "stored normalized (NFC) without the spaces around it. Required for a guest; a bot "
        "named by none is called after its strategy (`Statistician bot`), numbered from 2 "
        "when the game already has that name (`Statistician bot 2`); an account's seat "
        "(a personal token presented) is named by its handle: send none, or the handle.",
    )
    bot = StrategyField(
        required=False,
        help_text="Seat a bot playing this strategy (`GET /api/v1/bots`) instead of a person: "
        "the service plays its setup reveals and turns, and the answer holds no token.",
    )

    def validate_name(self, value: str) -> str:
        if not is_valid_name(value):
            raise serializers.ValidationError(
                "Names hold 1 to 40 printable characters, not only spaces."
            )
        return normalized_name(value)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        bot, handle = attrs.get("bot"), self.context.get("account")
        if bot is None and handle is not None:
            return {"name": _account_seat_name(attrs.get("name"), handle)}
        if "name" not in attrs and bot is None:
            raise serializers.ValidationError({"name": ["This field is required."]})
        return attrs  # a bot named by none: named by the join, among the game's names


def _account_seat_name(name: str | None, handle: str) -> str:
    """An account's seat is named by its handle: sent as is (any case), or left out."""
    if name is not None and name.lower() != handle.lower():
        message = f"An account's seat is named by its handle ({handle}): send no name."
        raise serializers.ValidationError({"name": [message]})
    return handle


#: A grid position's bounds (R1: 4 columns of 3 rows), for every field that takes one.
COLUMN = {"min_value": 0, "max_value": COLUMNS - 1, "help_text": f"Column 0-{COLUMNS - 1}."}
ROW = {"min_value": 0, "max_value": ROWS - 1, "help_text": f"Row 0-{ROWS - 1}."}


class PositionSerializer(StrictSerializer):
    """A card of the acting seat's grid: column 0-3, row 0-2."""

    column = StrictIntegerField(**COLUMN)
    row = StrictIntegerField(**ROW)


def typed_action_body(positioned: bool, body: Any) -> dict[str, Any]:
    """A typed action's body, validated: `{column, row}` for an action of a position
    (`positioned`, `PositionSerializer`), else nothing (`EmptySerializer`); 400 otherwise.

    Every action runs this, and DRF's serializer deep-copies its declared fields per instance:
    with `SKYJO_FAST_INPUTS` (the default) a well-formed body is taken here without one, and
    anything else still goes to the serializer, which words the errors (a test compares the
    two paths' answers)."""
    if settings.SKYJO_FAST_INPUTS:
        found = _well_formed_position(body) if positioned else _well_formed_empty(body)
        if found is not None:
            return found
    form = (PositionSerializer if positioned else EmptySerializer)(data=body)
    form.is_valid(raise_exception=True)
    return dict(form.validated_data)


def _well_formed_position(body: Any) -> dict[str, Any] | None:
    """`{column, row}` if `body` is exactly a position in the grid's bounds, else None."""
    if type(body) is not dict or len(body) != 2:
        return None
    column, row = body.get("column"), body.get("row")
    if type(column) is int and type(row) is int and 0 <= column < COLUMNS and 0 <= row < ROWS:
        return {"column": column, "row": row}
    return None


def _well_formed_empty(body: Any) -> dict[str, Any] | None:
    """Nothing if `body` is an empty JSON object, else None."""
    return {} if type(body) is dict and not body else None


class QueryIntegerField(serializers.IntegerField):
    """A whole number in the query string, written in ASCII digits as the schema's `integer`
    says (not `1.0`, ` 1 ` or other scripts' digits, which Python's `int` would take).
    Present but empty (`?at=`) is an invalid number, not an absent parameter (DRF's default
    for a field that is not required)."""

    def get_value(self, dictionary: Any) -> Any:
        if self.field_name in dictionary and dictionary[self.field_name] == "":
            return ""
        return super().get_value(dictionary)

    def to_internal_value(self, data: Any) -> int:
        if not (isinstance(data, str) and _WHOLE_NUMBER.fullmatch(data)):
            self.fail("invalid")
        return int(super().to_internal_value(data))


_WHOLE_NUMBER = re.compile(r"-?[0-9]{1,20}")


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
    stale = QueryBooleanField(default=False)
    ordering = QueryChoiceField(choices=GAME_ORDERINGS, default="-created_at")
    limit = QueryIntegerField(min_value=1, max_value=MAX_PAGE, default=20)
    offset = QueryIntegerField(min_value=0, max_value=MAX_OFFSET, default=0)


class AtQuerySerializer(serializers.Serializer):
    at = QueryIntegerField(min_value=1, max_value=2**31 - 1, required=False)


#: Longest long poll (`/events?wait=`), in seconds.
MAX_WAIT_SECONDS = 30


class EventsQuerySerializer(serializers.Serializer):
    after = QueryIntegerField(min_value=0, max_value=2**31 - 1, default=0)
    wait = QueryIntegerField(min_value=0, max_value=MAX_WAIT_SECONDS, default=0)
    limit = QueryIntegerField(min_value=1, max_value=1000, default=100)


class StreamQuerySerializer(serializers.Serializer):
    after = QueryIntegerField(min_value=0, max_value=2**31 - 1, required=False)


class StreamCursorField(serializers.CharField):
    """A game stream's place in the query string: a frame's id, `17` or `17:3` (an event's
    sequence, and the chat's: `games.core.cursors`); present but empty is refused."""

    default_error_messages = {
        "invalid": "Expected a frame's id: a whole number, or two joined by a colon (12:3), "
        "each from 0 to 2147483647."
    }

    def get_value(self, dictionary: Any) -> Any:
        if self.field_name in dictionary and dictionary[self.field_name] == "":
            return ""
        return super().get_value(dictionary)

    def to_internal_value(self, data: Any) -> Cursor:
        cursor = parse_cursor(data) if isinstance(data, str) and data == data.strip() else None
        if cursor is None:
            raise serializers.ValidationError(self.error_messages["invalid"], code="invalid")
        return cursor


class GameStreamQuerySerializer(serializers.Serializer):
    after = StreamCursorField(required=False)


class EmptySerializer(StrictSerializer):
    """No fields: the body may be absent or `{}`."""


#: What each action does, for the schema: the engine's own words (`engine.TURN_ACTIONS`).
ACTION_DESCRIPTIONS = {
    kind: " ".join((action.__doc__ or "").split()) for kind, action in TURN_ACTIONS.items()
}


def action_component_name(kind: str) -> str:
    """`take_discard` -> `TakeDiscardAction`: the schema's name for that action's shape."""
    return TURN_ACTIONS[kind].__name__ + "Action"


def _action_shape(kind: str) -> type[StrictSerializer]:
    """The shape of one action, as `legal_actions` lists it and `POST .../actions` takes it:
    `action` (a constant) and, for a position, `column` and `row`, all required."""
    attributes: dict[str, Any] = {
        "__doc__": ACTION_DESCRIPTIONS[kind],
        "action": serializers.ChoiceField(choices=[kind], help_text=f"Always `{kind}`."),
    }
    if kind in POSITION_KINDS:
        attributes["column"] = StrictIntegerField(**COLUMN)
        attributes["row"] = StrictIntegerField(**ROW)
    name = action_component_name(kind) + "Serializer"
    return type(name, (StrictSerializer,), {"__module__": __name__, **attributes})


#: One shape per turn action, in the engine's order (`engine.TURN_ACTIONS`).
ACTION_SHAPES: dict[str, type[StrictSerializer]] = {
    kind: _action_shape(kind) for kind in TURN_ACTION_KINDS
}


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


#: Django's hashers take any length; a bound keeps an Argon2 hash of a huge body cheap.
MAX_PASSWORD_LENGTH = 256


class SignUpSerializer(StrictSerializer):
    """A new account: a person (with a password, to log in to the pages) or a bot (none)."""

    handle = HandleField(
        max_length=20,
        trim_whitespace=False,
        help_text=f"The account's name, for good. {HANDLE_HELP}",
    )
    kind = serializers.ChoiceField(
        choices=list(Kind.values),
        help_text="`person` (needs a `password`) or `bot` (has none: its tokens are its only "
        "credential).",
    )
    password = StrictCharField(
        required=False,
        write_only=True,
        trim_whitespace=False,
        max_length=MAX_PASSWORD_LENGTH,
        help_text="A person's password, checked by Django's validators (at least 8 characters, "
        "not common, not all digits, unlike the handle). None for a bot.",
    )

    def validate_handle(self, value: str) -> str:
        if not is_well_formed(value):
            raise serializers.ValidationError(HANDLE_HELP)
        return value


class ScopeField(serializers.ChoiceField):
    """One scope of `accounts.scopes.SCOPES` (the schema's enum `Scope`)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=list(ALL_SCOPES), **kwargs)


class NewTokenSerializer(StrictSerializer):
    """Another personal token of the account, holding `scopes`."""

    description = StrictCharField(
        max_length=100,
        required=False,
        default="",
        allow_blank=True,
        help_text="What the token is for, to tell it apart in the list (up to 100 characters).",
    )
    scopes = serializers.ListField(
        child=ScopeField(),
        allow_empty=False,
        max_length=len(ALL_SCOPES),
        help_text="What the token may do: "
        + "; ".join(f"`{scope}`: {words}" for scope, words in SCOPES.items()),
    )


class PlayerGamesQuerySerializer(serializers.Serializer):
    """An account's games: filter by status (`active`: dealt and not finished) and page."""

    status = QueryChoiceField(choices=[*GAME_STATUS_FILTERS, "active"], required=False)
    limit = QueryIntegerField(min_value=1, max_value=MAX_PAGE, default=20)
    offset = QueryIntegerField(min_value=0, max_value=MAX_OFFSET, default=0)


class MyGamesQuerySerializer(PlayerGamesQuerySerializer):
    status = QueryChoiceField(choices=list(ACCOUNT_GAME_STATUSES), required=False)


# Ratings (R14)

#: The leaderboards: people's, or bots' (bot accounts and the built-in bots together).
LEADERBOARD_KINDS = list(Kind.values)
#: A rating history's longest page: a chart wants its points in few requests.
MAX_HISTORY_PAGE = 1000


class LeaderboardQuerySerializer(serializers.Serializer):
    """Which leaderboard (people's by default), whether provisional ratings count, the page."""

    kind = QueryChoiceField(choices=LEADERBOARD_KINDS, default=Kind.PERSON)
    provisional = QueryBooleanField(default=False)
    limit = QueryIntegerField(min_value=1, max_value=MAX_PAGE, default=20)
    offset = QueryIntegerField(min_value=0, max_value=MAX_OFFSET, default=0)


class RatingHistoryQuerySerializer(serializers.Serializer):
    limit = QueryIntegerField(min_value=1, max_value=MAX_HISTORY_PAGE, default=100)
    offset = QueryIntegerField(min_value=0, max_value=MAX_OFFSET, default=0)


# Challenges


class CreateChallengeSerializer(StrictSerializer):
    """A challenge: the accounts invited by handle, the game's seats and options, the bots
    seated with the challenger, whether the game is listed, and the time to answer."""

    players = serializers.ListField(
        child=HandleField(max_length=20, trim_whitespace=False),
        min_length=1,
        max_length=MAX_SEATS - 1,
        help_text="The handles of the accounts invited (persons or bot accounts, whatever "
        "their case), each once: not your own, and not a built-in bot's (seat those with "
        "`bots`). Each gets a seat held for it until the challenge closes.",
    )
    seats = StrictIntegerField(
        min_value=MIN_SEATS,
        max_value=MAX_SEATS,
        help_text="The game's seats (R2): at least 1 (yours) + `players` + `bots`. Seats "
        "beyond those are open to anyone who has the game's link (or finds it in the lobby "
        "when `listed`), and the game deals once every seat is taken.",
    )
    options = OptionsSerializer(required=False)
    bots = serializers.ListField(
        child=StrategyField(),
        required=False,
        default=list,
        max_length=MAX_SEATS - 2,
        help_text="Bots seated with you at once (`GET /api/v1/bots`), after your seat: each "
        "counts against your address's `bot_seat` limit, as a join does.",
    )
    listed = StrictBooleanField(
        default=False,
        help_text="`false` (the default): the game is private, left out of `GET "
        "/api/v1/games` but for its players (its unguessable id is the invitation); `true`: "
        "listed in the lobby like any game.",
    )
    expires_in = StrictIntegerField(
        min_value=MIN_EXPIRES_IN,
        max_value=MAX_EXPIRES_IN,
        default=DEFAULT_EXPIRES_IN,
        help_text="Seconds the invitees have to answer (10 to 86400, 600 by default): then "
        "the challenge expires and its game is called off.",
    )
    rated = StrictBooleanField(
        default=False,
        help_text="`true`: a rated game (R14). Its players are accounts, each once: the "
        "built-in bots of `bots` too, so name each once (400 otherwise); a guest joining one "
        "of its open seats gets 409 `account_required`. `false` (the default): casual.",
    )

    def validate_players(self, handles: list[str]) -> list[str]:
        if not all(is_well_formed(handle) for handle in handles):
            raise serializers.ValidationError(f"Each is a handle: {HANDLE_HELP}")
        return handles


class DeclineSerializer(StrictSerializer):
    """Why the invitee declines (the body may be absent or `{}`: `generic`)."""

    reason = serializers.ChoiceField(
        choices=list(DeclineReason.values),
        default="generic",
        help_text="Shown to the challenger: "
        + "; ".join(f"`{value}`: “{label}”" for value, label in DeclineReason.choices),
    )


CHALLENGE_DIRECTIONS = ["incoming", "outgoing"]


class ChallengeListQuerySerializer(serializers.Serializer):
    """The account's challenges: which way, in which status, and the page."""

    direction = QueryChoiceField(choices=CHALLENGE_DIRECTIONS, required=False)
    status = QueryChoiceField(choices=list(ChallengeStatus.values), required=False)
    limit = QueryIntegerField(min_value=1, max_value=MAX_PAGE, default=20)
    offset = QueryIntegerField(min_value=0, max_value=MAX_OFFSET, default=0)


# Seeks


class SeatRangeSerializer(StrictSerializer):
    """The game sizes a seeker accepts: any number of seats from `min` to `max`."""

    min = StrictIntegerField(
        min_value=MIN_SEATS, max_value=MAX_SEATS, help_text="The fewest seats (2 to 8)."
    )
    max = StrictIntegerField(
        min_value=MIN_SEATS, max_value=MAX_SEATS, help_text="The most seats (`min` to 8)."
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if data["min"] > data["max"]:
            raise serializers.ValidationError({"max": ["Ensure this value is at least min."]})
        return data


class CreateSeekSerializer(StrictSerializer):
    """A seek: the seats accepted, the clock, and how long before bots may fill the table."""

    seats = SeatRangeSerializer()
    turn_seconds = StrictIntegerField(
        min_value=MIN_TURN_SECONDS,
        max_value=MAX_TURN_SECONDS,
        default=None,
        allow_null=True,
        help_text="Each turn's clock, in seconds (R13), as a game's option; null (the "
        "default): no clock. Only seekers with the same clock are matched.",
    )
    bots_after = StrictIntegerField(
        min_value=0,
        max_value=settings.SEEK_MAX_SECONDS,
        default=None,
        allow_null=True,
        help_text="Seconds after which bots may fill the empty seats of your game (up to "
        "the fewest seats its seekers accept), with the other seekers who want bots by then; 0: "
        "at once. Null (the default): never seated with bots, keep waiting for people.",
    )
    rated = StrictBooleanField(
        default=False,
        help_text="`true`: a rated game (R14), matched with rated seekers only, near your "
        'rating first: a window of ordinals that widens as you wait (docs/CLIENTS.md, "Rated '
        'games"); bots that fill it are built-in ones, each once. `false` (the default): '
        "casual, matched with casual seekers only.",
    )


# Chat


@extend_schema_field({"type": "string", "minLength": 1, "maxLength": play.MAX_TEXT})
class ChatTextField(StrictCharField):
    """A message's text, checked once normalized (`play.clean_text`)."""


class PostChatMessageSerializer(StrictSerializer):
    """A message to write in one of the game's rooms."""

    room = serializers.ChoiceField(choices=list(play.ROOMS), help_text="The room to write in.")
    text = ChatTextField(
        trim_whitespace=False,  # normalized by the use case, which counts what it keeps
        help_text=f"1 to {play.MAX_TEXT} characters once normalized: NFC, the spaces around "
        "removed. Control characters (line breaks, tabs...) and the bidirectional overrides "
        "and isolates are refused.",
    )


class ChatQuerySerializer(serializers.Serializer):
    room = QueryChoiceField(choices=list(play.ROOMS), required=False)
    after = QueryIntegerField(min_value=0, max_value=2**31 - 1, default=0)
    limit = QueryIntegerField(min_value=1, max_value=play.MAX_PAGE, default=play.PAGE)


# The bot ladder


class JoinLadderSerializer(StrictSerializer):
    """A bot's place on the ladder: the seat counts it plays."""

    seats = serializers.ListField(
        child=StrictIntegerField(min_value=MIN_SEATS, max_value=MAX_SEATS),
        min_length=1,
        max_length=MAX_SEATS - MIN_SEATS + 1,
        default=[2],
        help_text="The seat counts the bot plays ladder games at, each 2 to 8 (a repeated one "
        "counts once); `[2]` by default.",
    )


class LadderQuerySerializer(serializers.Serializer):
    """Which ladder to show: its seat count."""

    seats = QueryIntegerField(min_value=MIN_SEATS, max_value=MAX_SEATS, default=2)
