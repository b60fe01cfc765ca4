"""A stream's catch-up is bounded: `other` (LIVE_STREAM_BACKLOG=20) starts a stream at most 20
events before the game's version, with a `skipped` frame first that names the events it left
out and where `/events` pages them; a start within the backlog sends everything after it."""

from __future__ import annotations

import httpx
import pytest

from .conftest import Tiers
from .support import Table, whole_stream

BACKLOG = 20


def finished_version(client: httpx.Client, table: Table) -> int:
    version: int = client.get(f"/api/v1/games/{table.game_id}").json()["version"]
    return version


@pytest.mark.parametrize("resume", [None, 0, 3])
def test_a_stream_far_behind_starts_a_backlog_before_the_end(
    client: httpx.Client, tiers: Tiers, finished_table: Table, resume: int | None
) -> None:
    version = finished_version(client, finished_table)
    with httpx.Client(base_url=tiers.other, timeout=30) as other:
        assert version > BACKLOG + 3
        stream = whole_stream(other, finished_table.game_id, last_event_id=resume)
    after = resume or 0
    skipped, *rest = stream.frames
    assert skipped.event == "skipped"
    assert skipped.data == {
        "first": after + 1,
        "last": version - BACKLOG,
        "events": f"/api/v1/games/{finished_table.game_id}/events?after={after}",
    }
    assert [frame.id for frame in stream.events()[1:]] == list(range(version - 19, version + 1))
    assert rest[-1].event == "view" and rest[-1].data["version"] == version


def test_a_stream_within_the_backlog_sends_every_event_after_its_start(
    client: httpx.Client, tiers: Tiers, finished_table: Table
) -> None:
    version = finished_version(client, finished_table)
    with httpx.Client(base_url=tiers.other, timeout=30) as other:
        stream = whole_stream(other, finished_table.game_id, after=version - 5)
    assert [frame.event for frame in stream.frames][-1] == "view"
    assert [frame.id for frame in stream.events()] == list(range(version - 4, version + 1))
