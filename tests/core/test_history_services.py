"""Bounded cost: every append writes the snapshot of the version it makes, a read uses a snapshot
only when it was made at the game's exact version (else replays and stores a fresh one), and a
read with a snapshot runs the same few queries whatever the length of the log."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from engine import GreedyPlayer, replay
from engine.audit import verify_log
from engine.snapshot import SNAPSHOT_FORMAT, state_from_data
from games import core
from games.models import Game
from games.store import log
from loadtest.management.commands.bench_replay import BenchGame, build_game
from tests.api.history_support import drive_over_http
from tests.api.support import (
    GAMES,
    act,
    bearer,
    get_view,
    setup_reveals,
    start_game,
)

pytestmark = pytest.mark.django_db

#: What snapshot format 2 added: a snapshot of format 1 lacks them and is rebuilt.
FORMAT_2_FIELDS = ("starter", "last_action")


def stored_snapshot(game: Game) -> Any:
    """The snapshot's data, from the JSON text the row holds."""
    assert game.snapshot is not None
    return json.loads(game.snapshot)


def assert_snapshot_is_current(game_id: str) -> Game:
    """The row's snapshot was made at its version and is the state the log replays to."""
    game = Game.objects.get(pk=game_id)
    assert game.snapshot_version == game.version
    assert stored_snapshot(game)["format"] == SNAPSHOT_FORMAT
    assert state_from_data(stored_snapshot(game)) == replay(log.engine_events(game))
    assert replay(log.engine_events(game)).version == game.version
    return game


def test_every_action_writes_the_snapshot_of_its_version(api: APIClient) -> None:
    """Over a whole game of several rounds (deals, reshuffle-free turns, scoring, the end)."""
    game_id, tokens = start_game(api, 2, seed=4, end_score=30)
    checked = []

    def check(sent: int) -> None:
        checked.append(assert_snapshot_is_current(game_id).version)

    drive_over_http(api, game_id, tokens, [GreedyPlayer(), GreedyPlayer()], before_action=check)
    game = assert_snapshot_is_current(game_id)
    assert game.status == "finished" and len(stored_snapshot(game)["rounds"]) > 1
    assert len(checked) > 100


@pytest.fixture
def game_in_play(api: APIClient) -> tuple[str, list[str]]:
    """A 2-seat game some turns in, its last action a draw (a card is held)."""
    game_id, tokens = start_game(api, 2, seed=6, end_score=100)
    setup_reveals(api, game_id, tokens)
    players = [GreedyPlayer(), GreedyPlayer()]
    drive_over_http(api, game_id, tokens, players, max_actions=15)
    while True:  # on to the start of a turn
        seat = get_view(api, game_id)["current_seat"]
        if {"action": "draw"} in get_view(api, game_id, tokens[seat])["legal_actions"]:
            break
        drive_over_http(api, game_id, tokens, players, max_actions=1)
    act(api, game_id, tokens[seat], {"action": "draw"})
    return game_id, tokens


def views(api: APIClient, game_id: str, tokens: list[str]) -> list[dict[str, Any]]:
    return [get_view(api, game_id, token) for token in [*tokens, None]]


def test_a_stale_snapshot_is_ignored_and_replaced(
    api: APIClient, game_in_play: tuple[str, list[str]]
) -> None:
    game_id, tokens = game_in_play
    truth = views(api, game_id, tokens)
    game = Game.objects.get(pk=game_id)
    older = replay(log.engine_events(game, upto=game.version - 3))
    assert older != replay(log.engine_events(game))
    Game.objects.filter(pk=game_id).update(
        snapshot=core.snapshot_text(older), snapshot_version=older.version
    )
    assert views(api, game_id, tokens)[0] == truth[0]  # the first read rebuilds it
    assert_snapshot_is_current(game_id)
    assert views(api, game_id, tokens) == truth


