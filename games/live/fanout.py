"""The per-process hub that learns when watched games move and wakes whoever waits for them.

Streams (`GET /games/{id}/stream`) and long polls (`/events?wait=`) wait here, never on the
database. The hub learns of a new version from this process's own writes, from PostgreSQL's
notifications (every append notifies `store.NOTIFY_CHANNEL` in its own statement: one listening
connection per process) and from a poll of the watched games' versions: SQLite's way across
processes, and on PostgreSQL a slower safety net, so a lost notification only delays an event.
An account's inbox is watched the same way, under the key `inbox_key(account_id)`: its
version is the inbox's last sequence (`accounts.inbox.last_sequences`), its notifications come on
`accounts.inbox.INBOX_CHANNEL` (the same listening connection). A watched game's chat (`play`)
is known beside its version, as the number of its last message: a new message wakes the
game's waiters too, learnt the same three ways (`chat_written`, `play.CHAT_CHANNEL`, the poll).

What a viewer is sent is read by the hub's reader threads, once per game, version and viewer
kind in this process, and shared by every stream that waits for it: a thousand spectators of
one game cost one read of the log. The reader threads hold the database connections; a waiting
stream holds none.

A stream or a long poll holds a thread while it is open, so each first takes one of the
process's `LIVE_MAX_STREAMS` places (`Hub.reserve`), at most `LIVE_MAX_STREAMS_PER_ADDRESS` of
them per client address: past either the request is refused before it waits, and the THREADS
the gunicorn configuration adds on top stay free for the other requests.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import uuid
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import psycopg
from django.conf import settings
from django.db import close_old_connections, connections

import play
from accounts.inbox import INBOX_CHANNEL, last_sequences
from games import store
from games.core.errors import TooManyStreams, TooManyStreamsFromAddress
from games.live import gate
from games.models import Game

logger = logging.getLogger(__name__)
T = TypeVar("T")

#: Reads kept for the streams that ask for the same (game, viewer, after, version) a little
#: later than the first (they were writing the previous frames to a slow client meanwhile).
_READS_KEPT = 4096
_READS_KEPT_SECONDS = 10.0

#: The kinds of request that hold a place (`Hub.reserve`).
STREAM, LONG_POLL = "stream", "long_poll"

#: What the hub watches: a game (its id) or an account's inbox (`inbox_key`).
WatchKey = uuid.UUID | tuple[str, int]


def inbox_key(account_id: int) -> WatchKey:
    """The key an account's inbox is watched under (its version: the last sequence)."""
    return ("inbox", account_id)


@dataclass
class _Watched:
    """A game (or an inbox) some stream or long poll of this process waits on."""

    changed: threading.Condition
    version: int = 0
    watchers: int = 0
    chat: int = 0  # a game's: the number of its chat's last message


class Place:
    """One place a stream or long poll holds (`Hub.reserve`), given back by `release` (or at
    the end of the block it is the context of), once however often released."""

    def __init__(self, hub: Hub, kind: str, address: str) -> None:
        self.kind, self.address, self.held = kind, address, True
        self._hub = hub

    def release(self) -> None:
        self._hub.give_back(self)

    def __enter__(self) -> Place:
        return self

    def __exit__(self, *_: object) -> None:
        self.release()


