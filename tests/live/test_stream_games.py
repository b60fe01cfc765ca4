"""Whole games at 2, 4 and 8 seats followed on the stream by every viewer (each seat and a
spectator), while engine players play them over HTTP: each viewer's frames are its `/events`
and its `GET /games/{id}`, every event exactly once across the reconnections that the
server's short stream time forces, and again when the stream is opened after the game.

The stream's events are read when the stream gets to them, and a finished game hides nothing:
so an event is compared with `/events` as read during the game (just before the last action),
unless the view that closes its batch says the game was finished when it was read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from engine import view
from tests.api.support import IDENTITY

from .conftest import MAIN, Servers, Tiers
from .support import (
    Connection,
    Follower,
    Frame,
    Table,
    View,
    act,
    engine_game,
    feed,
    get_view,
    kept_events,
    start_game,
)

RETRY_MS = int(MAIN["LIVE_RETRY_MS"])
END_SCORE = 1  # one round
#: Games of up to this many seats read every seat's view after every action.
EVERY_VIEW_READ = 4
Events = dict[int, dict[str, Any]]


@pytest.mark.parametrize(("seats", "seed"), [(2, 3), (4, 2), (8, 1)])
def test_every_viewer_streams_its_feed_and_its_views(
    servers: Servers, tiers: Tiers, seats: int, seed: int
) -> None:
    url = tiers.main
    with httpx.Client(base_url=servers.main.url, timeout=30) as client:
        table = start_game(client, seats, seed, END_SCORE)
        followers = [Follower(url, table.game_id, token) for token in table.viewers]
        if seats == 2:  # resumed at every point of the live game, by seat and spectator
            followers += [Follower(url, table.game_id, t, chop=True) for t in table.viewers[:2]]
        for follower in followers:
            follower.start()
        played = play(client, table, seats, seed)
        during, after, views = played.during, played.after, played.views
        final = max(after[0])
        for follower in followers:
            viewer = table.viewers.index(follower.token)
            connections = follower.finish()
            check_stream(connections, during[viewer], after[viewer], views[viewer])
            assert [frame.id for frame in kept_events(connections)] == list(range(1, final + 1))
            if follower.chop:
                assert len(connections) >= final  # resumed after every event
        # After the game: the whole feed at once, one view, and the end.
        for viewer, token in enumerate(table.viewers):
            connections = Follower(url, table.game_id, token).read_all()
            assert len(connections) == 1
            check_stream(connections, {}, after[viewer], views[viewer])
            assert [frame.data for frame in connections[0].events()] == list(after[viewer].values())


@dataclass
class Played:
    """What each viewer (0: the spectator, then each seat) was shown: its `/events` read just
    before the last action and after it, and its view at every version."""

    during: list[Events]
    after: list[Events]
    views: list[dict[int, View]]


def play(client: httpx.Client, table: Table, seats: int, seed: int) -> Played:
    """Play the game, keeping each viewer's view (`GET /games/{id}`'s body) at every version:
    the game's identity (as the spectator's GET shows it then) and the engine's view for that
    viewer, checked at every version against every GET read: the spectator's, the actor's
    (the action's answer) and, up to `EVERY_VIEW_READ` seats, every seat's (in the 8-seat
    game, reading them all would take most of the test's time)."""
    actions, states = engine_game(seats, seed, END_SCORE)
    views: list[dict[int, View]] = [{} for _ in table.viewers]
    during: list[Events] = []
    answer: View | None = None
    for index, state in enumerate(states):
        if index == len(actions):
            during = [feed(client, table.game_id, token) for token in table.viewers]
        if index:
            seat, action = actions[index - 1]
            answer = act(client, table.game_id, table.tokens[seat], action)
        served = read_views(client, table, answer)
        identity = {key: served[0][key] for key in IDENTITY}
        for viewer, seat in enumerate([None, *range(seats)]):
            views[viewer][state.version] = {**identity, **view(state, seat).to_data()}
            assert served.get(viewer, views[viewer][state.version]) == views[viewer][state.version]
    after = [feed(client, table.game_id, token) for token in table.viewers]
    return Played(during, after, views)


def read_views(client: httpx.Client, table: Table, answer: View | None) -> dict[int, View]:
    """The views read now, by viewer: the spectator's, the actor's answer, and every seat's
    in games of up to `EVERY_VIEW_READ` seats."""
    served = {0: get_view(client, table.game_id, None)}
    if len(table.tokens) <= EVERY_VIEW_READ:
        served |= {s + 1: get_view(client, table.game_id, t) for s, t in enumerate(table.tokens)}
    if answer is not None:
        assert served.setdefault(answer["you"] + 1, answer) == answer
    return served


def check_stream(
    connections: list[Connection], during: Events, after: Events, views: dict[int, View]
) -> None:
    """Each connection starts with `retry:`; then batches: the events after the last one
    covered, in order, then the view at the version they reach, as `GET /games/{id}` showed
    it then; each event as `/events` showed it (during or after the game, as the batch's view
    says); the last connection ends, after the finished game's view."""
    for connection in connections:
        assert connection.retry == RETRY_MS
        cursor = connection.resumed_after or 0
        batch: list[Frame] = []
        for frame in connection.frames:
            if frame.event != "view":
                assert frame.event == frame.data["type"] and frame.id == frame.data["sequence"]
                batch.append(frame)
                continue
            view = frame.data
            assert view == views.get(view["version"]), f"view at version {view['version']}"
            reference = after if view["status"] == "finished" else during
            assert [f.data for f in batch] == [reference[f.id] for f in batch if f.id]
            assert [f.id for f in batch] == list(range(cursor + 1, view["version"] + 1))
            cursor, batch = max(cursor, view["version"]), []
        assert not batch, "events without the view that closes their batch"
    last = connections[-1]
    assert last.closed_by_server and last.frames[-1].data["status"] == "finished"
    assert all(c.closed_by_server for c in connections if c.kept_upto is None)
