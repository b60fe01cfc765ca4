"""The statements every action and every read runs, in hand-written SQL.

Why not the ORM here: Django's query compiler costs more CPU than sending the statement, and
every action and every read runs these statements (`manage.py bench_load`, docs/PERFORMANCE.md).
They are few and fixed, so they are written once, here, in SQL that SQLite and PostgreSQL both
run (the whole suite runs on both); everything else (creating games and seats, listings,
histories, the admin) stays on the ORM.

Values are converted with Django's own adapters and converters (but for JSON on PostgreSQL:
orjson's text, cast to jsonb), so the rows written here are exactly the ones the ORM would write
and read back (tests/store/test_appenders.py compares them, statement by statement, on both
databases). Statements go to the database the models' router names, as the ORM's would: writes
and an action's read of its game row (`fetch_game(..., for_write=True)`) to `db_for_write`;
other reads, the log's and the checkpoints' included, to `db_for_read`. (An action whose
snapshot is stale replays the log from there: a router that sends reads to a lagging replica
must send these to the primary too, or such an action is refused, after its retries, as a
`concurrent_update`.) Parameters are named by column, never placed by position against a list
kept elsewhere (PostgreSQL's append derives its positional parameters from the names in its SQL:
`_positional`).
"""

from __future__ import annotations

import functools
import re
import uuid
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson
from django.conf import settings
from django.db import connections, router, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field

from accounts.handles import handle_key
from accounts.inbox import INBOX_CHANNEL, Letter, deliver
from accounts.models import Account, InboxEntry
from games.models import Game, GameCheckpoint, GameEvent, Seat

_GAME_FIELDS: list[Field[Any, Any]] = list(Game._meta.concrete_fields)
_GAME_ATTNAMES = [field.attname for field in _GAME_FIELDS]
_EVENT_COLUMNS = ("game", "sequence", "type", "schema_version", "payload", "created_at")
#: An event's own values, with their PostgreSQL types (the append's `jsonb_to_recordset`).
_EVENT_VALUES = {"sequence": "integer", "type": "varchar", "schema_version": "smallint"}
#: The game's JSON columns an append sets (PostgreSQL: from JSON text, cast to jsonb).
_JSON_COLUMNS = frozenset({"totals", "winners"})
#: Rows per INSERT: SQLite accepts 999 parameters per statement, six per event.
_EVENTS_PER_INSERT = 150
#: Checkpoint rows per INSERT (three parameters each).
_CHECKPOINTS_PER_INSERT = 300
#: PostgreSQL: every append notifies this channel with "<game id> <new version>" (`games.live`
#: listens to it: the log stays the truth, a notification only says "look").
NOTIFY_CHANNEL = "skyjo_games"


# Which database


def write_alias() -> str:
    """The database the router sends the games' writes to (and the reads they decide on)."""
    return str(router.db_for_write(Game))


def writer() -> BaseDatabaseWrapper:
    """This thread's connection to the games' write database."""
    return connections[write_alias()]


def reader() -> BaseDatabaseWrapper:
    """This thread's connection to the database the router sends the games' reads to."""
    return connections[str(router.db_for_read(Game))]


def atomic(*, savepoint: bool = True) -> transaction.Atomic:
    """A transaction on the games' write database: its statements all land or none."""
    return transaction.atomic(using=write_alias(), savepoint=savepoint)


# The statements, the same for both databases (tables and columns in standard double quotes,
# which both databases take)


def _q(name: str) -> str:
    return f'"{name}"'


def _quoted(model: Any, name: str | None = None) -> str:
    """The quoted name of `model`'s table, or of its field `name`'s column."""
    meta = model._meta
    return _q(meta.db_table if name is None else meta.get_field(name).column)


@functools.cache
def _fetch_sql(with_token: bool) -> str:
    game, seats = _quoted(Game), _quoted(Seat)
    columns = ", ".join(f"{game}.{_q(f.column)}" for f in _GAME_FIELDS)
    seat = "NULL"
    if with_token:
        seat = (
            f"(SELECT {_quoted(Seat, 'seat')} FROM {seats} "
            f"WHERE {seats}.{_quoted(Seat, 'game')} = {game}.{_quoted(Game, 'id')} "
            f"AND {_quoted(Seat, 'token_hash')} = %(token_hash)s)"
        )
    return f"SELECT {columns}, {seat} FROM {game} WHERE {_quoted(Game, 'id')} = %(game)s"


