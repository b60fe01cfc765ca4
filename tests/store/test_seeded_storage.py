"""`Game.seeded` in storage: the hand-written read (games.store) gives it as the ORM does, on
either database, and games stored before it existed are marked seeded by its migration (the
service cannot tell whether their creators chose their seeds, and `?seeded=false` must only
list games no one can have rigged)."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games import core, store
from games.core.tokens import hash_token
from games.models import Game, Seat

BEFORE = [("games", "0003_summary_totals_and_winners")]
SEEDED = [("games", "0004_game_seeded")]


@pytest.mark.django_db(transaction=True)
def test_games_stored_before_the_migration_read_seeded() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        old_game = executor.loader.project_state(BEFORE).apps.get_model("games", "Game")
        stored = old_game.objects.create(seats=2, options={}, seed=5)
        executor = MigrationExecutor(connection)
        executor.migrate(SEEDED)
        new_game = executor.loader.project_state(SEEDED).apps.get_model("games", "Game")
        assert new_game.objects.get(pk=stored.pk).seeded is True
        assert new_game.objects.create(seats=2, options={}, seed=6).seeded is False
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db
@pytest.mark.parametrize("seed", [None, 0, 2**63 - 1])
def test_the_hand_written_read_gives_the_game_as_the_orm_does(seed: int | None) -> None:
    game = core.create_game(seats=2, options=None, seed=seed)
    Seat.objects.create(game=game, seat=0, name="Ada", token_hash=hash_token("t"))
    found = store.fetch_game(game.id, hash_token("t"))
    assert found is not None
    fetched, seat = found
    orm = Game.objects.get(pk=game.id)
    assert seat == 0 and fetched.seeded is (seed is not None)
    for field in Game._meta.concrete_fields:
        assert getattr(fetched, field.attname) == getattr(orm, field.attname), field.name
    assert store.fetch_game(uuid.uuid4(), None) is None
