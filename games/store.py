"""The statements every action and every read runs, in hand-written SQL.

Why not the ORM here: Django's query compiler costs more CPU than sending the statement, and
every action and every read runs these statements (`manage.py bench_load` measured it: figures
in docs/PERFORMANCE.md). They are few and fixed, so they are written once, here, in SQL that
SQLite and PostgreSQL both run (the whole suite runs on both); everything else (creating games
and seats, listings, histories, the admin) stays on the ORM.

Values are converted with Django's own adapters and converters, so the rows written here are
exactly the ones the ORM would write and read back.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson
from django.db import connection, transaction
from django.db.models import Field

from .models import Game, GameCheckpoint, GameEvent, Seat

_GAME_FIELDS: list[Field[Any, Any]] = list(Game._meta.concrete_fields)
_GAME_ATTNAMES = [field.attname for field in _GAME_FIELDS]
_EVENT_COLUMNS = ("game", "sequence", "type", "schema_version", "payload", "created_at")
#: Rows per INSERT: SQLite accepts 999 parameters per statement, six per event.
_EVENTS_PER_INSERT = 150
#: Checkpoint rows per INSERT (three parameters each).
_CHECKPOINTS_PER_INSERT = 300
#: The game row's columns an append sets, in its statements' order.
_MOVED = (
    "version",
    "status",
    "round",
    "current_seat",
    "players_joined",
    "totals",
    "winners",
    "updated_at",
    "snapshot",
    "snapshot_version",
)


def _quoted(model: Any, name: str | None = None) -> str:
    """The quoted name of `model`'s table, or of its field `name`'s column."""
    meta = model._meta
    return connection.ops.quote_name(meta.db_table if name is None else meta.get_field(name).column)


@functools.cache
def _fetch_sql(vendor: str, with_token: bool) -> str:
    game, seats = _quoted(Game), _quoted(Seat)
    columns = ", ".join(f"{game}.{connection.ops.quote_name(f.column)}" for f in _GAME_FIELDS)
    seat = "NULL"
    if with_token:
        seat = (
            f"(SELECT {_quoted(Seat, 'seat')} FROM {seats} "
            f"WHERE {seats}.{_quoted(Seat, 'game')} = {game}.{_quoted(Game, 'id')} "
            f"AND {_quoted(Seat, 'token_hash')} = %s)"
        )
    return f"SELECT {columns}, {seat} FROM {game} WHERE {_quoted(Game, 'id')} = %s"


@functools.cache
def _insert_sql(vendor: str, rows: int) -> str:
    columns = ", ".join(_quoted(GameEvent, name) for name in _EVENT_COLUMNS)
    values = ", ".join(["(" + ", ".join(["%s"] * len(_EVENT_COLUMNS)) + ")"] * rows)
    return f"INSERT INTO {_quoted(GameEvent)} ({columns}) VALUES {values}"


@functools.cache
def _checkpoint_sql(vendor: str, rows: int) -> str:
    """INSERT checkpoints, replacing any stored at the same version (one of an older format:
    those of a version are otherwise identical, since the log before it never changes)."""
    game, version, state = (_quoted(GameCheckpoint, name) for name in ("game", "version", "state"))
    values = ", ".join(["(%s, %s, %s)"] * rows)
    return (
        f"INSERT INTO {_quoted(GameCheckpoint)} ({game}, {version}, {state}) VALUES {values} "
        f"ON CONFLICT ({game}, {version}) DO UPDATE SET {state} = excluded.{state}"
    )


@functools.cache
def _nearest_checkpoint_sql(vendor: str) -> str:
    game, version, state = (_quoted(GameCheckpoint, name) for name in ("game", "version", "state"))
    return (
        f"SELECT {version}, {state} FROM {_quoted(GameCheckpoint)} "
        f"WHERE {game} = %s AND {version} <= %s ORDER BY {version} DESC LIMIT 1"
    )


#: The columns of a stored event, in `log.StoredEvent`'s order.
_READ_COLUMNS = ("sequence", "type", "schema_version", "created_at", "payload")
#: The columns a replay needs: no time to convert per row (SQLite parses each one).
_FOLD_COLUMNS = ("type", "schema_version", "payload")


@functools.cache
def _read_events_sql(vendor: str, columns: tuple[str, ...], bounded: bool, limited: bool) -> str:
    game, sequence = _quoted(GameEvent, "game"), _quoted(GameEvent, "sequence")
    selected = ", ".join(_quoted(GameEvent, name) for name in columns)
    return (
        f"SELECT {selected} FROM {_quoted(GameEvent)} WHERE {game} = %s AND {sequence} > %s"
        + (f" AND {sequence} <= %s" if bounded else "")
        + f" ORDER BY {sequence}"
        + (" LIMIT %s" if limited else "")
    )


@functools.cache
def _lock_sql(vendor: str) -> str:
    return f"SELECT 1 FROM {_quoted(Game)} WHERE {_quoted(Game, 'id')} = %s FOR NO KEY UPDATE"


@functools.cache
def _move_sql(vendor: str, checks_token: bool) -> str:
    assignments = ", ".join(f"{_quoted(Game, name)} = %s" for name in _MOVED)
    game, seats = _quoted(Game), _quoted(Seat)
    token = (
        f" AND EXISTS (SELECT 1 FROM {seats} WHERE {seats}.{_quoted(Seat, 'game')} = "
        f"{game}.{_quoted(Game, 'id')} AND {_quoted(Seat, 'seat')} = %s "
        f"AND {_quoted(Seat, 'token_hash')} = %s)"
    )
    return (
        f"UPDATE {game} SET {assignments} "
        f"WHERE {_quoted(Game, 'id')} = %s AND {_quoted(Game, 'version')} = %s"
        + (token if checks_token else "")
    )


@functools.cache
def _move_and_insert_sql(vendor: str, rows: int, checks_token: bool) -> str:
    """PostgreSQL: the UPDATE that checks the version, and the INSERT of the events only if it
    matched, as one statement (atomic on its own)."""
    id_column = _quoted(Game, "id")
    columns = ", ".join(_quoted(GameEvent, name) for name in _EVENT_COLUMNS)
    typed_row = "(%s::integer, %s::varchar, %s::smallint, %s::jsonb)"
    return (
        f"WITH moved AS ({_move_sql(vendor, checks_token)} RETURNING {id_column}) "
        f"INSERT INTO {_quoted(GameEvent)} ({columns}) "
        f"SELECT moved.{id_column}, e.sequence, e.type, e.schema_version, e.payload, "
        f"%s::timestamptz FROM moved CROSS JOIN (VALUES {', '.join([typed_row] * rows)}) "
        f"AS e (sequence, type, schema_version, payload)"
    )


@functools.cache
def _converted_fields(vendor: str) -> tuple[int, ...]:
    """Which of the game's columns the ORM converts when reading them on this database."""
    return tuple(i for i, field in enumerate(_GAME_FIELDS) if _converters(field)[1])