@functools.cache
def _insert_sql(rows: int) -> str:
    columns = ", ".join(_quoted(GameEvent, name) for name in _EVENT_COLUMNS)
    values = ", ".join(["(" + ", ".join(["%s"] * len(_EVENT_COLUMNS)) + ")"] * rows)
    return f"INSERT INTO {_quoted(GameEvent)} ({columns}) VALUES {values}"


@functools.cache
def _checkpoint_sql(rows: int) -> str:
    """INSERT checkpoints, replacing any stored at the same version (one of an older format:
    those of a version are otherwise identical, since the log before it never changes)."""
    game, version, state = (_quoted(GameCheckpoint, name) for name in ("game", "version", "state"))
    values = ", ".join(["(%s, %s, %s)"] * rows)
    return (
        f"INSERT INTO {_quoted(GameCheckpoint)} ({game}, {version}, {state}) VALUES {values} "
        f"ON CONFLICT ({game}, {version}) DO UPDATE SET {state} = excluded.{state}"
    )


@functools.cache
def _nearest_checkpoint_sql() -> str:
    game, version, state = (_quoted(GameCheckpoint, name) for name in ("game", "version", "state"))
    return (
        f"SELECT {version}, {state} FROM {_quoted(GameCheckpoint)} "
        f"WHERE {game} = %(game)s AND {version} <= %(at)s ORDER BY {version} DESC LIMIT 1"
    )


#: The columns of a stored event, in `log.StoredEvent`'s order.
_READ_COLUMNS = ("sequence", "type", "schema_version", "created_at", "payload")
#: The columns a replay needs: no time to convert per row (SQLite parses each one).
_FOLD_COLUMNS = ("type", "schema_version", "payload")


@functools.cache
def _read_events_sql(columns: tuple[str, ...], bounded: bool, limited: bool) -> str:
    game, sequence = _quoted(GameEvent, "game"), _quoted(GameEvent, "sequence")
    selected = ", ".join(_quoted(GameEvent, name) for name in columns)
    return (
        f"SELECT {selected} FROM {_quoted(GameEvent)} WHERE {game} = %(game)s"
        f" AND {sequence} > %(after)s"
        + (f" AND {sequence} <= %(upto)s" if bounded else "")
        + f" ORDER BY {sequence}"
        + (" LIMIT %(limit)s" if limited else "")
    )


@functools.cache
def _lock_sql() -> str:
    return f"SELECT 1 FROM {_quoted(Game)} WHERE {_quoted(Game, 'id')} = %s FOR NO KEY UPDATE"


@functools.cache
def _move_sql(
    columns: tuple[str, ...], checks_token: bool, json_columns: frozenset[str] = frozenset()
) -> str:
    """UPDATE the game row's `columns` (each set from the parameter of its name, cast to jsonb
    for those in `json_columns`: JSON text) if the game is at `from_version` (and,
    `checks_token`, the seat `seat` has the token `token_hash`)."""
    assignments = ", ".join(
        f"{_quoted(Game, name)} = %({name})s" + ("::jsonb" if name in json_columns else "")
        for name in columns
    )
    game, seats = _quoted(Game), _quoted(Seat)
    token = (
        f" AND EXISTS (SELECT 1 FROM {seats} WHERE {seats}.{_quoted(Seat, 'game')} = "
        f"{game}.{_quoted(Game, 'id')} AND {_quoted(Seat, 'seat')} = %(seat)s "
        f"AND {_quoted(Seat, 'token_hash')} = %(token_hash)s)"
    )
    return (
        f"UPDATE {game} SET {assignments} "
        f"WHERE {_quoted(Game, 'id')} = %(game)s AND {_quoted(Game, 'version')} = %(from_version)s"
        + (token if checks_token else "")
    )


