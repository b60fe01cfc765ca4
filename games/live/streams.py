"""A viewer's live stream of a game: the log's events as `/events` shows them to that viewer,
each followed by the viewer's new view, and the game's chat in the rooms the viewer may read
(`chat_stream`), as Server-Sent Events frames.

The log is read through the hub (`games.live`) once per game and version in this process, and
the frames rendered once per viewer kind: every stream of that kind writes the same bytes.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Generator, Iterator
from dataclasses import dataclass

from django.conf import settings

from accounts.credentials import AccountCredential
from engine.state import GameState
from games import core
from games.core import SeatBinding
from games.core.cursors import Cursor
from games.core.resources import event_feed, game_data, rematch_id
from games.live.chat_stream import chat_batch
from games.live.fanout import hub
from games.live.inbox_streams import CREDENTIAL_EVERY_SECONDS, still_valid
from games.live.sse import comment, frame, retry
from games.models import Game
from games.store import log
from games.store.log import StoredEvent

#: Seconds a read of the seats' bindings serves the streams that check against it: a token
#: rotated in that time may go unseen by a frame sent within it, never longer.
BINDINGS_FRESH_SECONDS = 1.0
#: Seconds a look-up of a finished game's rematch serves the streams of it that end (all of
#: them at once, at the game's end): a rematch asked for meanwhile is told to the streams
#: that end (or reconnect) after it.
REMATCH_FRESH_SECONDS = 0.25


@dataclass(frozen=True)
class Viewer:
    """Who a stream is for: a seat and the binding it started with, or a spectator (None);
    `account` the personal token it was opened with, if any (looked at again every
    half second: the stream ends once it is revoked)."""

    seat: int | None = None
    binding: SeatBinding | None = None
    account: AccountCredential | None = None


@dataclass(frozen=True)
class Batch:
    """What one viewer is sent after sequence `after`: the events' frames and, last, the
    view's; `upto` the last sequence it covers, `finished` whether the game was over."""

    events: int
    upto: int
    frames: bytes
    finished: bool


@dataclass(frozen=True)
class LogRead:
    """What every viewer's batch after sequence `after` is made from: the game row, its events
    after `after` up to its version, and its state at that version."""

    game: Game
    stored: list[StoredEvent]
    state: GameState


def read_log(game_id: uuid.UUID, after: int) -> LogRead:
    """The game's row (the store's one statement, as the views read it, not the ORM's
    costlier query), its events after `after` and its state (from its snapshot)."""
    game, _ = core.game_and_seat(game_id, None, required=False)
    stored = log.events(game, after, upto=game.version)
    return LogRead(game, stored, core.game_state(game))


def batch_for(read: LogRead, viewer: int | None, after: int, chat: int = 0) -> Batch:
    """The events of `read` as `viewer` may see them (a finished game hides nothing, as on
    `/events`), then the viewer's view (`GET /games/{id}`'s body); each event's id says the
    stream's place in the chat too (`chat`, the last message looked at)."""
    game = read.game
    feed = event_feed(game, read.stored, viewer)["events"]
    view = game_data(game, read.state, viewer)
    hub.publish(game.id, game.version)
    chunks = [frame(item["type"], item, Cursor(item["sequence"], chat).frame_id) for item in feed]
    chunks.append(frame("view", view))
    upto = max(after, game.version)
    return Batch(len(feed), upto, b"".join(chunks), game.ended)


def shared_batch(game_id: uuid.UUID, viewer: int | None, after: int, chat: int = 0) -> Batch:
    """What `viewer` is sent after sequence `after`: the log read once for every viewer at
    the same point (a move costs one read per process, not one per viewer kind:
    `bench_stream`), and the batch rendered once for every stream of this viewer kind (and
    place in the chat). Two shared reads in turn, never one inside the other (the reader
    threads could all be waiting for a read queued behind them)."""
    version = hub.known_version(game_id)
    read = hub.shared_read((game_id, after, version), lambda: read_log(game_id, after))
    key = (game_id, viewer, after, version, chat)
    return hub.shared_read(key, lambda: batch_for(read, viewer, after, chat))


@dataclass(frozen=True)
class Step:
    """What a stream sends next from `cursor` (nothing at all when nobody moved): the frames,
    where it then is, and whether it ends after them (the game's over, or the viewer's seat
    is no longer held as it was)."""

    frames: bytes
    cursor: Cursor
    ended: bool


def step(game_id: uuid.UUID, viewer: Viewer, cursor: Cursor, first: bool = False) -> Step:
    """A stream's next frames after `cursor`: the moves' batch (always on the `first` step:
    the view tells a client whether it is to act), then the chat's new messages, then, at a
    finished game's end, its rematch. The one way both tiers' streams advance (`stream`,
    and `astreams` on the stream tier)."""
    batch = shared_batch(game_id, viewer.seat, cursor.events, cursor.chat)
    if not still_held(game_id, viewer, batch.upto):
        return Step(b"", cursor, True)
    talk = chat_batch(game_id, viewer.seat, batch.finished, Cursor(batch.upto, cursor.chat))
    chunks = [batch.frames] if batch.events or first else []
    chunks.append(talk.frames)
    if batch.finished:
        chunks.extend(rematch_frames(game_id))
    return Step(b"".join(chunks), Cursor(batch.upto, talk.upto), batch.finished)


