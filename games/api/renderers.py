"""JSON rendering with orjson: a long game's view carries a summary of every finished round,
and orjson encodes it quickly enough that such a view costs about what a short game's does
(`manage.py bench_replay`'s long/short ratio; figures in docs/PERFORMANCE.md)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import orjson
from django.utils.functional import Promise
from rest_framework.renderers import BaseRenderer


def _default(value: Any) -> Any:
    if isinstance(value, Promise | Decimal):  # lazy translations, decimals
        return str(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def render_json(data: Any) -> bytes:
    """`data` as the bytes of a JSON answer: the renderer's, and the stored idempotent answers'
    (so that a replay is the first answer byte for byte)."""
    return orjson.dumps(data, default=_default)


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
