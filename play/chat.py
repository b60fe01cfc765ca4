"""Each game's chat: two rooms, the players' and the spectators', in one append-only log of
its own per game (`ChatMessage`, numbered 1, 2, 3... across both rooms), never the game's:
histories, replays and audits do not see it.

Who reads: the players' room, the game's seats (everyone once the game is over); the
spectators' room, everyone. Who writes: a seat in both rooms, under its seat's name; anyone
else with an account in the spectators' room, under their handle. A seat may mute a room for
itself (`ChatMute`): its reads leave the room out, and it may not write there until it
unmutes. Limits per sender and game are counted from the log itself.

A writer holds the game's chat lock (PostgreSQL: a transaction's advisory lock; SQLite's
writers take turns anyway) while it counts its sender's messages and numbers its own after
the game's last: so one sender writing from many connections at once cannot pass its limits,
and the writers of a game take turns. The unique (game, sequence) index is the last guard (a
writer that lost its number tries again): the messages of a game commit in the order of their
numbers, and a reader resuming after N misses none. Once committed, `chat_written` tells this
process's push (connected in `games.apps`); on PostgreSQL a notification on `CHAT_CHANNEL`
tells the other processes.
"""

from __future__ import annotations

import math
import unicodedata
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import django.dispatch
from django.conf import settings
from django.db import IntegrityError, connections, router, transaction
from django.db.models import Max, Q

from accounts.credentials import AccountCredential, account_seat_hash
from accounts.errors import MissingScope
from games import core
from games.core import clock
from games.core.errors import ConcurrentUpdate, InvalidRequest
from games.core.resources import iso_time
from games.core.tokens import Credential
from games.models import Game, Seat
from play.errors import (
    ChatAccountRequired,
    ChatLimitReached,
    ChatRoomForbidden,
    ChatThrottled,
    RoomMuted,
)
from play.models import ChatMessage, ChatMute, Room

#: A message's length, in characters (code points) once normalized.
MAX_TEXT = 280
#: Messages a read answers unless it asks for fewer, and at most.
PAGE = 100
MAX_PAGE = 500
#: Tries of a write that lost its number to a concurrent writer.
ATTEMPTS = 10
#: What a personal token needs to write, and (either) to read or mute as its account's seat (a
#: token with neither reads as an anonymous spectator).
WRITE_SCOPE = "chat:write"
READ_SCOPES = ("chat:write", "play")
#: PostgreSQL's channel for `<game id> <sequence>` once a message commits (the other processes).
CHAT_CHANNEL = "skyjo_chat"
#: Sent once a message commits, with `game_id` and `sequence`.
chat_written = django.dispatch.Signal()

ROOMS: tuple[str, ...] = tuple(Room.values)
#: Besides Unicode's control, surrogate and line or paragraph separator characters: the
#: bidirectional embeddings, overrides and isolates, which make a text read otherwise.
_BIDI_CONTROLS = frozenset(chr(point) for point in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)])
_REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})


@dataclass(frozen=True)
class Speaker:
    """Who reads or writes a game's chat: a seat of `game` (None: a spectator), and the
    account behind the credential, if any (a seat's, or a spectator's)."""

    game: Game
    seat: int | None
    account_id: int | None = None
    handle: str | None = None


def speaker(game_id: object, credential: Credential | None, *scopes: str) -> Speaker:
    """The game (404) and who `credential` is in it: a seat token's seat (401 if it holds
    none), an account's seat if it holds one (its token needing one of `scopes`: 403
    `missing_scope`), else a spectator."""
    if isinstance(credential, AccountCredential):
        if not credential.holds_any(*scopes):
            raise MissingScope(scopes[0])
        game, _ = core.game_and_seat(game_id, None, required=False)
        seat = _account_seat(game.id, credential.account_id)
        return Speaker(game, seat, credential.account_id, credential.handle)
    game, seat = core.game_and_seat(game_id, credential, required=False)
    return Speaker(game, seat)


def _account_seat(game_id: uuid.UUID, account_id: int) -> int | None:
    """The seat the account holds in the game now (as its tokens would act for), if any."""
    held = Seat.objects.filter(game_id=game_id, token_hash=account_seat_hash(account_id, game_id))
    seat: int | None = held.values_list("seat", flat=True).first()
    return seat


def readable_rooms(seat: int | None, ended: bool) -> list[str]:
    """The rooms a viewer may read: a seat both; anyone else the spectators', and the
    players' too once the game has `ended` (finished or canceled)."""
    if seat is not None or ended:
        return list(ROOMS)
    return [str(Room.SPECTATORS)]


def muted_rooms(game_id: uuid.UUID, seat: int | None) -> list[str]:
    """The rooms the seat muted for itself (none for a spectator)."""
    if seat is None:
        return []
    mutes = ChatMute.objects.filter(game_id=game_id, seat=seat).order_by("room")
    return list(mutes.values_list("room", flat=True))


# Reading


