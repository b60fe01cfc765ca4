"""The stream tier's channels (games.live.astreams), on an event loop of the test's own: each
piece of news advances every stream of the game in one call, and a stream whose client stops
reading is dropped once `LIVE_QUEUE_LIMIT` steps wait for it, its memory bounded, while the
others go on. The steps themselves are the streams' (`streams.step`, tested against real
servers in tests/live); here a stand-in makes them, so no database is needed."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from django.test import override_settings

from games.core.cursors import Cursor
from games.live import astreams
from games.live.fanout import hub
from games.live.streams import Step, Viewer

LIMIT = 4


@pytest.fixture
def stand_in_steps(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Steps to each stream's known version, one call per piece of news (counted); the hub
    without its poll and listener threads."""
    calls: list[int] = []

    def steps(game_id: uuid.UUID, places: list[tuple[Viewer, Cursor, bool]]) -> list[Step]:
        calls.append(len(places))
        version = hub.known_version(game_id)
        return [Step(b"v%d;" % version, Cursor(version), False) for _ in places]

    monkeypatch.setattr(astreams, "_steps", steps)
    monkeypatch.setattr(hub, "_start_once", lambda: None)
    yield calls


@override_settings(LIVE_QUEUE_LIMIT=LIMIT)
def test_a_stream_that_stops_reading_is_dropped_and_the_others_go_on(
    stand_in_steps: list[int],
) -> None:
    async def scenario() -> tuple[list[bytes], astreams.Subscriber, set[astreams.Subscriber]]:
        game = SimpleNamespace(id=uuid.uuid4(), version=1)
        reading, stalled = (
            astreams.Subscriber(Viewer(), Cursor()),
            astreams.Subscriber(Viewer(), Cursor()),
        )
        channels = astreams.channels()
        read: list[bytes] = []
        async with channels.subscribed(game, reading), channels.subscribed(game, stalled):  # type: ignore[arg-type]
            read.append((await reading.next_step(5)).frames)  # type: ignore[union-attr]
            for version in range(2, LIMIT + 4):
                hub.publish(game.id, version)
                read.append((await reading.next_step(5)).frames)  # type: ignore[union-attr]
            left = set(channels.by_game[game.id].subscribers)
        return read, stalled, left

    read, stalled, left = asyncio.run(scenario())
    assert read == [b"v1;", *(b"v%d;" % version for version in range(2, LIMIT + 4))]
    waiting = [stalled.steps.get_nowait() for _ in range(stalled.steps.qsize())]
    assert len(waiting) == LIMIT + 1  # LIMIT steps, then the end
    assert waiting[-1].ended and not any(step.ended for step in waiting[:-1])
    assert len(left) == 1  # the stalled stream left the channel; the reading one stayed
    assert max(stand_in_steps) == 2 and len(stand_in_steps) >= LIMIT + 2  # one call per news