class Hub:
    """Watched games, their latest known versions, the reads shared between waiters, and the
    places the streams and long polls hold."""

    def __init__(self) -> None:
        # Reentrant: a place dropped unreleased is given back by the garbage collector, which
        # may run while this thread holds the lock.
        self._lock = threading.RLock()
        self._games: dict[WatchKey, _Watched] = {}
        self._reads: OrderedDict[Any, tuple[float, Future[Any]]] = OrderedDict()
        self._readers: ThreadPoolExecutor | None = None
        self._local = threading.local()
        self._started = False
        self._stopping = threading.Event()
        self._threads: list[threading.Thread] = []
        self.draining = threading.Event()
        self.held: Counter[str] = Counter()  # places held, by kind
        self._held_by: Counter[str] = Counter()  # places held, by client address
        #: Called with a watched key whenever it has news (and with None when the process
        #: drains): the stream tier's event loops learn of moves this way (`astreams`).
        self._news_listeners: list[Callable[[WatchKey | None], None]] = []
        #: Places this process holds at most: `LIVE_MAX_STREAMS` unless its server says
        #: otherwise (the stream tier: `skyjo_service.stream_tier --max-streams`).
        self.capacity: int | None = None

    @contextmanager
    def watching(self, game_id: WatchKey, version: int) -> Iterator[None]:
        """Keep `game_id` (a game, or an inbox: `inbox_key`) watched (at least at `version`)
        while the block runs."""
        self._start_once()
        with self._lock:
            watched = self._games.setdefault(game_id, _Watched(threading.Condition(self._lock)))
            watched.watchers += 1
            watched.version = max(watched.version, version)
        try:
            yield
        finally:
            with self._lock:
                watched.watchers -= 1
                if watched.watchers == 0:
                    del self._games[game_id]

    def reserve(self, kind: str, address: str) -> Place:
        """A place for a stream or a long poll (`kind`) of `address`, checked and counted at
        once under the lock, so that simultaneous requests never take more than there are;
        refused past the address's places, then past the process's."""
        with self._lock:
            per_address = settings.LIVE_MAX_STREAMS_PER_ADDRESS  # 0: no limit per address
            if per_address and self._held_by[address] >= per_address:
                raise TooManyStreamsFromAddress()
            if self.held.total() >= (self.capacity or settings.LIVE_MAX_STREAMS):
                raise TooManyStreams()
            self.held[kind] += 1
            self._held_by[address] += 1
        return Place(self, kind, address)

    def give_back(self, place: Place) -> None:
        """`place` is free again (if it was not already)."""
        with self._lock:
            if not place.held:
                return
            place.held = False
            self.held[place.kind] -= 1
            self._held_by[place.address] -= 1
            if not self._held_by[place.address]:
                del self._held_by[place.address]  # no entry kept per address ever seen

    def publish(self, game_id: WatchKey, version: int) -> None:
        """`game_id` is now at `version` at least: wake its waiters if that is news."""
        with self._lock:
            watched = self._games.get(game_id)
            if watched is None or version <= watched.version:
                return
            watched.version = version
            watched.changed.notify_all()
        self._tell(game_id)

    def listen_for_news(self, listener: Callable[[WatchKey | None], None]) -> None:
        """Call `listener(key)` after each piece of news of a watched key, from whichever
        thread learnt it, and `listener(None)` when the process drains; it must not block."""
        with self._lock:
            self._news_listeners.append(listener)

    def _tell(self, key: WatchKey | None) -> None:
        for listener in self._news_listeners:
            listener(key)

    def wait_beyond(self, game_id: WatchKey, version: int, timeout: float) -> int:
        """Wait (at most `timeout` seconds) until the watched game is past `version`, or the
        process drains; the latest version known. A request waiting here gives its turn at
        the application to another meanwhile (games.api.gate)."""
        with gate.TURNS.stepped_out(), self._lock:
            watched = self._games[game_id]
            watched.changed.wait_for(
                lambda: watched.version > version or self.draining.is_set(), timeout
            )
            return watched.version

    def publish_chat(self, game_id: uuid.UUID, sequence: int) -> None:
        """The game's chat now has message `sequence` at least: wake its waiters if news."""
        with self._lock:
            watched = self._games.get(game_id)
            if watched is None or sequence <= watched.chat:
                return
            watched.chat = sequence
            watched.changed.notify_all()
        self._tell(game_id)

    def wait_for_news(self, game_id: uuid.UUID, version: int, chat: int, timeout: float) -> bool:
        """`wait_beyond` for a game's stream, which also carries its chat: whether the game
        moved past `version` or its chat past message `chat` within `timeout` seconds."""
        with gate.TURNS.stepped_out(), self._lock:
            watched = self._games[game_id]

            def news() -> bool:
                return watched.version > version or watched.chat > chat

            watched.changed.wait_for(lambda: news() or self.draining.is_set(), timeout)
            return news()

    def known_chat(self, game_id: uuid.UUID) -> int:
        with self._lock:
            watched = self._games.get(game_id)
            return 0 if watched is None else watched.chat

    def known_version(self, game_id: WatchKey) -> int:
        with self._lock:
            watched = self._games.get(game_id)
            return 0 if watched is None else watched.version

    def shared_read(
        self, key: Any, read: Callable[[], T], fresh_within: float = _READS_KEPT_SECONDS
    ) -> T:
        """`read()`'s answer, run once for every caller asking with `key` within
        `fresh_within` seconds of the read's start (at most `_READS_KEPT_SECONDS`; a failed
        read is tried again by the next caller): by a reader thread, or by the calling
        thread itself while it reads `inline`."""
        inline = getattr(self._local, "inline", False)
        with self._lock:
            self._forget_old_reads()
            kept = self._reads.get(key)
            mine = kept is None or _stale(kept, fresh_within)
            if mine:
                started = Future() if inline else self._executor().submit(_released_after, read)
                kept = (time.monotonic(), started)
                self._reads[key] = kept
        assert kept is not None
        if mine and inline:
            _run_into(kept[1], read)
        result: T = kept[1].result()
        return result

    @contextmanager
    def reading_inline(self) -> Iterator[None]:
        """Make this thread's shared reads itself while the block runs: the stream tier's
        fan-out threads, which make every stream's step of a game in one call, would
        otherwise hand each read to a reader thread and wait, a switch of threads (and of
        the interpreter's lock) per read."""
        self._local.inline = True
        try:
            yield
        finally:
            self._local.inline = False

    def _forget_old_reads(self) -> None:
        """Drop the reads kept longest: every stream that waited for them has had them."""
        horizon = time.monotonic() - _READS_KEPT_SECONDS
        while self._reads and (
            len(self._reads) > _READS_KEPT or next(iter(self._reads.values()))[0] < horizon
        ):
            self._reads.popitem(last=False)

    def watched_ids(self) -> list[WatchKey]:
        with self._lock:
            return list(self._games)

    def drain(self) -> None:
        """The process is stopping: every stream ends now (its client resumes elsewhere)."""
        self.draining.set()
        with self._lock:
            for watched in self._games.values():
                watched.changed.notify_all()
        self._tell(None)

    def _executor(self) -> ThreadPoolExecutor:
        if self._readers is None:
            self._readers = ThreadPoolExecutor(
                settings.LIVE_READERS, thread_name_prefix="skyjo-live-read"
            )
        return self._readers

    def _start_once(self) -> None:
        """Start this process's listener and poller threads at the first watch."""
        with self._lock:
            if self._started:
                return
            self._started = True
        self._threads.append(_daemon(self._poll_forever, "skyjo-live-poll"))
        if connections[store.write_alias()].vendor == "postgresql":
            self._threads.append(_daemon(self._listen_forever, "skyjo-live-listen"))

    def stop(self) -> None:
        """End the streams and stop the listener and poller threads, closing their
        connections (a test run's end: its database can then be dropped)."""
        self._stopping.set()
        self.drain()
        for thread in self._threads:
            thread.join(timeout=5)

    def _poll_forever(self) -> None:
        """Publish the watched games' versions every `LIVE_POLL_SECONDS`."""
        while not self._stopping.wait(_poll_seconds()):
            try:
                self._poll_once()
            except Exception:  # a database that is down now may be up at the next poll
                logger.warning("live: polling the watched games failed", exc_info=True)
            finally:
                close_old_connections()
        connections.close_all()

    def _poll_once(self) -> None:
        keys = self.watched_ids()
        games = [key for key in keys if isinstance(key, uuid.UUID)]
        if games:
            for game_id, version in Game.objects.filter(pk__in=games).values_list("pk", "version"):
                self.publish(game_id, version)
            for game_id, sequence in play.last_sequences(games).items():
                self.publish_chat(game_id, sequence)
        inboxes = [key[1] for key in keys if isinstance(key, tuple)]
        for account_id, version in last_sequences(inboxes).items():
            self.publish(inbox_key(account_id), version)

    def _listen_forever(self) -> None:
        """Hold one LISTEN connection (psycopg's async notifications), reconnecting after a
        failure; the poll covers what is missed meanwhile."""
        while not self._stopping.is_set():
            try:
                asyncio.run(self._listen())
            except Exception:
                logger.warning("live: the notification listener stopped", exc_info=True)
                self._stopping.wait(1.0)

    async def _listen(self) -> None:
        params = _listener_params()
        async with await psycopg.AsyncConnection.connect(**params, autocommit=True) as conn:
            await conn.execute(f"LISTEN {store.NOTIFY_CHANNEL}")
            await conn.execute(f"LISTEN {INBOX_CHANNEL}")
            await conn.execute(f"LISTEN {play.CHAT_CHANNEL}")
            while not self._stopping.is_set():  # a look at `stop` every second
                async for notice in conn.notifies(timeout=1.0):
                    self._heard(notice.payload, notice.channel)

    def _heard(self, payload: str, channel: str = store.NOTIFY_CHANNEL) -> None:
        """A game's `<id> <version>`, on `INBOX_CHANNEL` an inbox's `<account> <sequence>`, on
        `play.CHAT_CHANNEL` a game's chat's `<id> <sequence>`."""
        watched, _, version = payload.partition(" ")
        try:
            if channel == play.CHAT_CHANNEL:
                self.publish_chat(uuid.UUID(watched), int(version))
                return
            key = inbox_key(int(watched)) if channel == INBOX_CHANNEL else uuid.UUID(watched)
            self.publish(key, int(version))
        except ValueError:
            logger.warning("live: ignored the notification %r", payload)


