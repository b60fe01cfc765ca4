"""The history document as the HTTP API reads it: its envelope and each event checked in
shape and held to create's and join's limits (with their serializers), then handed to the use
cases parsed (`games.core.history`), which audit them by the rules. Errors are
`invalid_history` problems naming the first offending event and field."""

from __future__ import annotations

import copy
from dataclasses import fields
from datetime import UTC, datetime
from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_datetime

from engine import (
    Event,
    RuleError,
    UnknownEventType,
    event_from_data,
    event_to_data,
)
from games.api.inputs import (
    CreateGameSerializer,
    JoinSerializer,
    OptionsSerializer,
    StrategyField,
    StrictSerializer,
)
from games.api.problems import field_errors
from games.core.errors import InvalidHistory
from games.core.history import (
    FORMAT,
    FORMAT_VERSION,
    MAX_EVENTS,
    AuditedHistory,
    audit_events,
    check_envelope,
    expected_envelope,
    field_problem,
)
from games.core.states import STATUS_OF_PHASE

#: The keys a document, its `game` and each of its events may hold: any other is refused.
DOCUMENT_KEYS = frozenset({"format", "format_version", "game", "events"})


GAME_KEYS = frozenset(
    {"id", "created_at", "seats", "options", "players", "status", "version", "winners", "seeded"}
)


EVENT_KEYS = frozenset({"sequence", "type", "schema_version", "at", "data"})


def _unknown_keys(found: dict[str, Any], known: frozenset[str], where: str) -> None:
    """Refuse a key the format does not have (a `seed`, say: a seed is not part of a history)."""
    unknown = sorted(set(found) - known)
    if unknown:
        errors = {f"{where}{key}": ["This field is not allowed."] for key in unknown}
        raise field_problem(None, "malformed_document", errors)


def history_events(document: Any) -> list[Any]:
    """The raw events of a history document, after checking its envelope."""
    if not isinstance(document, dict):
        raise InvalidHistory(None, "malformed_document", "A history is a JSON object.")
    if document.get("format") != FORMAT:
        raise InvalidHistory(None, "unknown_format", f"'format' must be {FORMAT!r}.")
    version = document.get("format_version")
    if type(version) is not int or version != FORMAT_VERSION:
        raise InvalidHistory(
            None, "unknown_format_version", f"'format_version' must be {FORMAT_VERSION}."
        )
    _unknown_keys(document, DOCUMENT_KEYS, "")
    raw_events = document.get("events")
    if not isinstance(raw_events, list) or not raw_events:
        raise InvalidHistory(None, "malformed_document", "'events' must be a non-empty list.")
    if len(raw_events) > MAX_EVENTS:
        raise InvalidHistory(None, "too_many_events", f"At most {MAX_EVENTS} events.")
    return raw_events


def game_envelope(document: dict[str, Any]) -> dict[str, Any]:
    """The document's `game` object (empty when absent), with only the format's keys."""
    game = document.get("game", {})
    if not isinstance(game, dict):
        raise InvalidHistory(None, "malformed_document", "'game' must be an object.")
    _unknown_keys(game, GAME_KEYS, "game.")
    if "seeded" in game and not isinstance(game["seeded"], bool):
        raise field_problem(None, "malformed_document", {"game.seeded": ["Must be a boolean."]})
    return game


#: The earliest creation time an import keeps (the service did not exist before).
EARLIEST_CREATED_AT = datetime(2000, 1, 1, tzinfo=UTC)


def original_created_at(game: dict[str, Any]) -> datetime | None:
    """When the exported game was created (`game.created_at`), in UTC, which its import keeps;
    None when the document does not say. Refused unless an ISO 8601 time with its offset,
    from 2000 on and not in the future."""
    raw = game.get("created_at")
    if raw is None:
        return None
    moment = _aware_time(raw)
    if moment is None or not EARLIEST_CREATED_AT <= moment <= timezone.now():
        raise InvalidHistory(
            None,
            "malformed_document",
            "'game.created_at' must be a past ISO 8601 time with its UTC offset.",
        )
    return moment


def _aware_time(raw: Any) -> datetime | None:
    """`raw` as a UTC time, or None if it is not an ISO 8601 time with its offset."""
    try:
        moment = parse_datetime(raw) if isinstance(raw, str) else None
        return None if moment is None or moment.tzinfo is None else moment.astimezone(UTC)
    except (ValueError, OverflowError):  # a month 13, an offset of 99 hours, year 1 at +14:00
        return None


def parse_event(position: int, raw: Any) -> Event:
    if not isinstance(raw, dict):
        raise InvalidHistory(position, "malformed_event", "An event is a JSON object.")
    sequence = raw.get("sequence")
    if type(sequence) is not int or sequence != position:  # not true, nor 1.0, for 1
        raise InvalidHistory(
            position, "sequence_gap", f"Events are numbered 1, 2, 3...; expected {position}."
        )
    unknown = sorted(set(raw) - EVENT_KEYS)
    if unknown:
        errors = {f"events.{position - 1}.{key}": ["This field is not allowed."] for key in unknown}
        raise field_problem(position, "malformed_event", errors)
    type_name, version, data = raw.get("type"), raw.get("schema_version"), raw.get("data")
    if not isinstance(type_name, str) or not isinstance(data, dict):
        raise InvalidHistory(position, "malformed_event", "An event has a 'type' and 'data'.")
    if isinstance(version, bool) or not isinstance(version, int):
        raise InvalidHistory(position, "malformed_event", "'schema_version' is a whole number.")
    check_limits(position, type_name, version, data)
    try:
        event = event_from_data(type_name, data, version)
    except UnknownEventType:
        raise InvalidHistory(
            position, "unknown_event_type", f"No event type {type_name!r}."
        ) from None
    except RuleError as error:
        raise InvalidHistory(position, error.code, f"Bad {type_name} payload: {error}") from None
    except (KeyError, TypeError, ValueError) as error:
        raise InvalidHistory(
            position, "malformed_event", f"Bad {type_name} payload: {error}"
        ) from None
    wrong = _wrongly_typed_field(event)
    if wrong is not None:
        raise InvalidHistory(
            position, "malformed_event", f"Bad {type_name} payload: '{wrong}' has the wrong type."
        )
    return event


