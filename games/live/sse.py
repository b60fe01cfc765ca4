"""Server-Sent Events framing (the WHATWG HTML standard's `text/event-stream`)."""

from __future__ import annotations

from typing import Any

from games.core.resources import render_json

EVENT_STREAM = "text/event-stream"


def frame(event: str, data: Any, event_id: int | str | None = None) -> bytes:
    """One event: its `id:` (what a reconnecting client sends back as `Last-Event-ID`), its
    `event:` type and its `data:` as one line of JSON."""
    head = b"" if event_id is None else b"id: %s\n" % str(event_id).encode()
    return head + b"event: " + event.encode() + b"\ndata: " + render_json(data) + b"\n\n"


def comment(text: str) -> bytes:
    """A comment line: ignored by clients, it keeps proxies from closing an idle stream."""
    return b": " + text.encode() + b"\n\n"


def retry(milliseconds: int) -> bytes:
    """How long a client waits before it reconnects."""
    return b"retry: %d\n\n" % milliseconds