def _stale(kept: tuple[float, Future[Any]], fresh_within: float) -> bool:
    """Whether a kept read is too old for its caller, or failed."""
    started, read = kept
    failed = read.done() and read.exception() is not None
    return failed or time.monotonic() - started > fresh_within


def _run_into(future: Future[T], read: Callable[[], T]) -> None:
    """Run `read` in this thread, its answer (or its error) into `future`."""
    try:
        future.set_result(read())
    except Exception as error:
        future.set_exception(error)


def _released_after(read: Callable[[], T]) -> T:
    """Run `read` in a reader thread, then release its connection if `CONN_MAX_AGE` (or a
    pool) says so, as a request's end would."""
    try:
        return read()
    finally:
        close_old_connections()


def release_connections() -> None:
    """Give this thread's database connections back (to the pool, or closed) before a long
    wait, so a waiting stream or long poll holds none; not inside a transaction (a test's)."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()


def _daemon(target: Callable[[], None], name: str) -> threading.Thread:
    thread = threading.Thread(target=target, name=name, daemon=True)
    thread.start()
    return thread


def _poll_seconds() -> float:
    default = 0.1 if connections[store.write_alias()].vendor == "sqlite" else 2.0
    return settings.LIVE_POLL_SECONDS or default


def _listener_params() -> dict[str, Any]:
    """The connection parameters of the write database, for psycopg directly."""
    params = dict(connections[store.write_alias()].get_connection_params())
    for django_only in ("cursor_factory", "context", "prepare_threshold", "pool"):
        params.pop(django_only, None)
    return params


#: This process's hub.
hub = Hub()
