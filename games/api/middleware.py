"""A limit on request bodies, for every API endpoint, before any view runs."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from games.api.problems import length_required_response, payload_too_large_response


class RequestBodyLimitMiddleware:
    """Answers 413 `payload_too_large` to an API request whose declared `Content-Length` is
    over `DATA_UPLOAD_MAX_MEMORY_SIZE`, without reading the body; and 411 `length_required` to
    one with a `Transfer-Encoding` (a chunked body), which Django reads as no body at all: the
    development server passes the chunks on unread (they would be taken for the next request),
    gunicorn decodes them but sends no `Content-Length`, and Django reads none without one.
    Refused alike on both servers, without reading the body: no JSON client needs chunks.

    Django applies `DATA_UPLOAD_MAX_MEMORY_SIZE` only when a body is read through `request.body` or
    `request.POST`; DRF's parsers read the stream directly and would take any size. A body
    sent without a length (or under a false one) is cut off by `games.api.parsers.JSONParser`.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith("/api/"):
            return self.get_response(request)
        if "HTTP_TRANSFER_ENCODING" in request.META:
            return length_required_response()
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None:
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0  # as Django and DRF read it: no body
            if length > limit:
                return payload_too_large_response(limit)
        return self.get_response(request)
