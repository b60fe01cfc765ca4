"""One contract for the two appenders of games.store: SQLite's (the UPDATE that checks the
version, then the INSERTs, in one IMMEDIATE transaction) and PostgreSQL's (the UPDATE and the
first INSERT as one statement of its own SQL, which also notifies). Every test of
`AppenderContract` runs once per appender, by the class of its database.

The store picks the appender by the connection's vendor, and PostgreSQL's SQL runs nowhere
else: a class forcing the other database's appender on this one would test SQL no deployment
runs. So each class runs on its own database only (SQLite: CI's first pass; PostgreSQL:
`make test-postgres`) and is skipped, saying so, on the other; and each checks that its
appender is the one `store.append` runs. (Through the services and real servers: the write
path's failures in tests/core/test_services.py, real commits in
tests/production/test_atomic_writes.py.)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any, ClassVar
from unittest import mock

import pytest
from django.db import IntegrityError, connection, connections
from django.utils import timezone

from games import store
from games.core.tokens import hash_token
from games.models import Game, GameCheckpoint, GameEvent
from games.store import sql

from .test_store import LONG, TOKEN, events, new_game, summary

pytestmark = pytest.mark.django_db


def raw_row(model: Any, **where: Any) -> tuple[Any, ...]:
    """A row's columns as the database stores them, by the ORM's query (no conversion)."""
    columns = [field.column for field in model._meta.concrete_fields if field.name != "id"]
    query = model.objects.filter(**where).values_list(*columns)
    sql, params = query.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return tuple(cursor.fetchone())


def as_json(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """A row with its JSON text parsed: SQLite stores the payload as the text written, which
    is compact from the store and spaced from Django's encoder (PostgreSQL's jsonb keeps the
    value alone)."""
    return tuple(json.loads(v) if isinstance(v, str) and v[:1] in "[{" else v for v in row)


def everything_written(game: Game) -> tuple[Any, ...]:
    """Everything an append may write for `game`: its row, its events, its checkpoints."""
    return (
        raw_row(Game, pk=game.id),
        list(GameEvent.objects.filter(game=game).values_list("sequence", "type", "payload")),
        list(GameCheckpoint.objects.filter(game=game).values_list("version", "state")),
    )


def broken_last(written: list[store.NewEvent]) -> list[store.NewEvent]:
    """`written` with its last event at a schema version the column's CHECK refuses: the
    database fails the append after it moved the game row and took the first events."""
    return [*written[:-1], replace(written[-1], schema_version=-1)]


def runs_on(vendor: str) -> pytest.MarkDecorator:
    """Skip a class unless the games' write database is `vendor`'s (its appender's own)."""
    found = connections[store.write_alias()].vendor
    return pytest.mark.skipif(
        found != vendor, reason=f"{vendor}'s appender runs on {vendor}; this run is on {found}"
    )


class AppenderContract:
    """What an appender does, whatever its SQL: its events land in order after the version it
    was given, with the game row moved to the summary and the checkpoints saved, exactly as the
    ORM would write them; from a stale version or a rotated token, or failing part-way, it
    writes nothing at all."""

    #: The database vendor whose appender the class tests, and its name in games.store.sql.
    vendor: ClassVar[str]
    appender: ClassVar[str]

    @pytest.fixture(autouse=True)
    def through_this_appender(self, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
        """The store picks this class's appender for its vendor, and every test's appends run
        it (counted by a wrapper that calls it unchanged)."""
        real: Callable[..., bool] = getattr(sql, self.appender)
        assert sql._APPENDERS[self.vendor] is real
        calls: list[int] = []

        def counted(job: Any) -> bool:
            calls.append(len(job.events))
            return real(job)

        monkeypatch.setitem(sql._APPENDERS, self.vendor, counted)
        yield
        assert calls, f"no append ran {self.appender}"

    @pytest.mark.parametrize("count", [1, LONG])
    def test_an_append_writes_the_rows_the_orm_writes(self, count: int) -> None:
        """The summary row and the events as the ORM reads them back, and stored exactly as the
        ORM stores the same values in a twin game (a long append too: several INSERTs, and on
        PostgreSQL the one-statement UPDATE with the first 150 events, then the rest)."""
        game, twin = new_game(), new_game(hash_token("the twin's"))
        at = timezone.now()
        moved = summary(count, finished=True)
        checkpoints = [(100, '{"at": 100}'), (200, '{"at": 200}')] if count == LONG else []
        written = events(count)
        assert store.append(
            game.id, 0, written, moved, at, seat_token=(0, TOKEN), checkpoints=checkpoints
        )
        Game.objects.filter(pk=twin.pk).update(
            **{name: getattr(moved, name) for name in store.Summary.__dataclass_fields__},
            snapshot_version=moved.version,
            updated_at=at,
        )
        with mock.patch.object(timezone, "now", return_value=at):  # auto_now_add's time
            twin_events = [
                GameEvent(game=twin, sequence=n, type=e.type, schema_version=e.schema_version,
                          payload=e.payload)
                for n, e in enumerate(written, start=1)
            ]  # fmt: skip
            GameEvent.objects.bulk_create(twin_events)
        orm = Game.objects.get(pk=game.id)
        assert (orm.version, orm.snapshot_version, orm.updated_at) == (count, count, at)
        for name in store.Summary.__dataclass_fields__:
            assert getattr(orm, name) == getattr(moved, name), name
        assert raw_row(Game, pk=game.id)[1:] == raw_row(Game, pk=twin.id)[1:]  # but its creation
        stored = GameEvent.objects.filter(game=game).order_by("sequence")
        assert [
            (e.sequence, e.type, e.schema_version, e.payload, e.created_at) for e in stored
        ] == [(n, e.type, e.schema_version, e.payload, at) for n, e in enumerate(written, start=1)]
        for sequence in (1, count):
            mine = raw_row(GameEvent, game=game, sequence=sequence)
            theirs = raw_row(GameEvent, game=twin, sequence=sequence)
            assert as_json(mine[1:]) == as_json(theirs[1:])  # but the game
        saved = GameCheckpoint.objects.filter(game=game).order_by("version")
        assert list(saved.values_list("version", "state")) == checkpoints

    def test_appends_follow_one_another_in_order(self) -> None:
        """Each append numbers its events from the version it was given on (a long one past
        its first INSERT too), so a log built by appends is 1..N in the order written."""
        game = new_game()
        at = timezone.now()
        written: list[store.NewEvent] = []
        for count in (2, LONG, 1):
            batch = events(count, first_value=len(written))
            assert store.append(game.id, len(written), batch, summary(len(written) + count), at)
            written += batch
            assert Game.objects.get(pk=game.id).version == len(written)
        rows = GameEvent.objects.filter(game=game).order_by("sequence")
        assert [(e.sequence, e.payload) for e in rows] == [
            (n, e.payload) for n, e in enumerate(written, start=1)
        ]

    def test_an_append_from_another_version_or_token_writes_nothing(self) -> None:
        game = new_game()
        at = timezone.now()
        assert store.append(game.id, 0, events(2), summary(2), at)
        before = raw_row(Game, pk=game.id)
        assert not store.append(game.id, 1, events(1), summary(2), at)  # the game is at 2
        wrong = (0, hash_token("rotated away"))
        assert not store.append(game.id, 2, events(1), summary(3), at, seat_token=wrong)
        assert not store.append(game.id, 2, events(LONG), summary(2 + LONG), at, seat_token=wrong)
        assert raw_row(Game, pk=game.id) == before
        assert GameEvent.objects.filter(game=game).count() == 2

    @pytest.mark.django_db(transaction=True)  # the append's own transaction, not the test's
    @pytest.mark.parametrize("count", [2, LONG])
    def test_an_append_failing_part_way_writes_nothing(self, count: int) -> None:
        """All of an append or none, by the appender alone (no test transaction around it): a
        last event the database refuses undoes the game row's move and the events before it
        (on PostgreSQL a long one's first statement too); the same append then lands."""
        game = new_game()
        at = timezone.now()
        assert store.append(game.id, 0, events(1), summary(1), at)
        before = everything_written(game)
        written = events(count)
        checkpoints = (
            [(1 + count, "{}")] if count == LONG else []
        )  # none: PostgreSQL's one statement
        with pytest.raises(IntegrityError):
            store.append(
                game.id, 1, broken_last(written), summary(1 + count), at, checkpoints=checkpoints
            )
        assert everything_written(game) == before
        assert store.append(game.id, 1, written, summary(1 + count), at, checkpoints=checkpoints)
        assert Game.objects.get(pk=game.id).version == GameEvent.objects.filter(game=game).count()


@runs_on("sqlite")
class TestSQLiteAppender(AppenderContract):
    vendor = "sqlite"
    appender = "_append_sqlite"


#: What the `notifications` fixture answers: the payloads heard within a time.
Heard = Callable[..., list[str]]


@pytest.fixture
def notifications() -> Iterator[Heard]:
    """A connection of its own LISTENing on the store's channel, before the test appends:
    called with a time, it answers the payloads heard within it (at most `stop_after`)."""
    listener = connections.create_connection(store.write_alias())
    try:
        with listener.cursor() as cursor:
            cursor.execute(f"LISTEN {store.NOTIFY_CHANNEL}")

        def heard(within: float, stop_after: int | None = None) -> list[str]:
            found = listener.connection.notifies(timeout=within, stop_after=stop_after)
            return [notice.payload for notice in found]

        yield heard
    finally:
        listener.close()


@runs_on("postgresql")
class TestPostgresAppender(AppenderContract):
    vendor = "postgresql"
    appender = "_append_postgresql"

    @pytest.mark.django_db(transaction=True)  # a notification is sent when its write commits
    @pytest.mark.parametrize("count", [1, LONG])
    def test_an_append_notifies_its_game_and_new_version(
        self, count: int, notifications: Heard
    ) -> None:
        """`games.live` hears of every append by "<game id> <version>" on the channel, a long
        append (several statements in a transaction) included."""
        game = new_game()
        assert store.append(game.id, 0, events(count), summary(count), timezone.now())
        assert notifications(5.0, 1) == [f"{game.id} {count}"]
        assert notifications(0.5) == []  # one notification per append

    @pytest.mark.django_db(transaction=True)
    def test_an_append_refused_or_failed_notifies_nothing(self, notifications: Heard) -> None:
        """A stale append moves no row, so notifies no one; a failed one's notification goes
        with its rolled-back write."""
        game = new_game()
        at = timezone.now()
        assert store.append(game.id, 0, events(1), summary(1), at)
        assert notifications(5.0, 1) == [f"{game.id} 1"]
        assert not store.append(game.id, 0, events(1), summary(1), at)
        with pytest.raises(IntegrityError):
            store.append(game.id, 1, broken_last(events(LONG)), summary(1 + LONG), at)
        assert notifications(0.5) == []