@functools.cache
def _move_and_insert_sql(
    columns: tuple[str, ...], checks_token: bool, letters: bool = False
) -> tuple[str, tuple[str, ...]]:
    """PostgreSQL: the UPDATE that checks the version, and the INSERT of the events only if it
    matched, as one statement (atomic on its own), which also notifies `NOTIFY_CHANNEL` (sent
    when, and only if, the write commits); with `letters`, the inbox entries go in the same
    statement (`_letters_sql`). The events are one parameter, `events`: a JSON array of
    `{sequence, type, schema_version, payload}` (`_events_json`), so that the statement's
    parameters do not grow with its events (psycopg adapts 18 values, not 18 + 4 an event).
    Answers the SQL with positional parameters and their names in order (`_positional`)."""
    id_column, version = _quoted(Game, "id"), _quoted(Game, "version")
    names = [*_EVENT_VALUES, "payload"]
    record = ", ".join(
        f"{name} {kind}" for name, kind in {**_EVENT_VALUES, "payload": "jsonb"}.items()
    )
    told = " CROSS JOIN (SELECT count(*) FROM told) AS inbox_told" if letters else ""
    update = _move_sql(columns, checks_token, json_columns=_JSON_COLUMNS)
    return _positional(
        f"WITH moved AS ({update} RETURNING {id_column}, {version}), "
        f"notified AS (SELECT pg_notify('{NOTIFY_CHANNEL}', "
        f"moved.{id_column}::text || ' ' || moved.{version}::text) FROM moved)"
        f"{_letters_sql() if letters else ''} "
        f"INSERT INTO {_quoted(GameEvent)} "
        f"({', '.join(_quoted(GameEvent, name) for name in _EVENT_COLUMNS)}) "
        f"SELECT moved.{id_column}, {', '.join(f'e.{name}' for name in names)}, "
        f"%(created_at)s::timestamptz FROM moved CROSS JOIN notified{told} CROSS JOIN "
        f"jsonb_to_recordset(%(events)s::jsonb) AS e ({record})"
    )


def _letters_sql() -> str:
    """PostgreSQL: the CTEs that deliver the inbox entries of the parameter `letters` (a JSON
    array of `{handle, type, payload, n}`: the handle's key, `n` the letter's place) if the
    game moved, each numbered after its account's last entry as `accounts.inbox.deliver`
    numbers them (several to one account in their order), and notify
    `accounts.inbox.INBOX_CHANNEL` of each."""
    entries, accounts = _quoted(InboxEntry), _quoted(Account)
    last = f"(SELECT MAX(x.sequence) FROM {entries} x WHERE x.account_id = a.id)"
    return (
        f", delivered AS (INSERT INTO {entries} (account_id, sequence, type, payload, created_at) "
        f"SELECT a.id, COALESCE({last}, 0) + row_number() OVER (PARTITION BY a.id ORDER BY l.n), "
        f"l.type, l.payload, %(created_at)s::timestamptz FROM moved CROSS JOIN "
        "jsonb_to_recordset(%(letters)s::jsonb) AS l (handle varchar, type varchar, "
        "payload jsonb, n integer) "
        f"JOIN {accounts} a ON a.handle_key = l.handle AND a.deleted_at IS NULL "
        "RETURNING account_id, sequence), "
        f"told AS (SELECT pg_notify('{INBOX_CHANNEL}', account_id::text || ' ' || "
        "sequence::text) FROM delivered)"
    )


_NAMED_PARAMETER = re.compile(r"%\((\w+)\)s")


def _positional(sql: str) -> tuple[str, tuple[str, ...]]:
    """`sql`'s named parameters (`%(name)s`) as positional ones (`%s`), and the names in the
    order their values go: the statement is still written with names, while psycopg places
    positional values without looking each name up per execution."""
    names = tuple(_NAMED_PARAMETER.findall(sql))
    return _NAMED_PARAMETER.sub("%s", sql), names


# Values as the ORM converts them


#: By database vendor: which of the game's columns the ORM converts when reading them.
_CONVERTED_FIELDS: dict[str, tuple[int, ...]] = {}


def _converted_fields(db: BaseDatabaseWrapper) -> tuple[int, ...]:
    """Which of the game's columns the ORM converts when reading them from `db` (the same for
    every database of its vendor)."""
    found = _CONVERTED_FIELDS.get(db.vendor)
    if found is None:
        found = tuple(i for i, field in enumerate(_GAME_FIELDS) if _converters(field, db)[1])
        _CONVERTED_FIELDS[db.vendor] = found
    return found


