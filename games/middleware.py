"""A limit on request bodies, for every API endpoint, before any view runs."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from .problems import payload_too_large_response


class RequestBodyLimitMiddleware:
    """Answers 413 `payload_too_large` to an API request whose declared `Content-Length` is
    over `DATA_UPLOAD_MAX_MEMORY_SIZE`, without reading the body.

    Django applies that setting only when a body is read through `request.body` or
    `request.POST`; DRF's parsers read the stream directly and would take any size. A body
    sent without a length (or under a false one) is cut off by `games.parsers.JSONParser`.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None and request.path.startswith("/api/"):
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0  # as Django and DRF read it: no body
            if length > limit:
                return payload_too_large_response(limit)
        return self.get_response(request)