def _converters(field: Field[Any, Any]) -> tuple[Any, list[Any]]:
    """The column expression of `field` and the converters the ORM applies to its values."""
    column = field.get_col(Game._meta.db_table)
    return column, [*connection.ops.get_db_converters(column), *field.get_db_converters(connection)]


def _game_from_row(row: Sequence[Any]) -> Game:
    """A `Game` from its columns as the database returns them (converted as the ORM would)."""
    values = list(row)
    for index in _converted_fields(connection.vendor):
        column, converters = _converters(_GAME_FIELDS[index])
        for convert in converters:
            values[index] = convert(values[index], column, connection)
    return Game.from_db(connection.alias, _GAME_ATTNAMES, values)


def _game_id(game_id: uuid.UUID) -> Any:
    return Game._meta.pk.get_db_prep_value(game_id, connection)


def fetch_game(game_id: uuid.UUID, token_hash: str | None) -> tuple[Game, int | None] | None:
    """The game (None if there is none) and the seat whose token has `token_hash` (None if no
    seat of this game has it), in one statement.

    Looking the seat up by the token's hash is safe against timing attacks: the hash of an
    unknown 256-bit token cannot be steered towards a stored one.
    """
    sql = _fetch_sql(connection.vendor, token_hash is not None)
    params = [_game_id(game_id)] if token_hash is None else [token_hash, _game_id(game_id)]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    return _game_from_row(row[:-1]), row[-1]