def _converters(field: Field[Any, Any], db: BaseDatabaseWrapper) -> tuple[Any, list[Any]]:
    """The column expression of `field` and the converters the ORM applies to its values."""
    column = field.get_col(field.model._meta.db_table)
    return column, [*db.ops.get_db_converters(column), *field.get_db_converters(db)]


def _converted(field: Field[Any, Any], value: Any, db: BaseDatabaseWrapper) -> Any:
    """A column's value as the database returned it, converted as the ORM would."""
    column, converters = _converters(field, db)
    for convert in converters:
        value = convert(value, column, db)
    return value


def _game_from_row(row: Sequence[Any], db: BaseDatabaseWrapper) -> Game:
    """A `Game` from its columns as the database returns them (converted as the ORM would)."""
    values = list(row)
    for index in _converted_fields(db):
        values[index] = _converted(_GAME_FIELDS[index], values[index], db)
    return Game.from_db(db.alias, _GAME_ATTNAMES, values)


def _game_id(game_id: uuid.UUID, db: BaseDatabaseWrapper) -> Any:
    return Game._meta.pk.get_db_prep_value(game_id, db)


# Reading


def fetch_game(
    game_id: uuid.UUID, token_hash: str | None, *, for_write: bool = False
) -> tuple[Game, int | None] | None:
    """The game (None if there is none) and the seat whose token has `token_hash` (None if no
    seat of this game has it), in one statement; `for_write`: from the write database (an
    action decides on it).

    Looking the seat up by the token's hash is safe against timing attacks: the hash of an
    unknown 256-bit token cannot be steered towards a stored one.
    """
    db = writer() if for_write else reader()
    params = {"game": _game_id(game_id, db)}
    if token_hash is not None:
        params["token_hash"] = token_hash
    with db.cursor() as cursor:
        cursor.execute(_fetch_sql(token_hash is not None), params)
        row = cursor.fetchone()
    if row is None:
        return None
    return _game_from_row(row[:-1], db), row[-1]


def nearest_checkpoint(game_id: uuid.UUID, at: int) -> tuple[int, str] | None:
    """The game's checkpoint (version, snapshot text) at version `at` or the closest before it."""
    db = reader()
    params = {"game": _game_id(game_id, db), "at": at}
    with db.cursor() as cursor:
        cursor.execute(_nearest_checkpoint_sql(), params)
        row = cursor.fetchone()
    return None if row is None else (row[0], row[1])


# Writing


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
    turn_deadline: datetime | None = None  # when the persons to act run out of time (R13)
    bots_to_move: bool = False  # whether a bot is to act (R13)


def moved_columns(summary: Summary, at: datetime, db: BaseDatabaseWrapper) -> dict[str, Any]:
    """The game row's columns an append sets, by name, adapted for `db` as the ORM would."""
    return {
        "version": summary.version,
        "status": summary.status,
        "round": summary.round,
        "current_seat": summary.current_seat,
        "players_joined": summary.players_joined,
        "totals": _json_column("totals", summary.totals, db),
        "winners": _json_column("winners", summary.winners, db),
        "updated_at": db.ops.adapt_datetimefield_value(at),
        "snapshot": summary.snapshot,
        "snapshot_version": summary.version,
        "turn_deadline": db.ops.adapt_datetimefield_value(summary.turn_deadline),
        "bots_to_move": summary.bots_to_move,
    }


@dataclass(frozen=True)
class _Append:
    """One append's values, adapted for its database: the UPDATE's parameters by name (the
    moved columns, `game`, `from_version`, and `seat`, `token_hash` when it checks a token)."""

    db: BaseDatabaseWrapper
    game: Any
    from_version: int
    events: Sequence[NewEvent]
    move: dict[str, Any]
    moved_columns: tuple[str, ...]
    checks_token: bool
    created_at: Any
    checkpoints: Sequence[tuple[int, str]]
    letters: Sequence[Letter] = ()


