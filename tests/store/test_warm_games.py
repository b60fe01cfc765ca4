"""This process's memory of warm games (games.warm) makes an action cheaper, never different:
whatever it remembers that the database no longer says (another process's action, a rotated
token, a version the client already saw), the answer is the one a fresh read gives."""

from __future__ import annotations

import copy
import uuid

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from engine import EMPTY
from games import core
from games.core.tokens import hash_token
from games.models import Game, GameEvent
from games.store.warm import WARM, WarmGames
from tests.api.support import (
    GAMES,
    act,
    assert_problem,
    bearer,
    get_view,
    send,
    setup_reveals,
    start_game,
)

pytestmark = pytest.mark.django_db


def test_an_action_after_a_read_is_decided_from_memory(api: APIClient) -> None:
    game_id, tokens = start_game(api, 2, seed=31)
    get_view(api, game_id, tokens[0])  # the read this process remembers
    remembered = WARM.get(uuid.UUID(game_id), hash_token(tokens[0]))
    assert remembered is not None and remembered[1] == 0
    answer = act(api, game_id, tokens[0], {"action": "reveal", "column": 0, "row": 0})
    after = WARM.get(uuid.UUID(game_id), hash_token(tokens[0]))
    assert after is not None and after[2].version == answer["version"]


def test_the_memory_can_be_turned_off(api: APIClient) -> None:
    """`SKYJO_WARM_GAMES=0`: nothing is remembered, and every action reads its game."""
    game_id, tokens = start_game(api, 2, seed=30)
    with override_settings(SKYJO_WARM_GAMES=0):
        get_view(api, game_id, tokens[0])
        assert WARM.get(uuid.UUID(game_id), hash_token(tokens[0])) is None
        act(api, game_id, tokens[0], {"action": "reveal", "column": 0, "row": 0})
        assert WARM.get(uuid.UUID(game_id), hash_token(tokens[0])) is None
    get_view(api, game_id, tokens[0])  # on again (the default capacity)
    assert WARM.get(uuid.UUID(game_id), hash_token(tokens[0])) is not None


def test_a_game_moved_on_elsewhere_is_read_again(api: APIClient) -> None:
    game_id, tokens = start_game(api, 2, seed=32)
    setup_reveals(api, game_id, tokens)
    seat = get_view(api, game_id)["current_seat"]
    act(api, game_id, tokens[seat], {"action": "draw"})
    holding = Game.objects.get(pk=game_id)
    holding_state = core.game_state(holding)
    act(api, game_id, tokens[seat], {"action": "discard"})  # as if through another process
    # This process remembers the seat still holding its card: a discard looks legal there.
    WARM.clear()
    WARM.remember(holding, holding_state, hash_token(tokens[seat]), seat)
    response = send(api, game_id, tokens[seat], {"action": "discard"})
    body = assert_problem(response, 409, response.json()["code"])
    assert body["code"] != "concurrent_update"  # the rules' answer on the fresh read
    game = Game.objects.get(pk=game_id)
    assert game.version == holding.version + 1
    logged = list(GameEvent.objects.filter(game_id=game_id).values_list("sequence", flat=True))
    assert sorted(logged) == list(range(1, game.version + 1))


def test_a_rotated_token_is_refused_though_remembered(api: APIClient) -> None:
    game_id, tokens = start_game(api, 2, seed=33)
    get_view(api, game_id, tokens[0])  # remembered with the old token
    rotated = api.post(f"{GAMES}/{game_id}/players/0/token", **bearer(tokens[0]))
    assert rotated.status_code == 200
    assert WARM.get(uuid.UUID(game_id), hash_token(tokens[0])) is not None
    response = send(api, game_id, tokens[0], {"action": "reveal", "column": 0, "row": 0})
    assert_problem(response, 401, "invalid_token")
    assert GameEvent.objects.filter(game_id=game_id, type="CardRevealed").count() == 0
    new = rotated.json()["token"]
    assert act(api, game_id, new, {"action": "reveal", "column": 0, "row": 0})["you"] == 0