@dataclass(frozen=True)
class NewEvent:
    """An event to append, as stored: its type, its payload's schema version, its payload."""

    type: str
    schema_version: int
    payload: Any


@dataclass(frozen=True)
class Summary:
    """The game row's columns that follow its log, at `version`."""

    version: int
    status: str
    round: int
    current_seat: int | None
    players_joined: int
    totals: list[int]  # by seat
    winners: list[int] | None  # None until the game is finished
    snapshot: str  # engine.snapshot as JSON text


def append(
    game_id: uuid.UUID,
    from_version: int,
    events: Sequence[NewEvent],
    summary: Summary,
    at: datetime,
    *,
    seat_token: tuple[int, str] | None = None,
    checkpoints: Sequence[tuple[int, str]] = (),
) -> bool:
    """Append `events` at `from_version + 1` onwards and move the game row to `summary`, all
    or nothing, if and only if the game is still at `from_version` (and, with `seat_token`,
    that seat's token still has that hash); answers whether it was (nothing is written when
    it was not).

    On PostgreSQL this is one statement, atomic on its own (an action needs no BEGIN and
    COMMIT round trips); on SQLite, two in a transaction (IMMEDIATE: it holds the write lock).
    The unique (game, sequence) constraint is the last guard: a sequence taken meanwhile fails
    the whole write with an IntegrityError. `checkpoints` (version, snapshot text) are saved
    with the events, in the same transaction (one append in `REPLAY_CHECKPOINT_EVERY` has any).
    """
    if not events:
        raise ValueError("an append holds at least one event")
    moment = connection.ops.adapt_datetimefield_value(at)
    move = [
        summary.version,
        summary.status,
        summary.round,
        summary.current_seat,
        summary.players_joined,
        _json_column("totals", summary.totals),
        _json_column("winners", summary.winners),
        moment,
        summary.snapshot,
        summary.version,
        _game_id(game_id),
        from_version,
        *(seat_token or ()),
    ]
    # With the UPDATE, PostgreSQL inserts the first events; any others follow in the same
    # transaction (a long history being imported).
    along = events[:_EVENTS_PER_INSERT] if _one_statement() else []
    single = len(along) == len(events) and not checkpoints
    with nullcontext() if single else transaction.atomic(savepoint=False):
        with connection.cursor() as cursor:
            if along:
                params = [*move, moment]
                for sequence, event in enumerate(along, start=from_version + 1):
                    params += [sequence, event.type, event.schema_version, _json(event.payload)]
                sql = _move_and_insert_sql(connection.vendor, len(along), seat_token is not None)
                cursor.execute(sql, params)
                moved = cursor.rowcount == len(along)
            else:
                cursor.execute(_move_sql(connection.vendor, seat_token is not None), move)
                moved = cursor.rowcount == 1
        if moved and not single:
            _insert(game_id, from_version + 1 + len(along), events[len(along) :], at)
            save_checkpoints(game_id, checkpoints)
    return moved


def _one_statement() -> bool:
    """Whether this database runs an UPDATE and an INSERT as one statement (a data-modifying
    WITH, which SQLite lacks)."""
    return connection.vendor == "postgresql"


def _insert(
    game_id: uuid.UUID, first_sequence: int, events: Sequence[NewEvent], at: datetime
) -> None:
    """INSERT `events` from `first_sequence` on, in statements of at most 999 parameters."""
    game = _game_id(game_id)
    created_at = connection.ops.adapt_datetimefield_value(at)
    with connection.cursor() as cursor:
        for start in range(0, len(events), _EVENTS_PER_INSERT):
            batch = events[start : start + _EVENTS_PER_INSERT]
            params: list[Any] = []
            for sequence, event in enumerate(batch, start=first_sequence + start):
                params += [
                    game,
                    sequence,
                    event.type,
                    event.schema_version,
                    _json(event.payload),
                    created_at,
                ]
            cursor.execute(_insert_sql(connection.vendor, len(batch)), params)


