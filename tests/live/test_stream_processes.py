"""An action through one server process reaches a stream, and a long poll, held by another:
actions go through `main`, streams and polls are held by `other` (a server of its own). On
PostgreSQL `other` polls every 30 s, so only a notification (LISTEN/NOTIFY) can deliver within
the bound; on SQLite its poll of the watched games (every 0.1 s) does."""

from __future__ import annotations

import threading
import time

import httpx
import pytest

from .conftest import BOUND, Servers, Tiers
from .support import GAMES, Follower, act, engine_game, start_game

SEATS = 2


@pytest.mark.usefixtures("tiers_listening")
def test_an_action_through_one_server_reaches_a_stream_held_by_another(
    tiers: Tiers, client: httpx.Client
) -> None:
    actions, states = engine_game(SEATS, seed=12)
    table = start_game(client, SEATS, seed=12)
    last = states[12].version
    followers = [Follower(tiers.other, table.game_id, t, until=last) for t in table.viewers]
    for follower in followers:
        follower.start()
        follower.wait_version(states[0].version, timeout=10)
    delays = []
    for (seat, action), state in zip(actions[:12], states[1:13], strict=True):
        act(client, table.game_id, table.tokens[seat], action)
        answered = time.monotonic()
        delays.append(max(f.wait_version(state.version, 10) for f in followers) - answered)
    shown = sorted(round(delay * 1000) for delay in delays)
    median, most = shown[len(shown) // 2], shown[-1]
    print(f"action to frame in another process: median {median} ms, max {most} ms")
    assert max(delays) < BOUND, shown
    for follower in followers:
        events = [frame.id for c in follower.finish() for frame in c.kept()]
        assert events == list(range(1, last + 1))


@pytest.mark.usefixtures("listening")
def test_a_long_poll_in_one_process_hears_an_action_in_another(
    servers: Servers, client: httpx.Client
) -> None:
    table = start_game(client, SEATS, seed=14)
    reveal = {"action": "reveal", "column": 0, "row": 0}
    later = threading.Timer(0.5, act, (client, table.game_id, table.tokens[0], reveal))
    with httpx.Client(base_url=servers.other.url, timeout=30) as other:
        began = time.monotonic()
        later.start()
        polled = other.get(f"{GAMES}/{table.game_id}/events", params={"after": 4, "wait": 20})
        took = time.monotonic() - began
    later.join()
    assert [event["sequence"] for event in polled.json()["events"]] == [5]
    assert took < 0.5 + BOUND


def test_a_move_through_either_api_server_reaches_the_streams_of_both_stream_tiers(
    servers: Servers,
) -> None:
    """Beyond one machine (docs/SCALING.md), on loopback: two API servers (`main`, `other`)
    and two stream tier servers (`tier`, `other_tier`) on one database. The moves go through
    either API server in turn; every stream on either tier shows each within the bound, and
    in the end every event once, in order. On PostgreSQL the tiers hear of a move by its
    notification (`other_tier` polls every 30 s)."""
    actions, states = engine_game(SEATS, seed=15)
    apis = [
        httpx.Client(base_url=server.url, timeout=30) for server in (servers.main, servers.other)
    ]
    table = start_game(apis[0], SEATS, seed=15)
    last = states[12].version
    followers = [
        Follower(tier.url, table.game_id, token, until=last)
        for tier in (servers.tier, servers.other_tier)
        for token in table.viewers
    ]
    for follower in followers:
        follower.start()
        follower.wait_version(states[0].version, timeout=10)
    time.sleep(1.0)  # each tier's listener connects at its first stream
    delays = []
    for turn, ((seat, action), state) in enumerate(zip(actions[:12], states[1:13], strict=True)):
        act(apis[turn % 2], table.game_id, table.tokens[seat], action)
        answered = time.monotonic()
        delays.append(max(f.wait_version(state.version, 10) for f in followers) - answered)
    for api in apis:
        api.close()
    assert max(delays) < BOUND, sorted(round(delay * 1000) for delay in delays)
    for follower in followers:
        assert [frame.id for c in follower.finish() for frame in c.kept()] == list(
            range(1, last + 1)
        )
