"""A bot's move whose letters lose an inbox's next number to another writer (the append rolls
back on the unique index) is tried again by the job, never failing it (seen on PostgreSQL:
a bot account played its turns while the worker moved the bots of its other games)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, connection

from games import core
from games.core import service_moves
from games.models import Game

pytestmark = pytest.mark.django_db


class LetterRace(IntegrityError):
    """What the database says when another writer numbered the inbox entry first."""


def collision() -> IntegrityError:
    if connection.vendor == "sqlite":
        return LetterRace("UNIQUE constraint failed: accounts_inboxentry.account_id, sequence")
    error = LetterRace("duplicate key value violates unique constraint")
    error.__cause__ = type("Cause", (Exception,), {"sqlstate": "23505"})()
    return error


def test_a_bots_move_that_lost_a_letter_race_is_appended_on_the_next_try(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = core.create_game(seats=2, options=None, seed=4)
    core.join_game(game.id, "Greedy", "greedy")
    core.join_game(game.id, "Random", "random")
    real = service_moves.append_events
    lost: list[int] = []

    def append_events(*args: Any, **kwargs: Any) -> None:
        if not lost:
            lost.append(1)
            raise collision()
        real(*args, **kwargs)

    monkeypatch.setattr(service_moves, "append_events", append_events)
    version = Game.objects.get(pk=game.id).version
    assert service_moves.play_bots(game.id, version) > 0 and lost == [1]
    assert Game.objects.get(pk=game.id).version > version