def save_checkpoints(game_id: uuid.UUID, checkpoints: Sequence[tuple[int, str]]) -> None:
    """Store `checkpoints` (version, snapshot text) of the game, in statements of at most 999
    parameters (a long history being imported has one every `REPLAY_CHECKPOINT_EVERY` events)."""
    game = _game_id(game_id)
    with connection.cursor() as cursor:
        for start in range(0, len(checkpoints), _CHECKPOINTS_PER_INSERT):
            batch = checkpoints[start : start + _CHECKPOINTS_PER_INSERT]
            params = [value for version, text in batch for value in (game, version, text)]
            cursor.execute(_checkpoint_sql(connection.vendor, len(batch)), params)


def lock_game(game_id: uuid.UUID) -> None:
    """Within a transaction, wait for and hold the right to write the game until it ends.

    PostgreSQL: the row lock an UPDATE takes (FOR NO KEY UPDATE: rows that merely refer to
    the game, a seat or an event, are not held up). SQLite: nothing to do, a transaction there
    is IMMEDIATE and already holds the database's one write lock.
    """
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(_lock_sql(connection.vendor), [_game_id(game_id)])


def nearest_checkpoint(game_id: uuid.UUID, at: int) -> tuple[int, str] | None:
    """The game's checkpoint (version, snapshot text) at version `at` or the closest before it."""
    with connection.cursor() as cursor:
        cursor.execute(_nearest_checkpoint_sql(connection.vendor), [_game_id(game_id), at])
        row = cursor.fetchone()
    return None if row is None else (row[0], row[1])


def read_events(
    game_id: uuid.UUID, after: int, upto: int | None, limit: int | None
) -> list[tuple[int, str, int, datetime, Any]]:
    """The game's stored events after sequence `after` up to `upto` (None: the last), at most
    `limit` (None: all), in order: (sequence, type, schema version, time, payload), converted
    as the ORM converts them. `log.events` is its one caller."""
    rows = _read(_READ_COLUMNS, game_id, after, upto, limit)
    to_time = _event_time_converter()
    return [
        (sequence, kind, version, to_time(moment), _from_json(payload))
        for sequence, kind, version, moment, payload in rows
    ]


def read_payloads(game_id: uuid.UUID, after: int, upto: int | None) -> list[tuple[str, int, Any]]:
    """`read_events`' rows as a replay needs them: (type, schema version, payload)."""
    rows = _read(_FOLD_COLUMNS, game_id, after, upto, None)
    return [(kind, version, _from_json(payload)) for kind, version, payload in rows]


def _read(
    columns: tuple[str, ...], game_id: uuid.UUID, after: int, upto: int | None, limit: int | None
) -> list[tuple[Any, ...]]:
    params = [_game_id(game_id), after]
    params += [] if upto is None else [upto]
    params += [] if limit is None else [limit]
    sql = _read_events_sql(connection.vendor, columns, upto is not None, limit is not None)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _event_time_converter() -> Callable[[Any], datetime]:
    """A stored event's time as the ORM reads it (SQLite hands back a naive UTC datetime)."""
    column = GameEvent._meta.get_field("created_at").get_col(GameEvent._meta.db_table)
    converters = connection.ops.get_db_converters(column)

    def convert(value: Any) -> datetime:
        for converter in converters:
            value = converter(value, column, connection)
        return value

    return convert


def _from_json(value: Any) -> Any:
    """A JSON column's value as read: text (SQLite, and PostgreSQL's jsonb as Django reads it)
    parsed, anything else as the driver parsed it."""
    return orjson.loads(value) if isinstance(value, (str, bytes)) else value


def _json_column(name: str, value: Any) -> Any:
    """`value` for the game's JSON column `name`, adapted as the ORM adapts it (None: NULL)."""
    return Game._meta.get_field(name).get_db_prep_save(value, connection)


def _json(value: Any) -> str:
    """JSON text for a JSON column (PostgreSQL's jsonb takes it as a literal; SQLite stores
    it as text), as compact as Django's encoder writes it and faster."""
    return orjson.dumps(value).decode()
