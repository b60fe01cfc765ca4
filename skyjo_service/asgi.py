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

    async def bounded(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not seconds:
            await app(scope, receive, send)
            return

        async def send_within(message: Message) -> None:
            if message["type"] != "http.response.body":
                await send(message)
                return
            try:
                async with asyncio.timeout(seconds):
                    await send(message)
            except TimeoutError:
                logger.info("live: closed %s, whose client stopped reading", scope["path"])
                raise asyncio.CancelledError() from None

        await app(scope, receive, send_within)

    return bounded


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