def test_a_stale_snapshot_does_not_mislead_an_action(
    api: APIClient, game_in_play: tuple[str, list[str]]
) -> None:
    game_id, tokens = game_in_play
    game = Game.objects.get(pk=game_id)
    seat = game.current_seat
    assert seat is not None
    # Before the draw, the seat held nothing: a snapshot from then would allow another draw.
    older = replay(log.engine_events(game, upto=game.version - 1))
    Game.objects.filter(pk=game_id).update(
        snapshot=core.snapshot_text(older), snapshot_version=older.version
    )
    response = api.post(f"{GAMES}/{game_id}/actions/draw", **bearer(tokens[seat]))
    assert response.status_code == 409 and response.json()["code"] == "card_already_held"
    act(api, game_id, tokens[seat], {"action": "discard"})
    game = assert_snapshot_is_current(game_id)
    verify_log(log.engine_events(game))


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda data: {**data, "format": SNAPSHOT_FORMAT + 1},
        lambda data: {
            **{key: value for key, value in data.items() if key not in FORMAT_2_FIELDS},
            "format": 1,
        },
        lambda data: {key: value for key, value in data.items() if key != "format"},
        lambda data: {"format": SNAPSHOT_FORMAT},
        lambda data: {**data, "grids": "not grids"},
        lambda data: {**data, "names": 5},
        lambda data: [data],
        lambda data: "a snapshot",
        lambda data: 42,
        lambda data: json.dumps(data)[:-1],
    ],
    ids=[
        "other-format",
        "format-1",
        "no-format",
        "fields-missing",
        "bad-grids",
        "bad-names",
        "a-list",
        "a-string",
        "a-number",
        "not-json",
    ],
)
def test_a_corrupted_snapshot_is_ignored_and_rebuilt(
    api: APIClient, game_in_play: tuple[str, list[str]], corrupt: Any
) -> None:
    game_id, tokens = game_in_play
    truth = views(api, game_id, tokens)
    good = stored_snapshot(Game.objects.get(pk=game_id))
    bad = corrupt(good)
    text = bad if isinstance(bad, str) and bad.startswith("{") else json.dumps(bad)
    game = Game.objects.get(pk=game_id)
    Game.objects.filter(pk=game_id).update(snapshot=text, snapshot_version=game.version)
    assert views(api, game_id, tokens)[0] == truth[0]
    assert_snapshot_is_current(game_id)
    assert views(api, game_id, tokens) == truth
    # And the next action starts from the true state too.
    Game.objects.filter(pk=game_id).update(snapshot=text, snapshot_version=game.version)
    seat = truth[-1]["current_seat"]
    act(api, game_id, tokens[seat], {"action": "discard"})
    assert_snapshot_is_current(game_id)


def test_a_missing_snapshot_is_rebuilt_on_read(
    api: APIClient, game_in_play: tuple[str, list[str]]
) -> None:
    game_id, tokens = game_in_play
    truth = views(api, game_id, tokens)
    Game.objects.filter(pk=game_id).update(snapshot=None, snapshot_version=None)
    assert views(api, game_id, tokens) == truth
    assert_snapshot_is_current(game_id)


def test_game_state_at_an_earlier_version_replays_the_log(
    game_in_play: tuple[str, list[str]],
) -> None:
    game = Game.objects.get(pk=game_in_play[0])
    for at in (1, 4, game.version - 1, game.version):
        state = core.game_state(game, at=at)
        assert state == replay(log.engine_events(game, upto=at))
        assert state.version == at


# Queries: a read with a snapshot does not touch the log


@pytest.fixture
def short_and_long() -> tuple[BenchGame, BenchGame]:
    """Games of 20 and 2,000 events, built as the benchmark builds them."""
    short, long = build_game(20, seed=7), build_game(2000, seed=7)
    assert short.events < 30 and long.events >= 2000
    for game in (short, long):
        assert_snapshot_is_current(game.game_id)
    return short, long


def queries_of(fn: Any) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        fn()
    return [query["sql"] for query in captured.captured_queries]


def touches_the_log(sql: str) -> bool:
    return "games_gameevent" in sql and sql.lstrip().upper().startswith("SELECT")


def test_a_read_runs_the_same_few_queries_whatever_the_length_of_the_log(
    api: APIClient, short_and_long: tuple[BenchGame, BenchGame], django_assert_max_num_queries: Any
) -> None:
    counts = []
    for game in short_and_long:
        for token in (game.tokens[0], None):

            def read(game: BenchGame = game, token: str | None = token) -> None:
                get_view(api, game.game_id, token)

            sql = queries_of(read)
            assert not any(touches_the_log(q) for q in sql), sql
            counts.append(len(sql))
            with django_assert_max_num_queries(3):
                read()
    assert counts[0] == counts[2] and counts[1] == counts[3], counts


def test_a_cold_read_replays_the_log_once_then_reads_are_cheap_again(
    api: APIClient, short_and_long: tuple[BenchGame, BenchGame]
) -> None:
    long = short_and_long[1]
    Game.objects.filter(pk=long.game_id).update(snapshot=None, snapshot_version=None)
    cold = queries_of(lambda: get_view(api, long.game_id, long.tokens[0]))
    assert any(touches_the_log(q) for q in cold)
    assert_snapshot_is_current(long.game_id)
    warm = queries_of(lambda: get_view(api, long.game_id, long.tokens[0]))
    assert not any(touches_the_log(q) for q in warm)


def test_an_action_runs_the_same_queries_whatever_the_length_of_the_log(
    api: APIClient, short_and_long: tuple[BenchGame, BenchGame]
) -> None:
    counts = []
    for game in short_and_long:
        seat_views = [get_view(api, game.game_id, token) for token in game.tokens]
        seat = next(s for s, v in enumerate(seat_views) if v["legal_actions"])
        action = seat_views[seat]["legal_actions"][0]
        sql = queries_of(lambda: act(api, game.game_id, game.tokens[seat], action))  # noqa: B023
        assert not any(touches_the_log(q) for q in sql), sql
        counts.append(len(sql))
        assert_snapshot_is_current(game.game_id)
    assert counts[0] == counts[1], counts


def test_the_long_game_is_a_valid_log_at_its_length(
    short_and_long: tuple[BenchGame, BenchGame],
) -> None:
    long = Game.objects.get(pk=short_and_long[1].game_id)
    state = verify_log(log.engine_events(long))
    assert state.version == long.version >= 2000 and state.phase != "finished"
    assert state == core.game_state(long)  # from the snapshot
