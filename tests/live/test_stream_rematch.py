"""A finished game's stream ends with its rematch: once one of its players has asked for it, a
`rematch` frame (no `id`) is the last frame of every stream of the game, on reconnection too;
before, the stream ends with the view as it always did."""

from __future__ import annotations

import time

import httpx

from games.live.streams import REMATCH_FRESH_SECONDS
from tests.api.support import engine_actions

from .support import GAMES, act, bearer, raw_stream, start_game, whole_stream


def test_the_stream_of_a_finished_game_ends_with_its_rematch(
    client: httpx.Client, streams: httpx.Client
) -> None:
    table = start_game(client, 2, seed=5)
    for seat, action in engine_actions(2, 5, end_score=1):
        act(client, table.game_id, table.tokens[seat], action)
    before = whole_stream(streams, table.game_id, table.tokens[0])
    assert before.closed_by_server and before.frames[-1].event == "view"
    assert "rematch" not in [frame.event for frame in before.frames]
    version = before.frames[-1].data["version"]

    time.sleep(REMATCH_FRESH_SECONDS)  # the look-up that found none serves no more streams
    asked = client.post(f"{GAMES}/{table.game_id}/rematch", headers=bearer(table.tokens[1]))
    assert asked.status_code == 201, asked.text
    new_id = asked.json()["game"]

    for token in (None, *table.tokens):  # every viewer, from the start
        stream = whole_stream(streams, table.game_id, token)
        last = stream.frames[-1]
        assert (last.event, last.id, last.data) == ("rematch", None, {"game": new_id})
        assert [frame.event for frame in stream.frames].count("rematch") == 1
        assert stream.frames[-2].event == "view"
    resumed = whole_stream(streams, table.game_id, last_event_id=version)  # a reconnection
    assert [frame.event for frame in resumed.frames] == ["view", "rematch"]
    assert resumed.frames[0].data["rematch"] == {"game": new_id}  # the view says so too
    with raw_stream(streams, table.game_id, **{"Last-Event-ID": str(version)}) as raw:
        raw.read()
    assert raw.frames()[-1] == {"event": "rematch", "data": f'{{"game":"{new_id}"}}'}
