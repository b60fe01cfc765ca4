"""A game's stream on the stream tier (ASGI, one event loop per process): the same frames as
`streams.stream`, made by the same `streams.step`, but a waiting stream is a coroutine, not
a thread, so one process holds ten thousand.

Each watched game has one `Channel` on the loop. When the hub hears of news for it (this
process's listener, its poll, `Hub.listen_for_news`), the channel takes every stream that is
behind, makes all their steps in one call on a fan-out thread (the reads and renders shared
by the hub, so a move costs one read and one render per viewer kind, not one per stream), and
hands each stream its bytes through a queue. The loop itself never touches the database.

A stream whose client stops reading stops taking its steps; once `LIVE_QUEUE_LIMIT` of them
wait for it, the channel drops it (its memory stays bounded), and the tier's bounded sends
(`skyjo_service.asgi`) close its connection.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
import weakref
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, asynccontextmanager
from dataclasses import dataclass, field

from django.conf import settings

from games.core.cursors import Cursor
from games.live.fanout import Place, WatchKey, hub, release_connections
from games.live.inbox_streams import CREDENTIAL_EVERY_SECONDS, still_valid
from games.live.sse import comment
from games.live.streams import Step, Viewer, opening, step
from games.models import Game

logger = logging.getLogger(__name__)

#: What a stream is handed when it must end at once (the process drains, it was dropped).
_END = Step(b"", Cursor(), True)


@dataclass(eq=False)
class Subscriber:
    """One stream of a channel: who it is for, where it is, and its steps not yet sent."""

    viewer: Viewer
    cursor: Cursor
    first: bool = True
    steps: asyncio.Queue[Step] = field(default_factory=asyncio.Queue)

    def take(self, taken: Step) -> None:
        """Queue `taken` and move on to where it leaves the stream."""
        self.steps.put_nowait(taken)
        self.cursor, self.first = taken.cursor, False

    async def next_step(self, within: float) -> Step | None:
        """The next step, or None if none came within `within` seconds."""
        try:
            async with asyncio.timeout(within):
                return await self.steps.get()
        except TimeoutError:
            return None


class Channel:
    """A game's streams on this loop, and the task that advances them after each piece of
    news, all in one call on a fan-out thread."""

    def __init__(self, game: Game, channels: Channels) -> None:
        self.game_id = game.id
        self.subscribers: set[Subscriber] = set()
        self.news = asyncio.Event()
        self._channels = channels
        self._watching = ExitStack()
        self._watching.enter_context(hub.watching(game.id, game.version))
        self._task = asyncio.get_running_loop().create_task(self._advance_forever())

    def add(self, subscriber: Subscriber) -> None:
        self.subscribers.add(subscriber)
        self.news.set()  # its first step

    def remove(self, subscriber: Subscriber) -> None:
        self.subscribers.discard(subscriber)
        if not self.subscribers:
            self.close()

    def close(self) -> None:
        """No stream is left: stop watching the game."""
        self._task.cancel()
        self._watching.close()
        self._channels.forget(self)

    async def _advance_forever(self) -> None:
        while True:
            await self.news.wait()
            self.news.clear()
            behind = self._behind()
            if behind:
                await self._advance(behind)

    def _behind(self) -> list[Subscriber]:
        """The streams with something to send: a first step, or news past their cursor."""
        version, chat = hub.known_version(self.game_id), hub.known_chat(self.game_id)
        return [
            subscriber
            for subscriber in self.subscribers
            if subscriber.first
            or version > subscriber.cursor.events
            or chat > subscriber.cursor.chat
        ]

    async def _advance(self, behind: list[Subscriber]) -> None:
        """Every stream in `behind` takes its step; a failed read ends them (their clients
        reconnect), and one whose client is `LIVE_QUEUE_LIMIT` steps behind is dropped."""
        places = [(s.viewer, s.cursor, s.first) for s in behind]
        executor = self._channels.executor
        try:
            taken = await asyncio.get_running_loop().run_in_executor(
                executor, _steps, self.game_id, places
            )
        except Exception:
            logger.warning("live: a channel's step failed; its streams end", exc_info=True)
            taken = [_END] * len(behind)
        for subscriber, next_step in zip(behind, taken, strict=True):
            if subscriber.steps.qsize() >= settings.LIVE_QUEUE_LIMIT:
                next_step = _END  # the client has stopped reading
            subscriber.take(next_step)
            if next_step.ended:
                self.remove(subscriber)


def _steps(game_id: uuid.UUID, places: list[tuple[Viewer, Cursor, bool]]) -> list[Step]:
    """Each stream's step from its place, on a fan-out thread which makes the reads itself,
    once per distinct place (a game's spectators are all at the same place: one step serves
    them all, the same bytes), its database connection given back at the end."""
    try:
        with hub.reading_inline():
            taken = {place: step(game_id, *place) for place in dict.fromkeys(places)}
    finally:
        release_connections()
    return [taken[place] for place in places]


class Channels:
    """This loop's channels, by game, and the fan-out threads they make their steps on."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.by_game: dict[uuid.UUID, Channel] = {}
        self.executor = ThreadPoolExecutor(
            settings.LIVE_FANOUT_THREADS, thread_name_prefix="skyjo-live-fanout"
        )

    @asynccontextmanager
    async def subscribed(self, game: Game, subscriber: Subscriber) -> AsyncIterator[None]:
        """`subscriber` gets the game's steps while the block runs."""
        channel = self.by_game.get(game.id) or self.by_game.setdefault(game.id, Channel(game, self))
        channel.add(subscriber)
        try:
            yield
        finally:
            channel.remove(subscriber)

    def forget(self, channel: Channel) -> None:
        if self.by_game.get(channel.game_id) is channel:
            del self.by_game[channel.game_id]

    def heard(self, key: WatchKey | None) -> None:
        """News of `key` (on this loop): its channel advances; None: every stream ends."""
        if key is None:
            self._end_every_stream()
            return
        found = self.by_game.get(key) if isinstance(key, uuid.UUID) else None
        if found is not None:
            found.news.set()

    def _end_every_stream(self) -> None:
        for channel in list(self.by_game.values()):
            for subscriber in list(channel.subscribers):
                subscriber.take(_END)
                channel.remove(subscriber)