def append(
    game_id: uuid.UUID,
    from_version: int,
    events: Sequence[NewEvent],
    summary: Summary,
    at: datetime,
    *,
    seat_token: tuple[int, str] | None = None,
    checkpoints: Sequence[tuple[int, str]] = (),
    letters: Sequence[Letter] = (),
) -> bool:
    """Append `events` at `from_version + 1` onwards and move the game row to `summary`, all
    or nothing, if and only if the game is still at `from_version` (and, with `seat_token`,
    that seat's token still has that hash); answers whether it was (nothing is written when
    it was not).

    On PostgreSQL this is one statement, atomic on its own (an action needs no BEGIN and
    COMMIT round trips); on SQLite, two in a transaction (IMMEDIATE: it holds the write lock).
    The unique (game, sequence) constraint is the last guard: a sequence taken meanwhile fails
    the whole write with an IntegrityError. `checkpoints` (version, snapshot text) are saved
    with the events, in the same transaction (one append in `REPLAY_CHECKPOINT_EVERY` has any),
    and so are `letters`, the accounts' inbox entries the append causes: on PostgreSQL in its
    one statement (unless `SKYJO_INBOX_IN_APPEND` is off), else by `accounts.inbox.deliver` in
    its transaction; both number them alike (a test compares them).
    """
    if not events:
        raise ValueError("an append holds at least one event")
    db = writer()
    columns = moved_columns(summary, at, db)
    game = _game_id(game_id, db)
    seat, token_hash = seat_token or (None, None)
    move = {**columns, "game": game, "from_version": from_version}
    if seat_token is not None:
        move |= {"seat": seat, "token_hash": token_hash}
    created_at = db.ops.adapt_datetimefield_value(at)
    job = _Append(
        db, game, from_version, events, move, tuple(columns), seat_token is not None,
        created_at, checkpoints, letters,
    )  # fmt: skip
    return _APPENDERS[db.vendor](job)


def _append_postgresql(job: _Append) -> bool:
    """The UPDATE, the first events' INSERT and the inbox entries as one statement; any
    further events (a long history being imported) and checkpoints follow in the same
    transaction (and the entries, with `SKYJO_INBOX_IN_APPEND` off)."""
    along = job.events[:_EVENTS_PER_INSERT]
    inline = job.letters if settings.SKYJO_INBOX_IN_APPEND else ()
    later = () if inline else job.letters
    single = len(along) == len(job.events) and not job.checkpoints and not later
    values = {
        **job.move,
        "created_at": job.created_at,
        "events": _events_json(job.from_version + 1, along),
        "letters": _letters_json(inline),
    }
    sql, names = _move_and_insert_sql(job.moved_columns, job.checks_token, bool(inline))
    with nullcontext() if single else transaction.atomic(using=job.db.alias, savepoint=False):
        with job.db.cursor() as cursor:
            cursor.execute(sql, [values[name] for name in names])
            moved = cursor.rowcount == len(along)
        if moved and not single:
            _insert(job, job.from_version + 1 + len(along), job.events[len(along) :])
            _save_checkpoints(job.db, job.game, job.checkpoints)
            deliver(later)
    return moved


def _events_json(first_sequence: int, events: Sequence[NewEvent]) -> str:
    """PostgreSQL: `events` as the one JSON array parameter of the append's statement."""
    return orjson.dumps(
        [
            {
                "sequence": sequence,
                "type": event.type,
                "schema_version": event.schema_version,
                "payload": event.payload,
            }
            for sequence, event in enumerate(events, start=first_sequence)
        ]
    ).decode()


def _letters_json(letters: Sequence[Letter]) -> str:
    """PostgreSQL: `letters` as the one JSON array parameter of the append's statement."""
    return orjson.dumps(
        [
            {
                "handle": handle_key(letter.handle),
                "type": letter.type,
                "payload": letter.payload,
                "n": n,
            }
            for n, letter in enumerate(letters)
        ]
    ).decode()


def _append_sqlite(job: _Append) -> bool:
    """The UPDATE, then the events' INSERT and the checkpoints, in one transaction (IMMEDIATE:
    it takes the database's write lock first)."""
    sql = _move_sql(job.moved_columns, job.checks_token)
    with transaction.atomic(using=job.db.alias, savepoint=False):
        with job.db.cursor() as cursor:
            cursor.execute(sql, job.move)
            moved = cursor.rowcount == 1
        if moved:
            _insert(job, job.from_version + 1, job.events)
            _save_checkpoints(job.db, job.game, job.checkpoints)
            deliver(job.letters)
    return moved


