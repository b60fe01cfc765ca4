"""A viewer's live stream of a game: the log's events as `/events` shows them to that viewer,
each followed by the viewer's new view, as Server-Sent Events frames.

Frames are read through the hub (`games.live`), once per game, version and viewer kind in this
process, and rendered once: every stream of that kind writes the same bytes.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Generator, Iterator
from dataclasses import dataclass

from django.conf import settings

from . import log, services
from .api.sse import comment, frame, retry
from .live import hub
from .models import Game, Status
from .presenters import event_feed, game_data


@dataclass(frozen=True)
class Batch:
    """What one viewer is sent after sequence `after`: the events' frames and, last, the
    view's; `upto` the last sequence it covers, `finished` whether the game was over."""

    events: int
    upto: int
    frames: bytes
    finished: bool


def read_batch(game_id: uuid.UUID, viewer: int | None, after: int) -> Batch:
    """The events after `after` up to the game's version as `viewer` may see them (a finished
    game hides nothing, as on `/events`), then the viewer's view (`GET /games/{id}`'s body)."""
    game = services.get_game(game_id)
    stored = log.events(game, after, upto=game.version)
    feed = event_feed(game, stored, viewer)["events"]
    view = game_data(game, services.game_state(game), viewer)
    hub.publish(game.id, game.version)
    chunks = [frame(item["type"], item, item["sequence"]) for item in feed]
    chunks.append(frame("view", view))
    upto = max(after, game.version)
    return Batch(len(feed), upto, b"".join(chunks), game.status == Status.FINISHED)


def shared_batch(game_id: uuid.UUID, viewer: int | None, after: int) -> Batch:
    """`read_batch`, read once for every stream of this viewer kind at the same point."""
    key = (game_id, viewer, after, hub.known_version(game_id))
    return hub.shared_read(key, lambda: read_batch(game_id, viewer, after))


def stream(game: Game, viewer: int | None, after: int) -> Iterator[bytes]:
    """The stream's bytes: `retry:`, then a batch (always with a view first, so a client
    knows at once whether it is to act), then a batch after every move, a comment when idle;
    it ends after the game's last event, after `LIVE_STREAM_SECONDS`, or when the process
    drains (the client reconnects with `Last-Event-ID`)."""
    with hub.streaming(), hub.watching(game.id, game.version):
        yield retry(settings.LIVE_RETRY_MS)
        deadline = time.monotonic() + settings.LIVE_STREAM_SECONDS
        cursor, first = after, True
        while True:
            batch = shared_batch(game.id, viewer, cursor)
            if batch.events or first:
                yield batch.frames
            cursor, first = batch.upto, False
            if batch.finished or not (yield from _waited(game.id, cursor, deadline)):
                return


def _waited(game_id: uuid.UUID, cursor: int, deadline: float) -> Generator[bytes, None, bool]:
    """Wait for a move past `cursor`, a comment every `LIVE_HEARTBEAT_SECONDS` meanwhile;
    False when the stream's time is up or the process drains."""
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or hub.draining.is_set():
            return False
        wait = min(settings.LIVE_HEARTBEAT_SECONDS, remaining)
        if hub.wait_beyond(game_id, cursor, wait) > cursor:
            return True
        yield comment("keep-alive")
