"""Checkpoints of the state bound what a replay (`?at=N`) costs: it starts from the nearest
checkpoint at or before N and folds fewer than `REPLAY_CHECKPOINT_EVERY` events, whatever the
log's length. They only ever speed a read up: with checkpoints, without them, with some lost or
stale, a replay gives the state the whole log gives, at every version."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from engine import Event, replay
from engine.snapshot import state_to_data
from games import core
from games.models import Game, GameCheckpoint
from games.store import log
from loadtest.management.commands.bench_replay import Bench, build_game
from tests.api.history_support import engine_history
from tests.api.support import GAMES

pytestmark = pytest.mark.django_db

EVERY = 7


@pytest.fixture
def every(settings: Any) -> int:
    settings.REPLAY_CHECKPOINT_EVERY = EVERY
    return EVERY


def whole_log_state(game: Game, at: int) -> dict[str, Any]:
    """The state at `at` from the log alone, from its first event."""
    return state_to_data(replay(stored.event for stored in log.events(game, upto=at)))


def assert_every_version_as_the_log_says(game: Game) -> None:
    for at in range(1, game.version + 1):
        assert state_to_data(core.state_at(game, at)) == whole_log_state(game, at), at


def stored_checkpoints(game: Game) -> list[int]:
    return list(
        GameCheckpoint.objects.filter(game=game)
        .order_by("version")
        .values_list("version", flat=True)
    )


def long_game(min_events: int = 300) -> Game:
    """A game whose events after the joins were appended in one write, as an import does."""
    return Game.objects.get(pk=build_game(min_events, seed=11).game_id)


@pytest.fixture
def folded(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many events each replay reads from the log (its cost)."""
    counts: list[int] = []
    original = log.engine_events

    def counting(*args: Any, **kwargs: Any) -> list[Event]:
        events = original(*args, **kwargs)
        counts.append(len(events))
        return events

    monkeypatch.setattr(log, "engine_events", counting)
    return counts


def test_an_append_saves_a_checkpoint_at_every_multiple_it_passes(every: int) -> None:
    game = long_game()
    assert stored_checkpoints(game) == list(range(every, game.version + 1, every))
    assert_every_version_as_the_log_says(game)


def test_actions_one_by_one_save_the_checkpoints_they_pass(every: int) -> None:
    short, other = build_game(12, seed=5), build_game(13, seed=6)
    bench = Bench(short, other, seed=5)
    for _ in range(30):
        bench.act(short)
    game = Game.objects.get(pk=short.game_id)
    assert stored_checkpoints(game) == list(range(every, game.version + 1, every))
    assert_every_version_as_the_log_says(game)


def test_a_replay_folds_fewer_events_than_the_interval(every: int, folded: list[int]) -> None:
    game = long_game()
    for at in (1, every, every + 1, game.version // 2, game.version - 1):
        folded.clear()
        core.state_at(game, at)
        assert folded == [at % every], at


def test_missing_or_stale_checkpoints_fall_back_to_the_log_and_are_saved_again(
    every: int, folded: list[int]
) -> None:
    game = long_game()
    versions = stored_checkpoints(game)
    GameCheckpoint.objects.filter(game=game, version__in=versions[::3]).delete()
    stale = GameCheckpoint.objects.filter(game=game, version__in=versions[1::3])
    stale.update(state='{"format": 1}')  # another snapshot format
    GameCheckpoint.objects.filter(game=game, version=versions[-1]).update(state="not json")
    assert_every_version_as_the_log_says(game)
    assert stored_checkpoints(game) == versions
    folded.clear()
    core.state_at(game, game.version - 1)
    assert folded == [(game.version - 1) % every]  # all readable again


def test_without_checkpoints_a_replay_folds_the_whole_log(settings: Any, folded: list[int]) -> None:
    settings.REPLAY_CHECKPOINT_EVERY = 0
    game = long_game(120)
    assert stored_checkpoints(game) == []
    folded.clear()
    assert state_to_data(core.state_at(game, game.version - 1)) == whole_log_state(
        game, game.version - 1
    )
    assert folded[0] == game.version - 1
    assert stored_checkpoints(game) == []


def test_a_game_older_than_checkpoints_gets_them_at_its_first_replay(
    every: int, settings: Any, folded: list[int]
) -> None:
    settings.REPLAY_CHECKPOINT_EVERY = 0
    game = long_game(120)
    settings.REPLAY_CHECKPOINT_EVERY = every
    core.state_at(game, game.version - 1)
    assert stored_checkpoints(game) == list(range(every, game.version, every))
    folded.clear()
    core.state_at(game, game.version - 1)
    assert folded == [(game.version - 1) % every]


def test_a_deep_replay_of_a_long_import_folds_only_a_few_events(
    api: APIClient, every: int, folded: list[int]
) -> None:
    """The attack: one import of a long history, then `?at=` deep into it, again and again."""
    history = engine_history(seats=2, seed=3, end_score=150)
    imported = api.post(f"{GAMES}/import", history, format="json")
    assert imported.status_code == 201, imported.content
    game_id, version = imported.json()["id"], imported.json()["version"]
    assert version > 20 * every
    for at in (version - 1, version // 2, every + 3):
        folded.clear()
        response = api.get(f"{GAMES}/{game_id}?at={at}")
        assert response.status_code == 200 and response.json()["version"] == at
        assert folded == [at % every]
