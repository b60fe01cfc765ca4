"""What a stream is on the wire (on `main`: a comment every 0.5 s when idle, streams of 3 s,
`retry: 250`): its headers, `retry:` first, comments while nothing happens, a clean end (the
chunked body completed) after its time, and right after a finished game's last event."""

from __future__ import annotations

import time
from itertools import pairwise

import httpx

from .conftest import MAIN
from .support import Table, raw_stream, start_game

HEARTBEAT = float(MAIN["LIVE_HEARTBEAT_SECONDS"])
LIFETIME = float(MAIN["LIVE_STREAM_SECONDS"])
#: Allowance for a busy machine (two cores shared with other work).
SLACK = 2.0


def test_headers_then_retry_first_then_the_events_and_a_view(
    client: httpx.Client, streams: httpx.Client
) -> None:
    table = start_game(client, 2, seed=5)
    with raw_stream(streams, table.game_id, table.tokens[0]) as stream:
        assert stream.response.status_code == 200
        headers = stream.response.headers
        assert headers["Content-Type"].split(";")[0] == "text/event-stream"
        assert headers["Cache-Control"] == "no-cache"
        assert headers["X-Accel-Buffering"] == "no"
        stream.read(until=lambda block: block.startswith("event: view"))
    frames = stream.frames()
    assert frames[0] == {"retry": MAIN["LIVE_RETRY_MS"]}
    kinds = ["GameCreated", "PlayerJoined", "PlayerJoined", "RoundDealt", "view"]
    assert [frame.get("event") for frame in frames[1:]] == kinds
    assert [frame.get("id") for frame in frames[1:]] == ["1", "2", "3", "4", None]


def test_an_idle_stream_sends_comments_and_ends_cleanly_after_its_time(
    client: httpx.Client,
    streams: httpx.Client,
) -> None:
    table = start_game(client, 2, seed=6)
    began = time.monotonic()
    with raw_stream(streams, table.game_id) as stream:
        stream.read()  # to the end: httpx raises if the chunked body is cut short
    lasted = time.monotonic() - began
    assert LIFETIME <= lasted < LIFETIME + SLACK
    assert stream.response.is_stream_consumed
    comments = [
        at for block, at in zip(stream.blocks, stream.times, strict=True) if block.startswith(":")
    ]
    assert stream.blocks[-1] == ": keep-alive"
    assert len(comments) >= LIFETIME / HEARTBEAT - 2
    gaps = [later - earlier for earlier, later in pairwise(stream.times)]
    assert max(gaps) < HEARTBEAT + SLACK / 2


def test_a_finished_game_s_stream_ends_after_its_last_event(
    streams: httpx.Client, finished_table: Table
) -> None:
    began = time.monotonic()
    with raw_stream(streams, finished_table.game_id) as stream:
        stream.read()
    assert time.monotonic() - began < LIFETIME
    frames = stream.frames()
    assert len(frames) == len(stream.blocks)  # no comment: it never waited
    assert frames[-1]["event"] == "view" and '"status":"finished"' in frames[-1]["data"]
    assert frames[-2]["event"] == "GameEnded"
