"""Histories: a finished game's complete log as a versioned JSON document, and its import.

The document (format `skyjo-history`, `format_version` 1):

    {"format": "skyjo-history", "format_version": 1,
     "game": {"id", "created_at", "seats", "options", "players": [{"seat", "name"}],
              "status", "version", "winners"},
     "events": [{"sequence", "type", "schema_version", "at", "data"}, ...]}

`data` is the engine event's payload at its `schema_version`; nothing is hidden. Importing
replays every event through the engine's auditor (`engine.audit.verify_log`), so a history that
the rules would not have written is refused, naming its first offending event.
"""

from __future__ import annotations

from dataclasses import fields
from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_datetime

from engine import Event, GameState, RuleError, UnknownEventType, event_from_data, event_to_data
from engine.audit import InvalidLog, verify_log

from .models import Game, GameEvent
from .problems import Problem

FORMAT = "skyjo-history"
FORMAT_VERSION = 1
MAX_EVENTS = 50_000


def _timestamp(moment: Any) -> str:
    return str(moment.isoformat().replace("+00:00", "Z"))


def export_history(game: Game) -> dict[str, Any]:
    """The complete log of a finished game (409 `game_not_finished` before its end)."""
    if game.status != "finished":
        raise Problem(
            409,
            "game_not_finished",
            "The full history, with every hidden card, is published once the game is finished.",
        )
    rows = GameEvent.objects.filter(game=game).order_by("sequence")
    events = [
        {
            "sequence": row.sequence,
            "type": row.type,
            "schema_version": row.schema_version,
            "at": _timestamp(row.created_at),
            "data": row.payload,
        }
        for row in rows
    ]
    players = [{"seat": row.seat, "name": row.name} for row in game.seat_rows.order_by("seat")]
    winners = next(
        (e["data"]["winners"] for e in reversed(events) if e["type"] == "GameEnded"), None
    )
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": {
            "id": str(game.id),
            "created_at": _timestamp(game.created_at),
            "seats": game.seats,
            "options": game.options,
            "players": players,
            "status": game.status,
            "version": game.version,
            "winners": winners,
        },
        "events": events,
    }


def invalid_history(sequence: int | None, code: str, message: str) -> Problem:
    where = f"event {sequence}: " if sequence is not None else ""
    return Problem(
        400,
        "invalid_history",
        f"{where}{message}",
        sequence=sequence,
        rule_code=code,
    )


def history_events(document: Any) -> list[Any]:
    """The raw events of a history document, after checking its envelope."""
    if not isinstance(document, dict):
        raise invalid_history(None, "malformed_document", "A history is a JSON object.")
    if document.get("format") != FORMAT:
        raise invalid_history(None, "unknown_format", f"'format' must be {FORMAT!r}.")
    version = document.get("format_version")
    if type(version) is not int or version != FORMAT_VERSION:
        raise invalid_history(
            None, "unknown_format_version", f"'format_version' must be {FORMAT_VERSION}."
        )
    raw_events = document.get("events")
    if not isinstance(raw_events, list) or not raw_events:
        raise invalid_history(None, "malformed_document", "'events' must be a non-empty list.")
    if len(raw_events) > MAX_EVENTS:
        raise invalid_history(None, "too_many_events", f"At most {MAX_EVENTS} events.")
    return raw_events


def original_created_at(document: dict[str, Any]) -> datetime | None:
    """When the exported game was created (`game.created_at`), which its import keeps; None
    when the document does not say. Refused unless an ISO 8601 time with its offset, not in
    the future."""
    game = document.get("game")
    raw = game.get("created_at") if isinstance(game, dict) else None
    if raw is None:
        return None
    moment = parse_datetime(raw) if isinstance(raw, str) else None
    if moment is None or moment.tzinfo is None or moment > timezone.now():
        raise invalid_history(
            None,
            "malformed_document",
            "'game.created_at' must be a past ISO 8601 time with its UTC offset.",
        )
    return moment


def audit_events(raw_events: list[Any]) -> tuple[list[Event], GameState]:
    """Parse stored or imported events (numbered 1, 2, 3...) and replay them through the
    engine's auditor: the events and the state they lead to, or `invalid_history`."""
    events = [parse_event(position, raw) for position, raw in enumerate(raw_events, start=1)]
    try:
        state = verify_log(events)
    except InvalidLog as error:
        raise invalid_history(error.sequence, error.code, error.message) from None
    return events, state


def parse_event(position: int, raw: Any) -> Event:
    if not isinstance(raw, dict):
        raise invalid_history(position, "malformed_event", "An event is a JSON object.")
    sequence = raw.get("sequence")
    if type(sequence) is not int or sequence != position:  # not true, nor 1.0, for 1
        raise invalid_history(
            position, "sequence_gap", f"Events are numbered 1, 2, 3...; expected {position}."
        )
    type_name, version, data = raw.get("type"), raw.get("schema_version"), raw.get("data")
    if not isinstance(type_name, str) or not isinstance(data, dict):
        raise invalid_history(position, "malformed_event", "An event has a 'type' and 'data'.")
    if isinstance(version, bool) or not isinstance(version, int):
        raise invalid_history(position, "malformed_event", "'schema_version' is a whole number.")
    try:
        event = event_from_data(type_name, data, version)
    except UnknownEventType:
        raise invalid_history(
            position, "unknown_event_type", f"No event type {type_name!r}."
        ) from None
    except RuleError as error:
        raise invalid_history(position, error.code, f"Bad {type_name} payload: {error}") from None
    except (KeyError, TypeError, ValueError) as error:
        raise invalid_history(
            position, "malformed_event", f"Bad {type_name} payload: {error}"
        ) from None
    wrong = _wrongly_typed_field(event)
    if wrong is not None:
        raise invalid_history(
            position, "malformed_event", f"Bad {type_name} payload: '{wrong}' has the wrong type."
        )
    return event


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
