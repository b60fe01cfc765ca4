"""The hand-written statements (games.store) read and write exactly the rows the ORM does: each
statement's result is compared, field by field, with the ORM's reading of the same rows, and
an append's rows with the ones the ORM writes for the same values (the suite runs on SQLite
and on PostgreSQL, so both databases' statements are checked)."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.db import connection
from django.utils import timezone

from games import core, store
from games.core.tokens import hash_token
from games.models import Game, GameCheckpoint, GameEvent, Seat

pytestmark = pytest.mark.django_db

#: More events than one INSERT takes (150), so that an append runs every statement it has.
LONG = 400
TOKEN = hash_token("seat zero")


def new_game(token_hash: str = TOKEN) -> Game:
    game = Game.objects.create(seats=2, options={}, seed=1)
    Seat.objects.create(game=game, seat=0, name="Ada", token_hash=token_hash)
    return game


def summary(version: int, *, finished: bool = False) -> store.Summary:
    return store.Summary(
        version=version,
        status="finished" if finished else "playing",
        round=3,
        current_seat=None if finished else 1,
        players_joined=2,
        totals=[12, -4],
        winners=[1] if finished else None,
        snapshot=f'{{"version": {version}}}',
    )


def events(count: int, first_value: int = 0) -> list[store.NewEvent]:
    return [
        store.NewEvent("CardDrawn", 1, {"seat": n % 2, "value": (first_value + n) % 13 - 2})
        for n in range(count)
    ]


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


def assert_same_game(found: Game, orm: Game) -> None:
    for field in Game._meta.concrete_fields:
        assert getattr(found, field.attname) == getattr(orm, field.attname), field.name


@pytest.mark.parametrize("finished", [False, True])
def test_fetch_reads_the_game_and_the_tokens_seat_as_the_orm_does(finished: bool) -> None:
    game = new_game()
    at = timezone.now()
    assert store.append(game.id, 0, events(3), summary(3, finished=finished), at)
    for for_write in (False, True):
        found = store.fetch_game(game.id, TOKEN, for_write=for_write)
        assert found is not None and found[1] == 0
        assert_same_game(found[0], Game.objects.get(pk=game.id))
        spectator = store.fetch_game(game.id, None, for_write=for_write)
        assert spectator is not None and spectator[1] is None
    stranger = store.fetch_game(game.id, hash_token("no seat"))
    assert stranger is not None and stranger[1] is None
    assert store.fetch_game(uuid.uuid4(), TOKEN) is None


@pytest.mark.parametrize("count", [1, LONG])
def test_an_append_writes_the_rows_the_orm_writes(count: int) -> None:
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
    assert [(e.sequence, e.type, e.schema_version, e.payload, e.created_at) for e in stored] == [
        (n, e.type, e.schema_version, e.payload, at) for n, e in enumerate(written, start=1)
    ]
    for sequence in (1, count):
        mine = raw_row(GameEvent, game=game, sequence=sequence)
        theirs = raw_row(GameEvent, game=twin, sequence=sequence)
        assert as_json(mine[1:]) == as_json(theirs[1:])  # but the game
    saved = GameCheckpoint.objects.filter(game=game).order_by("version")
    assert list(saved.values_list("version", "state")) == checkpoints


def test_an_append_from_another_version_or_token_writes_nothing() -> None:
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


def test_the_replays_reads_give_what_the_orm_reads() -> None:
    """Checkpoints (saved, and replaced at the same version), the nearest one, the events
    between two versions and an event's time."""
    game = new_game()
    at = timezone.now() - timedelta(minutes=5)
    assert store.append(game.id, 0, events(250), summary(250), at)
    later = timezone.now()
    assert store.append(game.id, 250, events(3, 7), summary(253), later)
    store.save_checkpoints(game.id, [(100, "old"), (200, "two")])
    store.save_checkpoints(game.id, [(100, "one")])
    checkpoints = GameCheckpoint.objects.filter(game=game)
    for version in (99, 100, 150, 200, 253):
        nearest = checkpoints.filter(version__lte=version).order_by("-version").first()
        expected = None if nearest is None else (nearest.version, nearest.state)
        assert store.nearest_checkpoint(game.id, version) == expected
    assert expected == (200, "two")
    rows = GameEvent.objects.filter(game=game).order_by("sequence")
    for after, upto in [(0, 0), (0, 5), (149, 251), (250, 253), (253, 300)]:
        between = rows.filter(sequence__gt=after, sequence__lte=upto)
        assert store.read_payloads(game.id, after, upto) == list(
            between.values_list("type", "schema_version", "payload")
        )
        assert store.read_events(game.id, after, upto, None) == list(
            between.values_list("sequence", "type", "schema_version", "created_at", "payload")
        )
    assert store.read_events(game.id, 250, None, 1)[0][3] == later


def test_a_game_as_the_services_store_it_reads_back_the_same() -> None:
    """Through the services (snapshot text, a JSON options object, a seeded flag)."""
    game = core.create_game(seats=3, options={"end_score": 60}, seed=9)
    found = store.fetch_game(game.id, None)
    assert found is not None
    assert_same_game(found[0], Game.objects.get(pk=game.id))