def opening(game: Game, after: Cursor) -> tuple[bytes, Cursor]:
    """What every stream sends before its first step (`retry:`, and a `skipped` frame if it
    was asked to start more than `LIVE_STREAM_BACKLOG` events back) and where it starts."""
    cursor = Cursor(backlog_start(game.version, after.events), after.chat)
    head = retry(settings.LIVE_RETRY_MS)
    if cursor.events > after.events:
        head += skipped_frame(game.id, after.events, cursor.events)
    return head, cursor


def stream(game: Game, viewer: Viewer, after: Cursor) -> Iterator[bytes]:
    """The stream's bytes on a thread of its own: `opening`, then a `step` at once (with a
    view first) and after every move or chat message, a comment when idle; it ends after the
    game's last event (a finished game's with its rematch's frame, if it has one), after
    `LIVE_STREAM_SECONDS`, when the process drains (the client reconnects with
    `Last-Event-ID`), or once the viewer's seat is no longer held as it was (`still_held`)."""
    with hub.watching(game.id, game.version):
        head, cursor = opening(game, after)
        yield head
        deadline = time.monotonic() + settings.LIVE_STREAM_SECONDS
        first = True
        while True:
            advanced = step(game.id, viewer, cursor, first)
            if advanced.frames:
                yield advanced.frames
            if advanced.ended:
                return
            cursor, first = advanced.cursor, False
            if not (yield from _waited(game.id, viewer, cursor, deadline)):
                return


def rematch_frames(game_id: uuid.UUID) -> Iterator[bytes]:
    """The last frame of an ended game's stream: its rematch, `{"game"}`, if one of its
    players asked for it (no `id`: no event of the log). One read for every stream of the
    game ending within `REMATCH_FRESH_SECONDS`."""
    key = (game_id, "rematch")
    found = hub.shared_read(key, lambda: _rematch_id(game_id), REMATCH_FRESH_SECONDS)
    if found is not None:
        yield frame("rematch", {"game": found})


def _rematch_id(game_id: uuid.UUID) -> str | None:
    """The ended game's rematch as it is now: its row read afresh (the store's one statement),
    then its rematch (`rematch_id`)."""
    game, _ = core.game_and_seat(game_id, None, required=False)
    return rematch_id(game)


def backlog_start(version: int, after: int) -> int:
    """Where a stream asked to start after `after` starts: at most `LIVE_STREAM_BACKLOG`
    events back, so one request never costs the whole log (`/events` pages the rest)."""
    return max(after, version - settings.LIVE_STREAM_BACKLOG)


def skipped_frame(game_id: uuid.UUID, after: int, cursor: int) -> bytes:
    """Events `after + 1` to `cursor` are not streamed: where to read them instead."""
    href = f"/api/v1/games/{game_id}/events?after={after}"
    return frame("skipped", {"first": after + 1, "last": cursor, "events": href})


def still_held(game_id: uuid.UUID, viewer: Viewer, version: int) -> bool:
    """Whether the viewer's seat is still held as when its stream began (same token, same
    bot or none): a rotated token, a seat left, taken by another or handed to a bot ends
    the stream before it sends anything more. The bindings are read after the game reached
    `version`, and at most once a second per game and version for every stream of it; a
    change seen there is looked at afresh before ending."""
    if viewer.seat is None:
        return True
    if viewer.account is not None and not still_valid(viewer.account):
        return False
    key = (game_id, "bindings", version)
    shared = hub.shared_read(key, lambda: core.seat_bindings(game_id), BINDINGS_FRESH_SECONDS)
    if shared.get(viewer.seat) == viewer.binding:
        return True
    return core.seat_bindings(game_id).get(viewer.seat) == viewer.binding


def _waited(
    game_id: uuid.UUID, viewer: Viewer, cursor: Cursor, deadline: float
) -> Generator[bytes, None, bool]:
    """Wait for a move or a message past `cursor`, a comment every `LIVE_HEARTBEAT_SECONDS`
    meanwhile; False when the stream's time is up, the process drains or (an account's token)
    the token is revoked, looked at every `CREDENTIAL_EVERY_SECONDS`."""
    heartbeat = settings.LIVE_HEARTBEAT_SECONDS
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or hub.draining.is_set():
            return False
        if viewer.account is None:
            wait = min(heartbeat, remaining)
        elif still_valid(viewer.account):
            wait = min(heartbeat, CREDENTIAL_EVERY_SECONDS, remaining)
        else:
            return False
        if hub.wait_for_news(game_id, cursor.events, cursor.chat, wait):
            return True
        yield comment("keep-alive")