def read_messages(
    game_id: object,
    credential: Credential | None,
    *,
    room: str | None = None,
    after: int = 0,
    limit: int = PAGE,
) -> dict[str, Any]:
    """The messages after `after`, oldest first, at most `limit`, of `room` or of every room
    the caller may read (less those its seat muted, listed in `muted`). Naming a room it may
    not read is refused (403 `chat_room_forbidden`)."""
    reader = _reader(game_id, credential)
    readable = readable_rooms(reader.seat, reader.game.ended)
    if room is not None and room not in readable:
        raise ChatRoomForbidden(
            "The players' room is read by the game's seats until the game is over."
        )
    muted = muted_rooms(reader.game.id, reader.seat)
    rooms = [name for name in ([room] if room else readable) if name not in muted]
    found = messages_after(reader.game.id, after, limit, rooms)
    return {"messages": found, "muted": muted}


def _reader(game_id: object, credential: Credential | None) -> Speaker:
    """Who reads: as `speaker` says; a personal token with neither of `READ_SCOPES` reads as
    anyone may without a token (an anonymous spectator): it may not act for its account's
    seat, but what everyone reads is not kept from it."""
    if isinstance(credential, AccountCredential) and not credential.holds_any(*READ_SCOPES):
        credential = None
    return speaker(game_id, credential, *READ_SCOPES)


def messages_after(
    game_id: uuid.UUID, after: int, limit: int, rooms: Iterable[str] = ROOMS
) -> list[dict[str, Any]]:
    """The game's messages in `rooms` after number `after`, oldest first, at most `limit`,
    each as the API shows it (`message_data`)."""
    rows = ChatMessage.objects.filter(game_id=game_id, sequence__gt=after, room__in=list(rooms))
    rows = rows.select_related("account").order_by("sequence")
    return [message_data(message) for message in rows[:limit]]


def recent_messages(game_id: uuid.UUID, rooms: Iterable[str], limit: int) -> list[dict[str, Any]]:
    """The game's last `limit` messages in `rooms`, oldest first (what a page shows)."""
    rows = ChatMessage.objects.filter(game_id=game_id, room__in=list(rooms))
    latest = list(rows.select_related("account").order_by("-sequence")[:limit])
    return [message_data(message) for message in reversed(latest)]


def message_data(message: ChatMessage) -> dict[str, Any]:
    """A message as every reader sees it: nothing of any seat's view, ever."""
    account = message.account
    return {
        "sequence": message.sequence,
        "room": message.room,
        "name": message.name,
        "account": None if account is None else account.handle,
        "text": message.text,
        "at": iso_time(message.created_at),
    }


def last_sequence(game_id: uuid.UUID) -> int:
    """The number of the game's last message (0: none yet)."""
    rows = ChatMessage.objects.filter(game_id=game_id).order_by("-sequence")
    return rows.values_list("sequence", flat=True).first() or 0


def last_sequences(game_ids: list[uuid.UUID]) -> dict[uuid.UUID, int]:
    """The number of each game's last message, for those that have one (one query)."""
    if not game_ids:
        return {}
    rows = ChatMessage.objects.filter(game_id__in=game_ids).values("game_id")
    return {row["game_id"]: row["last"] for row in rows.annotate(last=Max("sequence"))}


# Writing


def writer(game_id: object, credential: Credential | None) -> Speaker:
    """Who writes: a seat (its token, or its account's with `chat:write`), or a spectator's
    account (`chat:write`); a spectator without one is refused (401
    `account_token_required`)."""
    if credential is None:
        core.game_and_seat(game_id, None, required=False)  # an unknown game's 404 first
        raise ChatAccountRequired()
    return speaker(game_id, credential, WRITE_SCOPE)


def post_message(author: Speaker, room: str, text: str) -> dict[str, Any]:
    """Write `text` (normalized: `clean_text`) in `room` as `author` (`writer`), in one
    transaction holding the game's chat lock: the room checked, the sender's limits counted,
    the message numbered after the game's last; answers it as readers see it."""
    cleaned = clean_text(text)
    _may_write(author, room)
    with transaction.atomic(using=router.db_for_write(ChatMessage)):
        _lock_chat(author.game.id)
        _within_limits(author)
        message = _append(author, room, cleaned)
    return message_data(message)


def clean_text(text: str) -> str:
    """The text NFC-normalized, the spaces around it removed: 1 to `MAX_TEXT` characters,
    none of them a control character (400 `invalid_request` naming `text`)."""
    cleaned = unicodedata.normalize("NFC", text).strip()
    if any(_refused(char) for char in cleaned):
        _invalid_text("Control characters (line breaks, tabs, direction overrides...) are refused.")
    if not 1 <= len(cleaned) <= MAX_TEXT:
        _invalid_text(f"Write 1 to {MAX_TEXT} characters (spaces around are not counted).")
    return cleaned


def _refused(char: str) -> bool:
    return unicodedata.category(char) in _REFUSED_CATEGORIES or char in _BIDI_CONTROLS


def _invalid_text(message: str) -> None:
    raise InvalidRequest(f"The text is not valid: {message}", errors={"text": [message]})


