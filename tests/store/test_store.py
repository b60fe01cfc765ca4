"""The hand-written statements (games.store) read exactly the rows the ORM does: each
statement's result is compared, field by field, with the ORM's reading of the same rows (the
suite runs on SQLite and on PostgreSQL, so both databases' statements are checked). What an
append writes, compared with the rows the ORM writes: tests/store/test_appenders.py, the
appenders' contract; this file's helpers build its games."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
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