def test_if_match_of_a_version_seen_elsewhere_is_not_refused(api: APIClient) -> None:
    """The client saw a newer version than this process remembers: a fresh read decides."""
    game_id, tokens = start_game(api, 2, seed=34)
    old = Game.objects.get(pk=game_id)
    old_state = core.game_state(old)
    act(api, game_id, tokens[1], {"action": "reveal", "column": 0, "row": 0})  # elsewhere
    WARM.clear()
    WARM.remember(old, old_state, hash_token(tokens[0]), 0)
    current = get_view(api, game_id)["version"]  # a spectator's read: nothing remembered
    assert current == old.version + 1
    answer = act(
        api,
        game_id,
        tokens[0],
        {"action": "reveal", "column": 1, "row": 1},
        HTTP_IF_MATCH=f'"{current}"',
    )
    assert answer["version"] == current + 1


def test_the_memory_forgets_the_least_recently_used_games() -> None:
    memory = WarmGames(capacity=2)
    games = [Game(id=uuid.uuid4(), seats=2, options={}, seed=1, version=0) for _ in range(3)]
    state = EMPTY
    for game in games:
        memory.remember(game, state, "hash", 0)
    assert memory.get(games[0].id, "hash") is None
    found = memory.get(games[2].id, "hash")
    assert found is not None and found[0] is not games[2]  # a copy: callers may change it
    assert memory.get(games[2].id, "another token") is None
    older = copy.copy(games[2])
    memory.remember(older, state, "second", 1)  # same version: seats merge
    assert memory.get(games[2].id, "second") is not None
    assert memory.get(games[2].id, "hash") is not None


def test_a_refusal_by_a_stale_memory_is_decided_again(api: APIClient) -> None:
    """Memory says it is the other seat's turn; the database says the turn has passed back:
    the action is legal, and lands."""
    game_id, tokens = start_game(api, 2, seed=35)
    setup_reveals(api, game_id, tokens)
    other = get_view(api, game_id)["current_seat"]
    mine = 1 - other
    before = Game.objects.get(pk=game_id)
    before_state = core.game_state(before)
    views = [get_view(api, game_id, token) for token in tokens]
    assert views[other]["legal_actions"] and not views[mine]["legal_actions"]
    act(api, game_id, tokens[other], {"action": "take_discard"})
    act(api, game_id, tokens[other], {"action": "replace", "column": 0, "row": 0})
    assert get_view(api, game_id)["current_seat"] == mine
    WARM.clear()
    WARM.remember(before, before_state, hash_token(tokens[mine]), mine)
    answer = act(api, game_id, tokens[mine], {"action": "draw"})
    assert answer["held_card"] is not None and answer["you"] == mine


def test_a_remembered_game_is_copied_as_copy_copy_copies_it() -> None:
    """The memory's own copy (without the pickling protocol) holds what `copy.copy` would:
    the same field values, and a `_state` of its own, whose related objects' cache is its
    own too (an action changes its copy; the memory's must not change with it)."""
    memory = WarmGames(capacity=2)
    game = Game(id=uuid.uuid4(), seats=2, options={"rated": False}, seed=1, version=0)
    memory.remember(game, EMPTY, "hash", 0)
    found = memory.get(game.id, "hash")
    assert found is not None
    copied, expected = found[0], copy.copy(game)
    names = [field.attname for field in Game._meta.concrete_fields]
    assert [getattr(copied, name) for name in names] == [getattr(expected, n) for n in names]
    assert copied._state is not game._state
    assert copied._state.fields_cache is not game._state.fields_cache
    assert (copied._state.db, copied._state.adding) == (game._state.db, game._state.adding)
    copied.version = 5
    assert memory.get(game.id, "hash")[0].version == 0  # type: ignore[index]
