"""What every view shares: per-viewer caching headers, ETags, idempotent answers, and the
order of checks (who you are before what you sent)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import orjson
from django.conf import settings
from django.http import HttpResponse, HttpResponseBase
from django.utils.cache import patch_cache_control, patch_vary_headers
from rest_framework import status as http
from rest_framework.exceptions import APIException
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from games import core
from games.api.headers import (
    etag,
    idempotency_key,
    seat_credential,
)
from games.core import idempotency
from games.core.errors import InvalidRequest


def with_etag(response: HttpResponseBase, version: int) -> HttpResponseBase:
    response["ETag"] = etag(version)
    response["Vary"] = "Authorization"
    return response


def with_stream_link(response: HttpResponseBase, game_id: object) -> HttpResponseBase:
    """Name the game's stream (`Link: <…>; rel="stream"`), on the stream tier when the
    service has one of its own address (`STREAM_BASE_URL`), else on this server."""
    response["Link"] = f'<{settings.STREAM_BASE_URL}/api/v1/games/{game_id}/stream>; rel="stream"'
    return response


class PerViewerView(APIView):
    """An operation whose answers depend on the `Authorization` header (a seat's view, a
    token): every answer, errors and 304s included, says so to caches (`Vary: Authorization`)
    and keeps out of shared ones (`Cache-Control: private`; `no-store` as well where a token
    is shown)."""

    def finalize_response(
        self, request: Request, response: HttpResponseBase, *args: Any, **kwargs: Any
    ) -> HttpResponseBase:
        response = super().finalize_response(request, response, *args, **kwargs)
        patch_vary_headers(response, ("Authorization",))
        patch_cache_control(response, private=True)
        return response


def client_address(request: Request) -> str:
    """The client's address as the throttles see it (`NUM_PROXIES` honoured)."""
    return str(BaseThrottle().get_ident(request))


def keyed_by_address(request: Request, *what: Any) -> idempotency.Idempotency | None:
    """The `Idempotency-Key` of a request made without a seat token (scope: the client's
    address), `what` telling the request; None without a key."""
    return _keyed(request, idempotency.address_scope(client_address(request)), what)


def keyed_by_account(
    request: Request, account_id: int, *what: Any
) -> idempotency.Idempotency | None:
    """The `Idempotency-Key` of an account's request that no seat of a game answers for (a
    challenge, a seek, a join, a spectator's message): scope the account, all its tokens
    together, `what` telling the request; None without a key."""
    return _keyed(request, idempotency.account_scope(account_id), what)


def keyed_by_seat(
    request: Request, game_id: object, seat: int, *what: Any
) -> idempotency.Idempotency | None:
    """The `Idempotency-Key` of a request a seat makes (scope: that seat of that game, as its
    actions' keys), `what` telling the request; None without a key."""
    return _keyed(request, idempotency.seat_scope(game_id, seat), what)


def _keyed(request: Request, scope: str, what: tuple[Any, ...]) -> idempotency.Idempotency | None:
    key = idempotency_key(request)
    if key is None:
        return None
    return idempotency.Idempotency(scope, key, idempotency.fingerprint(*what))


def answered_id(answer: idempotency.Answer) -> str:
    """The `id` an answer's body names (a new challenge's, a new seek's), whether the body is
    data or the stored bytes of a replay: for its `Location`."""
    body = orjson.loads(answer.body) if isinstance(answer.body, bytes) else answer.body
    return str(body["id"])


def answer_response(answer: idempotency.Answer) -> HttpResponseBase:
    """The answer as it was rendered (a keyed request's, stored and replayed byte for byte),
    or as data for the renderer; `Idempotent-Replayed: true` on a replay."""
    response: HttpResponseBase
    if isinstance(answer.body, bytes):
        response = HttpResponse(answer.body, status=answer.status, content_type="application/json")
    else:
        response = Response(answer.body, status=answer.status)
    if answer.replayed:
        response["Idempotent-Replayed"] = "true"
    return response


@contextmanager
def authenticated_before_bad_request(
    request: Request, game_id: str, caller: Callable[[], object] | None = None
) -> Iterator[None]:
    """Parse a seat's request inside this: a malformed one (400, 415) is answered 404 for an
    unknown game and 401 without a token of one of its seats first, as a well-formed one is
    (or as `caller` checks who calls, for an operation that others may call too). The checks
    cost nothing on the usual path; the services check again when they act."""
    try:
        yield
    except (APIException, InvalidRequest) as error:
        malformed = (http.HTTP_400_BAD_REQUEST, http.HTTP_415_UNSUPPORTED_MEDIA_TYPE)
        if isinstance(error, InvalidRequest) or error.status_code in malformed:
            if caller is None:
                core.game_and_seat(game_id, seat_credential(request), required=True)
            else:
                caller()
        raise
