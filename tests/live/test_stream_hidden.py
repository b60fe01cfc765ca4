"""No stream frame carries a hidden card (R4, R7): tests/api/test_hidden_information.py's twin
games, on the stream of every viewer.

A game is dealt a deck, and its twin the same deck with the cards nobody has seen by the end
of the actions trading places. Both are imported as histories (the real server deals its own
decks; an imported history keeps its deal), the same random legal actions are played on both,
and every viewer follows both streams: whatever is hidden differs between the twins and all
else is equal, so every event frame must be the same in both, and every view frame the same
at the same version (a stream's view frames come where its reads fall). Each frame is also
checked against the truth: each view against the engine's view of the true state, each event
against what its type may show.
"""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest

from engine import Event, Join, Options, SeededShuffler, replay
from engine import act as engine_act
from engine import create_game as create_engine_game
from tests.api.history_support import document_of
from tests.api.support import without_identity
from tests.api.test_hidden_information import (
    END_SCORE,
    check_feed,
    check_view,
    play_round_one,
    rigged,
    twin_deck,
)

from .conftest import Tiers
from .support import GAMES, Connection, Follower, Table, View, act, kept_events


@pytest.mark.parametrize(("seats", "seed", "turns"), [(2, 101, 12), (3, 202, 8), (8, 303, 4)])
def test_twin_games_stream_alike_to_every_viewer(
    tiers: Tiers, client: httpx.Client, seats: int, seed: int, turns: int
) -> None:
    rng = random.Random(seed)
    deck = SeededShuffler(seed).deal_order(1)
    prefix = play_round_one(seats, deck, budget=2 * seats + turns, rng=rng)
    twin = twin_deck(deck, prefix.unseen, rng)
    assert twin != deck and len(prefix.actions) >= 2 * seats
    tables = [imported(client, seats, dealt) for dealt in (deck, twin)]
    last = prefix.states[-1].version
    followers = [
        [Follower(tiers.main, table.game_id, token, until=last) for token in table.viewers]
        for table in tables
    ]
    for follower in followers[0] + followers[1]:
        follower.start()
        follower.wait_version(prefix.states[0].version, timeout=10)
    for seat, action in prefix.actions:
        for table in tables:
            act(client, table.game_id, table.tokens[seat], action)
    truths = {state.version: state for state in prefix.states}
    for index, seat in enumerate([None, *range(seats)]):
        streams = [followers[twin][index].finish() for twin in (0, 1)]
        events = [[without_time(frame.data) for frame in kept_events(s)] for s in streams]
        assert events[0] == events[1], f"a hidden card shows to viewer {seat}"
        check_feed(events[0], seat)
        shown = [views_by_version(connections) for connections in streams]
        common = shown[0].keys() & shown[1].keys()
        assert {prefix.states[0].version, last} <= common
        for version in common:
            assert shown[0][version] == shown[1][version], f"viewer {seat}, version {version}"
        for version, served in [*shown[0].items(), *shown[1].items()]:
            check_view(served, truths[version], seat)


def imported(client: httpx.Client, seats: int, deck: tuple[int, ...]) -> Table:
    """A game dealt `deck` (named and set up as the engine's prefix is), every seat taken."""
    answer = client.post(f"{GAMES}/import", json=document_of(dealt_events(seats, deck)))
    assert answer.status_code == 201, answer.text
    tokens = sorted(answer.json()["seat_tokens"], key=lambda seat: seat["seat"])
    return Table(answer.json()["id"], [seat["token"] for seat in tokens])


def dealt_events(seats: int, deck: tuple[int, ...]) -> list[Event]:
    events = create_engine_game(seats, Options(END_SCORE))
    state = replay(events)
    for seat in range(seats):
        new, state = engine_act(state, None, Join(f"P{seat}"), rigged(deck))
        events.extend(new)
    return events


def without_time(event: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in event.items() if key != "at"}


def views_by_version(connections: list[Connection]) -> dict[int, View]:
    """Each view frame, less the game's identity (its id and times differ between twins)."""
    return {
        frame.data["version"]: without_identity(frame.data)
        for connection in connections
        for frame in connection.frames
        if frame.event == "view"
    }