def _may_write(author: Speaker, room: str) -> None:
    """The players' room is the seats' (403); a room the seat muted is closed to it (409)."""
    if room == Room.PLAYERS and author.seat is None:
        raise ChatRoomForbidden("Only the game's seats write in the players' room.")
    if room in muted_rooms(author.game.id, author.seat):
        raise RoomMuted(room)


def _sent_by(author: Speaker) -> Q:
    """The author's messages in the game: its seat's, or its account's as a spectator."""
    if author.seat is not None:
        return Q(game_id=author.game.id, seat=author.seat)
    return Q(game_id=author.game.id, seat__isnull=True, account_id=author.account_id)


def _within_limits(author: Speaker) -> None:
    """At most `SKYJO_CHAT_MAX_PER_GAME` messages a sender in a game (429
    `chat_limit_reached`), and `SKYJO_CHAT_BURST` in any `SKYJO_CHAT_BURST_SECONDS` (429
    `throttled`, with the seconds until the oldest of them ages out)."""
    sent = ChatMessage.objects.filter(_sent_by(author))
    if sent.count() >= settings.SKYJO_CHAT_MAX_PER_GAME:
        raise ChatLimitReached(settings.SKYJO_CHAT_MAX_PER_GAME)
    now, window = clock.now(), timedelta(seconds=settings.SKYJO_CHAT_BURST_SECONDS)
    burst = settings.SKYJO_CHAT_BURST
    recent = sent.filter(created_at__gt=now - window).order_by("-created_at")
    times: list[datetime] = list(recent.values_list("created_at", flat=True)[:burst])
    if len(times) >= burst:
        raise ChatThrottled(max(1, math.ceil((times[-1] + window - now).total_seconds())))


def _append(author: Speaker, room: str, text: str) -> ChatMessage:
    """Insert the message at the game's next number (the caller holds the game's chat lock),
    again should it lose that number all the same (the unique index, the last guard); told on
    commit."""
    for _ in range(ATTEMPTS):
        try:
            with transaction.atomic(using=router.db_for_write(ChatMessage)):
                message = ChatMessage.objects.create(
                    game_id=author.game.id,
                    sequence=last_sequence(author.game.id) + 1,
                    room=room,
                    name=_signature(author),
                    account_id=author.account_id,
                    seat=author.seat,
                    text=text,
                )
        except IntegrityError:
            continue
        _announce(message)
        return message
    raise ConcurrentUpdate()


#: The advisory locks' first key for a game's chat ("CHAT"); the second is from the game's id.
_CHAT_LOCKS = 0x43484154


def _lock_chat(game_id: uuid.UUID) -> None:
    """Hold the game's chat lock until the transaction ends (PostgreSQL; nothing to do on
    SQLite, whose writers take turns). Games whose ids share a key only take turns too."""
    connection = connections[router.db_for_write(ChatMessage)]
    if connection.vendor != "postgresql":
        return
    key = int.from_bytes(game_id.bytes[:4], "big", signed=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_CHAT_LOCKS, key])


def _signature(author: Speaker) -> str:
    """What a message is signed with: the seat's name, else the account's handle."""
    if author.seat is None:
        return str(author.handle)
    seats = Seat.objects.filter(game_id=author.game.id, seat=author.seat)
    return str(seats.values_list("name", flat=True).get())


def _announce(message: ChatMessage) -> None:
    """Once the transaction commits, this process's streams hear of the message
    (`chat_written`), and on PostgreSQL the other processes (`CHAT_CHANNEL`)."""
    alias = router.db_for_write(ChatMessage)
    connection = connections[alias]
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            payload = f"{message.game_id} {message.sequence}"
            cursor.execute("SELECT pg_notify(%s, %s)", [CHAT_CHANNEL, payload])
    send = partial(
        chat_written.send, ChatMessage, game_id=message.game_id, sequence=message.sequence
    )
    transaction.on_commit(send, using=alias)


# Mutes


def mute_room(game_id: object, credential: Credential | None, room: str) -> None:
    """The seat of `credential` stops reading `room` (and may not write there); already
    muted, nothing changes."""
    muter = _seat_speaker(game_id, credential)
    mute = ChatMute(game_id=muter.game.id, seat=muter.seat, room=room)
    ChatMute.objects.bulk_create([mute], ignore_conflicts=True)


def unmute_room(game_id: object, credential: Credential | None, room: str) -> None:
    """The seat of `credential` reads `room` again; not muted, nothing changes."""
    muter = _seat_speaker(game_id, credential)
    ChatMute.objects.filter(game_id=muter.game.id, seat=muter.seat, room=room).delete()


def _seat_speaker(game_id: object, credential: Credential | None) -> Speaker:
    """Only a seat mutes a room for itself (403 `chat_room_forbidden` for anyone else)."""
    muter = speaker(game_id, credential, *READ_SCOPES)
    if muter.seat is None:
        raise ChatRoomForbidden("Only a seat of the game mutes a room, for itself.")
    return muter
