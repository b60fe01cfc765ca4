"""The API's renderers: JSON with orjson (`games.core.resources.render_json`, the bytes stored
idempotent answers replay too), and the content negotiation of a stream."""

from __future__ import annotations

from typing import Any

from rest_framework.renderers import BaseRenderer

from games.core.resources import render_json
from games.live.sse import EVENT_STREAM


class JSONRenderer(BaseRenderer):
    media_type = "application/json"
    format = "json"
    charset = None  # JSON is UTF-8 by definition (RFC 8259)

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: dict[str, Any] | None = None,
    ) -> bytes:
        if data is None:
            return b""
        return render_json(data)


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