#: Each running loop's channels (one loop per stream tier process; tests may run others).
_by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Channels] = (
    weakref.WeakKeyDictionary()
)


def channels() -> Channels:
    """The running loop's channels (made at its first stream)."""
    loop = asyncio.get_running_loop()
    found = _by_loop.get(loop)
    if found is None:
        found = _by_loop[loop] = Channels(loop)
    return found


def _tell_loops(key: WatchKey | None) -> None:
    """The hub's news, from whichever thread learnt it, passed on to every loop's channels."""
    for loop, its_channels in list(_by_loop.items()):
        if not loop.is_closed():
            loop.call_soon_threadsafe(its_channels.heard, key)


hub.listen_for_news(_tell_loops)


async def astream(game: Game, viewer: Viewer, after: Cursor) -> AsyncIterator[bytes]:
    """The stream's bytes as a coroutine: what `streams.stream` sends, in the same order and
    with the same ends (the game's last event, `LIVE_STREAM_SECONDS`, the process draining,
    the seat no longer held, an account's token revoked), a comment when idle."""
    head, cursor = opening(game, after)
    yield head
    loop = asyncio.get_running_loop()
    deadline = loop.time() + settings.LIVE_STREAM_SECONDS
    subscriber = Subscriber(viewer, cursor)
    async with channels().subscribed(game, subscriber):
        while (remaining := deadline - loop.time()) > 0 and not hub.draining.is_set():
            taken = await subscriber.next_step(_idle_wait(viewer, remaining))
            if taken is None:
                if not await _credential_holds(viewer):
                    return
                yield comment("keep-alive")
                continue
            if taken.frames:
                yield taken.frames
            if taken.ended:
                return


def _idle_wait(viewer: Viewer, remaining: float) -> float:
    """Seconds to wait for a step before a comment (and an account's token looked at)."""
    wait = min(settings.LIVE_HEARTBEAT_SECONDS, remaining)
    return wait if viewer.account is None else min(wait, CREDENTIAL_EVERY_SECONDS)


async def _credential_holds(viewer: Viewer) -> bool:
    """Whether an account's token still stands (looked at on a thread: it may read)."""
    if viewer.account is None:
        return True
    return await asyncio.to_thread(still_valid, viewer.account)


class HeldStream:
    """A stream's bytes on the tier, holding its place until the response is closed (which
    Django's ASGI handler does at the end, the client gone or not) or dropped unclosed."""

    def __init__(self, chunks: AsyncIterator[bytes], place: Place) -> None:
        self._chunks, self._place = chunks, place
        weakref.finalize(self, place.release)

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self._chunks

    def close(self) -> None:
        self._place.release()
