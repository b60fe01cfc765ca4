"""ASGI entry points: `stream_tier`, the stream tier (`python -m skyjo_service.stream_tier`,
which `make run` and `make serve` start beside the API's WSGI servers; docs/SCALING.md),
serving the game streams (`/api/v1/games/{id}/stream`) as coroutines (`games.live.astreams`)
rather than a thread each, and nothing else but the rules (its health check:
`skyjo_service.stream_urls`);
and `application`, the whole service under ASGI (`bench_load --worker-class uvicorn`).

A body write that waits longer than `LIVE_SEND_TIMEOUT_SECONDS` for the client (one that has
stopped reading, its buffers full) ends the response as a disconnect would: the stream's
place is given back and the server closes the connection.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import django
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler, ASGIRequest

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skyjo_service.settings")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

logger = logging.getLogger(__name__)


def bounded_sends(app: App, seconds: float) -> App:
    """`app` whose HTTP body writes give up after `seconds` (0: never), as a client that
    disconnected (Django's handler takes a cancelled write so and closes the response)."""
    if not seconds:
        return app
    deadlines = SendDeadlines(seconds)

    async def bounded(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return

        async def send_within(message: Message) -> None:
            if message["type"] != "http.response.body":
                await send(message)
            else:
                await deadlines.within(send(message), scope["path"])

        await app(scope, receive, send_within)

    return bounded


class SendDeadlines:
    """The body writes under way, each with its deadline, and a sweep every second that
    cancels the late ones: a timer per write (`asyncio.timeout`) would cost each frame of
    every stream a timer of its own, when nearly every write ends at once."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.under_way: dict[asyncio.Task[Any], tuple[float, str]] = {}
        self._sweep: asyncio.Task[None] | None = None

    async def within(self, write: Awaitable[None], path: str) -> None:
        task = asyncio.current_task()
        assert task is not None  # a coroutine of the server's
        loop = asyncio.get_running_loop()
        self.under_way[task] = (loop.time() + self.seconds, path)
        if self._sweep is None or self._sweep.done():
            self._sweep = loop.create_task(self._sweep_forever())
        try:
            await write
        finally:
            self.under_way.pop(task, None)

    async def _sweep_forever(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(1.0)
            now = loop.time()
            for task, (deadline, path) in list(self.under_way.items()):
                if deadline < now:
                    logger.info("live: closed %s, whose client stopped reading", path)
                    task.cancel()


class StreamTierRequest(ASGIRequest):
    """A request to the stream tier, routed by the tier's own URLs."""

    urlconf = "skyjo_service.stream_urls"


class StreamTierHandler(ASGIHandler):
    """Django's ASGI handler, but each request's synchronous part (opening a stream: its
    checks and reads, in the sync views and middleware) runs on the process's one
    thread for sync code, in turn. Django's own handler gives each request a thread of its
    own for it, which lives as long as the request: as long as the stream, a thread per
    stream, which is what the tier is there to avoid."""

    request_class = StreamTierRequest

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            raise ValueError(f"The stream tier serves HTTP only, not {scope['type']!r}.")
        await self.handle(scope, receive, send)


django.setup(set_prefix=False)
application = bounded_sends(ASGIHandler(), settings.LIVE_SEND_TIMEOUT_SECONDS)
stream_tier = bounded_sends(StreamTierHandler(), settings.LIVE_SEND_TIMEOUT_SECONDS)
