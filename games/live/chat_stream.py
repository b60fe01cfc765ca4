"""A game's chat on its stream: `chat` frames for the rooms the stream's viewer may read, their
ids the cursor that resumes both the game's log and its chat (`games.core.cursors`): a client
that sends back what it last received (`Last-Event-ID`, or `?after=`) resumes both.

The chat is read as the log is: once per game and point by the hub's reader threads, shared by
every stream there; each stream then keeps the messages of its viewer's rooms. A message of a
room the viewer may not read is passed over (the cursor moves on), never sent.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

import play
from games.core.cursors import Cursor
from games.core.cursors import parse_cursor as parse_cursor  # the stream's place, re-exported
from games.live.fanout import hub
from games.live.sse import frame

#: Messages read at once (a stream with more to catch up on reads on at once).
CHAT_BATCH = 100
#: Seconds a read of a seat's mutes serves that seat's streams.
MUTES_FRESH_SECONDS = 1.0


@dataclass(frozen=True)
class ChatBatch:
    """A viewer's chat frames after message `after`, and `upto`, the last message looked at."""

    frames: bytes
    upto: int


def chat_batch(game_id: uuid.UUID, seat: int | None, ended: bool, at: Cursor) -> ChatBatch:
    """The messages after `at.chat` in the rooms `seat` may read (a spectator: the players'
    room too once the game has `ended`) less those it muted, as `chat` frames whose ids carry
    `at.events`; the message data as `GET /chat` lists it, nothing of anyone's view."""
    known = hub.known_chat(game_id)
    read = hub.shared_read((game_id, "chat", at.chat, known), lambda: _read_chat(game_id, at.chat))
    if not read:
        return ChatBatch(b"", at.chat)
    rooms = _rooms(game_id, seat, ended, known)
    shown = [message for message in read if message["room"] in rooms]
    chunks = [frame("chat", m, Cursor(at.events, m["sequence"]).frame_id) for m in shown]
    return ChatBatch(b"".join(chunks), read[-1]["sequence"])


def _read_chat(game_id: uuid.UUID, after: int) -> list[dict[str, Any]]:
    """Every room's messages after `after` (a batch of them), the hub told of the last one
    it saw."""
    read = play.messages_after(game_id, after, CHAT_BATCH + 1)
    if read:  # one past the batch, if any: the stream reads on without waiting
        hub.publish_chat(game_id, read[-1]["sequence"])
    return read[:CHAT_BATCH]


def _rooms(game_id: uuid.UUID, seat: int | None, ended: bool, known: int) -> list[str]:
    """The rooms `seat` is sent: those it may read, less those it muted (read at most once a
    second per seat and chat point, on a reader thread: a waiting stream holds no
    connection)."""
    readable = play.readable_rooms(seat, ended)
    if seat is None:
        return readable
    key = (game_id, "mutes", seat, known)
    muted = hub.shared_read(key, lambda: play.muted_rooms(game_id, seat), MUTES_FRESH_SECONDS)
    return [room for room in readable if room not in muted]
