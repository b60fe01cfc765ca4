"""An account's stream: its inbox's entries as Server-Sent Events frames (`id:` the entry's
sequence), resumable after any of them, as a game's stream is (`streams`).

It waits on the hub under the inbox's key (`fanout.inbox_key`) and reads the entries through
the hub's reader threads, so a waiting stream holds no database connection. Its token is
looked at again at least every second (`accounts.credentials.resolve_hash`, itself fresh
within a second): a revoked token, or a deleted account, ends it within about a second. While
it is open it is its account's sign of presence (`Presence`): the account's searching seek
lives on (quick play, `play.seen`) and a laddered bot may be dealt ladder games
(`ratings.ladder.seen`), as long as the stream, or a long poll, is there.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Iterator
from typing import Any

from django.conf import settings

import play
from accounts import inbox
from accounts.credentials import AccountCredential, resolve_hash
from accounts.models import InboxEntry
from games import core
from games.core.resources import iso_time
from games.live.fanout import hub, inbox_key, release_connections
from games.live.sse import comment, frame, retry
from ratings import ladder

#: Seconds at most between two looks at the stream's token.
CREDENTIAL_EVERY_SECONDS = 0.5
#: Entries sent in one read (a stream far behind catches up read by read).
READ_LIMIT = 500


def entry_data(entry: InboxEntry) -> dict[str, Any]:
    """An entry as the stream's `data` and the long poll show it: its payload, with its
    `sequence`, `type` and the time `at` it was written."""
    return {
        **entry.payload,
        "sequence": entry.sequence,
        "type": entry.type,
        "at": iso_time(entry.created_at),
    }


def still_valid(credential: AccountCredential) -> bool:
    """Whether the stream's token still stands for its account (not revoked, the account
    not deleted), as this process learnt it within the last second."""
    found = resolve_hash(credential.token_hash)
    release_connections()
    return found is not None and found.account_id == credential.account_id


def start(credential: AccountCredential, after: int | None) -> tuple[int, bytes]:
    """Where a stream starts and what it sends first: after `after` and nothing, or (no
    `after`) at the inbox's end, with the `snapshot` of the account's unfinished games."""
    if after is not None:
        return after, b""
    end = inbox.last_sequence(credential.account_id)
    games = core.unfinished_games(credential.account_id)
    return end, frame("snapshot", {"sequence": end, "games": games})


def stream(credential: AccountCredential, after: int, first: bytes) -> Iterator[bytes]:
    """The stream's bytes: `retry:`, `first` (a snapshot, or nothing), every entry after
    `after` then each new one as it comes, a comment when idle; it ends after
    `LIVE_STREAM_SECONDS`, when the process drains (the client resumes with `Last-Event-ID`),
    or once its token stands for the account no more."""
    key = inbox_key(credential.account_id)
    presence = Presence(credential.account_id)
    with hub.watching(key, after):
        yield retry(settings.LIVE_RETRY_MS) + first
        deadline = time.monotonic() + settings.LIVE_STREAM_SECONDS
        cursor = after
        while still_valid(credential):
            chunk, cursor = _frames_after(credential.account_id, cursor)
            if chunk:
                yield chunk
            if not (yield from _waited(credential, cursor, deadline, presence)):
                return


class Presence:
    """An open stream's sign of its account's presence: its searching seek lives on
    (`play.seen`, one UPDATE), a laddered bot stays present for the ladder (`ladder.seen`),
    at most every `presence_every()` seconds."""

    def __init__(self, account_id: int) -> None:
        self.account_id = account_id
        self.due = 0.0  # at once

    def refresh_if_due(self) -> None:
        now = time.monotonic()
        if now < self.due:
            return
        self.due = now + presence_every()
        play.seen(self.account_id)
        ladder.seen(self.account_id)
        release_connections()


def presence_every() -> float:
    """Seconds between an open stream's signs of presence: well within `SEEK_IDLE_SECONDS`,
    and no more often than the stream's heartbeat."""
    return min(settings.LIVE_HEARTBEAT_SECONDS, settings.SEEK_IDLE_SECONDS / 3)


def _frames_after(account_id: int, after: int) -> tuple[bytes, int]:
    """The frames of the entries after `after` (one read, shared by the account's streams
    at the same point), and the last sequence they cover."""
    version = hub.known_version(inbox_key(account_id))
    rows = hub.shared_read(
        (inbox_key(account_id), after, version),
        lambda: inbox.entries(account_id, after, READ_LIMIT),
    )
    chunk = b"".join(frame(row.type, entry_data(row), row.sequence) for row in rows)
    return chunk, rows[-1].sequence if rows else after


def _waited(
    credential: AccountCredential, cursor: int, deadline: float, presence: Presence
) -> Generator[bytes, None, bool]:
    """Wait for an entry past `cursor`, a comment every `LIVE_HEARTBEAT_SECONDS` meanwhile,
    the token looked at every `CREDENTIAL_EVERY_SECONDS`, the account's presence said when
    due; False when the stream is to end."""
    key = inbox_key(credential.account_id)
    beat = time.monotonic() + settings.LIVE_HEARTBEAT_SECONDS
    while True:
        now = time.monotonic()
        if now >= deadline or hub.draining.is_set() or not still_valid(credential):
            return False
        presence.refresh_if_due()
        if now >= beat:
            yield comment("keep-alive")
            beat = now + settings.LIVE_HEARTBEAT_SECONDS
        wait = min(CREDENTIAL_EVERY_SECONDS, deadline - now, max(beat - now, 0.0))
        if hub.wait_beyond(key, cursor, wait) > cursor:
            return True


def long_poll(credential: AccountCredential, after: int, seconds: float) -> None:
    """Wait (at most `seconds`) until the account's inbox is past `after`, the token
    looked at meanwhile as a stream looks at it (the caller answers as the token stands)."""
    key = inbox_key(credential.account_id)
    until = time.monotonic() + seconds
    presence = Presence(credential.account_id)  # a sign of presence, as an open stream's
    release_connections()
    with hub.watching(key, inbox.last_sequence(credential.account_id)):
        release_connections()
        while (left := until - time.monotonic()) > 0 and not hub.draining.is_set():
            presence.refresh_if_due()
            if hub.wait_beyond(key, after, min(left, CREDENTIAL_EVERY_SECONDS)) > after:
                return
            if not still_valid(credential):
                return