def _create_field(serializer: type[StrictSerializer], name: str) -> Any:
    """A field of create's serializers, as it is there (same type, bounds and messages)."""
    return copy.deepcopy(serializer._declared_fields[name])


class LoggedOptionsLimitsSerializer(OptionsSerializer):
    """A `GameCreated`'s options held to create's limits: its `options`, and its `rated`,
    which the log records among them (R14; the import then makes the game casual)."""

    rated = _create_field(CreateGameSerializer, "rated")


class GameCreatedLimitsSerializer(StrictSerializer):
    """A `GameCreated` payload (schema 2) held to create's limits."""

    seats = _create_field(CreateGameSerializer, "seats")
    options = LoggedOptionsLimitsSerializer()


class GameCreatedSchema1LimitsSerializer(StrictSerializer):
    """A `GameCreated` payload of schema 1 (options at the top level), held to create's limits."""

    seats = _create_field(CreateGameSerializer, "seats")
    end_score = _create_field(OptionsSerializer, "end_score")
    closer_penalty = _create_field(OptionsSerializer, "closer_penalty")


class BotLimitsSerializer(StrictSerializer):
    """The bot a `SeatLeft` or `SeatAbandoned` hands a seat to: one of the strategies."""

    bot = StrategyField()


#: The serializers of create and join that hold a payload to their limits, by (type, schema),
#: and the fields of the payload they read.
_LIMITS: dict[tuple[str, int], tuple[str, type[Any], tuple[str, ...] | None]] = {
    ("GameCreated", 2): ("invalid_options", GameCreatedLimitsSerializer, None),
    ("GameCreated", 1): ("invalid_options", GameCreatedSchema1LimitsSerializer, None),
    ("PlayerJoined", 1): ("invalid_name", JoinSerializer, ("name",)),
    ("PlayerJoined", 2): ("invalid_name", JoinSerializer, ("name", "bot")),
    ("SeatLeft", 1): ("invalid_bot", BotLimitsSerializer, ("bot",)),
    ("SeatAbandoned", 1): ("invalid_bot", BotLimitsSerializer, ("bot",)),
}


def check_limits(position: int, type_name: str, version: int, data: dict[str, Any]) -> None:
    """Hold what a creator or a joiner chose (seats, options, a name, a bot) to exactly the
    limits of create and join, with their serializers: `invalid_options`, `invalid_name` or
    (a bot's strategy, which must be one of `GET /api/v1/bots`: the service plays it)
    `invalid_bot`, naming the field (`events.0.data.options.end_score`). The rules check the
    rest of the log.

    A name must also be in the form join stores (NFC, no spaces around): a log holds names
    as stored, and an import stores its events as they are.
    """
    found = _LIMITS.get((type_name, version))
    if found is None:
        return
    code, serializer_class, read = found
    checked = data if read is None else _fields(data, read)
    form = serializer_class(data=checked)
    where = f"events.{position - 1}.data."
    if not form.is_valid():
        found_errors = field_errors(form.errors)
        if set(found_errors) == {"bot"}:  # a join's name was fine, its strategy is none
            code = "invalid_bot"
        errors = {where + path: messages for path, messages in found_errors.items()}
        raise field_problem(position, code, errors)
    if type_name == "PlayerJoined" and form.validated_data["name"] != data["name"]:
        message = "A name is stored NFC-normalized, without spaces around it: not as sent."
        raise field_problem(position, code, {where + "name": [message]})


def _fields(data: dict[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
    """The payload's fields `names` that are set (a person's `bot` is null: not a bot's)."""
    return {name: data.get(name) for name in names if data.get(name) is not None or name == "name"}


def _wrongly_typed_field(event: Event) -> str | None:
    """The first field holding a JSON type the rules never write there, if any.

    Python compares `True == 1` and `1.0 == 1`, so the auditor alone would accept `true` or
    `1.0` for a card, a seat or a round, and the log would store them. Events hold whole
    numbers, strings, null and lists of them; booleans only in boolean fields. An object
    (the options) is checked by its own decoder.
    """
    data = event_to_data(event)
    for field in fields(event):
        if not _plain_value(data[field.name], boolean=field.type in ("bool", bool)):
            return field.name
    return None


def _plain_value(value: Any, *, boolean: bool) -> bool:
    if isinstance(value, bool):
        return boolean
    if isinstance(value, list):
        return all(_plain_value(item, boolean=False) for item in value)
    return value is None or isinstance(value, int | str | dict)


def audited_history(document: Any) -> AuditedHistory:
    """A history document's events, parsed and audited by the rules, its `game` object
    checked against them, and its game's creation time: what an import stores."""
    raw_events = history_events(document)
    events = [parse_event(position, raw) for position, raw in enumerate(raw_events, start=1)]
    state = audit_events(events)
    game = game_envelope(document)
    check_envelope(game, expected_envelope(events, state, STATUS_OF_PHASE[state.phase]))
    return AuditedHistory(events, state, original_created_at(game))
