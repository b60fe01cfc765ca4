"""The event log is append-only: stored events are never changed or removed, by any route."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError

from games import core
from games.models import AppendOnlyError, Game, GameEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def game() -> Game:
    game = core.create_game(seats=2, options=None, seed=5)
    core.join_game(game.id, "Ada")
    core.join_game(game.id, "Grace")
    return Game.objects.get(pk=game.pk)


def log(game: Game) -> list[tuple[int, str, Any]]:
    return list(
        GameEvent.objects.filter(game=game)
        .order_by("sequence")
        .values_list("sequence", "type", "payload")
    )


def test_events_are_inserted(game: Game) -> None:
    assert [(s, t) for s, t, _ in log(game)] == [
        (1, "GameCreated"),
        (2, "PlayerJoined"),
        (3, "PlayerJoined"),
        (4, "RoundDealt"),
    ]
    assert str(GameEvent.objects.get(game=game, sequence=2)) == "#2 PlayerJoined"


def test_saving_a_stored_event_raises(game: Game) -> None:
    before = log(game)
    event = GameEvent.objects.get(game=game, sequence=2)
    event.payload = {"seat": 0, "name": "Mallory"}
    with pytest.raises(AppendOnlyError):
        event.save()
    with pytest.raises(AppendOnlyError):
        event.save(update_fields=["payload"])
    with pytest.raises(AppendOnlyError):
        event.save(force_update=True)
    assert log(game) == before


def test_a_new_instance_cannot_overwrite_a_stored_row(game: Game) -> None:
    """A new instance with a stored row's primary key is inserted (and refused), never turned
    into an UPDATE of that row."""
    before = log(game)
    stored = GameEvent.objects.get(game=game, sequence=2)
    forged = GameEvent(
        pk=stored.pk,
        game=game,
        sequence=2,
        type="PlayerJoined",
        payload={"seat": 0, "name": "Mallory"},
        schema_version=1,
        created_at=stored.created_at,
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        forged.save()
    with pytest.raises(AppendOnlyError):
        forged.save(force_update=True)
    assert log(game) == before


def test_a_second_event_at_a_taken_sequence_is_refused(game: Game) -> None:
    before = log(game)
    with pytest.raises(IntegrityError), transaction.atomic():
        GameEvent.objects.create(
            game=game, sequence=3, type="PlayerJoined", payload={}, schema_version=1
        )
    assert log(game) == before


def test_deleting_events_raises(game: Game) -> None:
    before = log(game)
    event = GameEvent.objects.get(game=game, sequence=1)
    with pytest.raises(AppendOnlyError):
        event.delete()
    with pytest.raises(AppendOnlyError):
        GameEvent.objects.filter(game=game).delete()
    with pytest.raises(AppendOnlyError):
        GameEvent.objects.all().delete()
    with pytest.raises(AppendOnlyError):
        game.events.all().delete()
    assert log(game) == before


def test_updating_events_raises(game: Game) -> None:
    before = log(game)
    with pytest.raises(AppendOnlyError):
        GameEvent.objects.filter(game=game).update(payload={})
    with pytest.raises(AppendOnlyError):
        GameEvent.objects.update(type="X")
    with pytest.raises(AppendOnlyError):
        game.events.update(type="X")
    events = list(GameEvent.objects.filter(game=game))
    for event in events:
        event.type = "X"
    with pytest.raises(AppendOnlyError), transaction.atomic():  # its own, savepoint-less
        GameEvent.objects.bulk_update(events, ["type"])
    with pytest.raises(AppendOnlyError):
        GameEvent.objects.update_or_create(
            game=game, sequence=1, defaults={"payload": {"seats": 8}}
        )
    assert log(game) == before


def test_upserting_events_raises(game: Game) -> None:
    before = log(game)
    with pytest.raises(AppendOnlyError):
        GameEvent.objects.bulk_create(
            [GameEvent(game=game, sequence=1, type="X", payload={}, schema_version=1)],
            update_conflicts=True,
            unique_fields=["game", "sequence"],
            update_fields=["type", "payload"],
        )
    assert log(game) == before


def test_a_game_with_events_cannot_be_deleted(game: Game) -> None:
    before = log(game)
    with pytest.raises(ProtectedError):
        game.delete()
    with pytest.raises(ProtectedError):
        Game.objects.filter(pk=game.pk).delete()
    assert log(game) == before
    assert Game.objects.filter(pk=game.pk).exists()