#: The appender of each database the service runs on.
_APPENDERS: dict[str, Callable[[_Append], bool]] = {
    "postgresql": _append_postgresql,
    "sqlite": _append_sqlite,
}


def _insert(job: _Append, first_sequence: int, events: Sequence[NewEvent]) -> None:
    """INSERT `events` from `first_sequence` on, in statements of at most 999 parameters."""
    with job.db.cursor() as cursor:
        for start in range(0, len(events), _EVENTS_PER_INSERT):
            batch = events[start : start + _EVENTS_PER_INSERT]
            params: list[Any] = []
            for sequence, event in enumerate(batch, start=first_sequence + start):
                row = _event_row(job.game, sequence, event, job.created_at)
                params += [row[name] for name in _EVENT_COLUMNS]
            cursor.execute(_insert_sql(len(batch)), params)


def _event_row(game: Any, sequence: int, event: NewEvent, created_at: Any) -> dict[str, Any]:
    """An event's row, by column name."""
    return {
        "game": game,
        "sequence": sequence,
        "type": event.type,
        "schema_version": event.schema_version,
        "payload": _json(event.payload),
        "created_at": created_at,
    }


def save_checkpoints(game_id: uuid.UUID, checkpoints: Sequence[tuple[int, str]]) -> None:
    """Store `checkpoints` (version, snapshot text) of the game, in statements of at most 999
    parameters (a long history being imported has one every `REPLAY_CHECKPOINT_EVERY` events)."""
    db = writer()
    _save_checkpoints(db, _game_id(game_id, db), checkpoints)


def _save_checkpoints(
    db: BaseDatabaseWrapper, game: Any, checkpoints: Sequence[tuple[int, str]]
) -> None:
    with db.cursor() as cursor:
        for start in range(0, len(checkpoints), _CHECKPOINTS_PER_INSERT):
            batch = checkpoints[start : start + _CHECKPOINTS_PER_INSERT]
            params = [value for version, text in batch for value in (game, version, text)]
            cursor.execute(_checkpoint_sql(len(batch)), params)


def lock_game(game_id: uuid.UUID) -> None:
    """Within a transaction, wait for and hold the right to write the game until it ends.

    PostgreSQL: the row lock an UPDATE takes (FOR NO KEY UPDATE: rows that merely refer to
    the game, a seat or an event, are not held up). SQLite: nothing to do, a transaction there
    is IMMEDIATE and already holds the database's one write lock.
    """
    db = writer()
    if db.vendor != "postgresql":
        return
    with db.cursor() as cursor:
        cursor.execute(_lock_sql(), [_game_id(game_id, db)])


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
    db = reader()
    params = {"game": _game_id(game_id, db), "after": after, "upto": upto, "limit": limit}
    sql = _read_events_sql(columns, upto is not None, limit is not None)
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _event_time_converter() -> Callable[[Any], datetime]:
    """A stored event's time as the ORM reads it (SQLite hands back a naive UTC datetime)."""
    db = reader()
    column, converters = _converters(GameEvent._meta.get_field("created_at"), db)

    def convert(value: Any) -> datetime:
        for converter in converters:
            value = converter(value, column, db)
        return value

    return convert


def _from_json(value: Any) -> Any:
    """A JSON column's value as read: text (SQLite, and PostgreSQL's jsonb as Django reads it)
    parsed, anything else as the driver parsed it."""
    return orjson.loads(value) if isinstance(value, (str, bytes)) else value


def _json_column(name: str, value: Any, db: BaseDatabaseWrapper) -> Any:
    """`value` for the game's JSON column `name`, adapted as the ORM adapts it (None: NULL).
    PostgreSQL: JSON text instead (orjson's, cast to jsonb by the append's statement), which
    psycopg passes as it is, where Django's `Jsonb` adapter runs the standard `json`."""
    if db.vendor == "postgresql":
        return None if value is None else _json(value)
    return Game._meta.get_field(name).get_db_prep_save(value, db)


def _json(value: Any) -> str:
    """JSON text for a JSON column (PostgreSQL's jsonb takes it as a literal; SQLite stores
    it as text): the value Django's encoder writes, without its spaces, and faster."""
    return orjson.dumps(value).decode()
