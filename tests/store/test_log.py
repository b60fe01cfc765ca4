"""The log reader (`games.log.events`): its hand-written SQL (`store.read_events`) reads the
same rows as the ORM, field by field (run on SQLite and PostgreSQL), for every window a caller
asks for: the feed's pages, a replay's span from a checkpoint, one event's time, the whole log;
and a replay's narrower read (`log.engine_events`) the same events."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from rest_framework.test import APIClient

from engine import event_from_data, event_to_data
from games.models import Game, GameEvent
from games.store import log
from tests.api.support import finished_game

pytestmark = pytest.mark.django_db


def orm_events(game: Game, after: int, upto: int | None, limit: int | None) -> list[Any]:
    """The same window read through the ORM: the reference the fast path must match."""
    rows = GameEvent.objects.filter(game=game, sequence__gt=after).order_by("sequence")
    if upto is not None:
        rows = rows.filter(sequence__lte=upto)
    return list(rows if limit is None else rows[:limit])


def assert_same(stored: log.StoredEvent, row: GameEvent) -> None:
    assert stored.sequence == row.sequence
    assert stored.type == row.type
    assert stored.schema_version == row.schema_version
    assert stored.at == row.created_at and stored.at.utcoffset() is not None
    assert stored.payload == row.payload
    assert stored.event == event_from_data(row.type, row.payload, row.schema_version)


@pytest.fixture
def game(api: APIClient) -> Game:
    """A finished two-seat game, beside another game whose events must never be read."""
    finished_game(api, 2, seed=5)
    game_id, _ = finished_game(api, 2, seed=3)
    return Game.objects.get(pk=game_id)


def test_every_window_reads_what_the_orm_reads(game: Game) -> None:
    last = game.version
    windows = [
        (after, upto, limit)
        for after in (0, 1, 5, last - 1, last, last + 3)
        for upto in (None, after, after + 1, last - 2, last, last + 10)
        for limit in (None, 1, 7, 1000)
    ]
    for after, upto, limit in windows:
        read = log.events(game, after, upto, limit)
        expected = orm_events(game, after, upto, limit)
        assert len(read) == len(expected), (after, upto, limit)
        for stored, row in zip(read, expected, strict=True):
            assert_same(stored, row)
        if limit is None:  # a replay's read, without the times
            assert log.engine_events(game, after, upto) == [stored.event for stored in read]


def test_the_whole_log_is_every_event_in_order_and_upcast(game: Game) -> None:
    stored = log.events(game)
    assert [e.sequence for e in stored] == list(range(1, game.version + 1))
    assert stored[-1].type == "GameEnded"
    assert log.engine_events(game) == [e.event for e in stored]
    assert [event_to_data(e.event) for e in stored] == [e.payload for e in stored]


def test_a_stored_event_is_a_value(game: Game) -> None:
    first = log.events(game, limit=1)[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.sequence = 2  # type: ignore[misc]
    assert first.event is first.event  # upcast once, when first asked for


def test_only_the_games_own_events_are_read(api: APIClient, game: Game) -> None:
    other = Game.objects.get(pk=finished_game(api, 3, seed=4)[0])
    assert log.events(game, limit=1)[0].payload["seats"] == 2
    assert log.events(other, limit=1)[0].payload["seats"] == 3
    assert len(log.events(other)) == other.version
    assert log.events(Game()) == []  # a game with no row, no events
