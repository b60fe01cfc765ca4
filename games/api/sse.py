"""Server-Sent Events framing (the WHATWG HTML standard's `text/event-stream`), and the
renderer that lets a client ask for it with `Accept: text/event-stream`."""

from __future__ import annotations

from typing import Any

from rest_framework.renderers import BaseRenderer

from .renderers import render_json

EVENT_STREAM = "text/event-stream"


def frame(event: str, data: Any, event_id: int | None = None) -> bytes:
    """One event: its `id:` (what a reconnecting client sends back as `Last-Event-ID`), its
    `event:` type and its `data:` as one line of JSON."""
    head = b"" if event_id is None else b"id: %d\n" % event_id
    return head + b"event: " + event.encode() + b"\ndata: " + render_json(data) + b"\n\n"


def comment(text: str) -> bytes:
    """A comment line: ignored by clients, it keeps proxies from closing an idle stream."""
    return b": " + text.encode() + b"\n\n"


def retry(milliseconds: int) -> bytes:
    """How long a client waits before it reconnects."""
    return b"retry: %d\n\n" % milliseconds


class EventStreamRenderer(BaseRenderer):
    """Content negotiation for a stream. The stream itself is written by its view; what this
    renders is a problem raised before the stream starts, as JSON."""

    media_type = EVENT_STREAM
    format = "event-stream"
    charset = None

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: dict[str, Any] | None = None,
    ) -> bytes:
        return b"" if data is None else render_json(data)
