"""A stream resumed after any event of a finished game, by `Last-Event-ID` (what an
EventSource sends when it reconnects) or by `?after=`, gives the rest of the log exactly once,
then the viewer's view, then ends. (Resuming a live game at every point is in
test_stream_games: its `chop` followers.)"""

from __future__ import annotations

import httpx

from .support import Table, feed, get_view, whole_stream


def test_resuming_after_any_event_gives_the_rest_once(
    client: httpx.Client, streams: httpx.Client, finished_table: Table
) -> None:
    game_id, seat = finished_table.game_id, finished_table.tokens[0]
    events = feed(client, game_id, None)  # a finished game's: the same for every viewer
    final = max(events)
    views = [get_view(client, game_id, None), get_view(client, game_id, seat)]
    for point in range(final + 2):  # from before the first event to past the last
        resumed = [
            whole_stream(streams, game_id, None, last_event_id=point),
            whole_stream(streams, game_id, seat, after=point),
        ]
        for connection, view in zip(resumed, views, strict=True):
            rest = range(point + 1, final + 1)
            assert [frame.id for frame in connection.events()] == list(rest)
            assert [frame.data for frame in connection.events()] == [events[s] for s in rest]
            assert [frame.data for frame in connection.frames[len(rest) :]] == [view]


def test_last_event_id_wins_over_after(streams: httpx.Client, finished_table: Table) -> None:
    resumed = whole_stream(streams, finished_table.game_id, None, last_event_id=5, after=1)
    assert [frame.id for frame in resumed.events()][:2] == [6, 7]
