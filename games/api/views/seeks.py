"""The `seeks` tag: quick play. An account seeks a game (a range of seats, a clock, bots after
a wait), reads its seek until the matcher has seated it, or withdraws it. Thin: the use cases
are `play`'s (`play.seeks`, `play.matcher`); the body's serializer is in `games.api.inputs`, the
answer's shape in `games.api.shapes`."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status as http
from rest_framework.request import Request
from rest_framework.response import Response

import play
from accounts.credentials import AccountCredential
from games.api.inputs import CreateSeekSerializer
from games.api.schema import (
    IDEMPOTENCY_KEY,
    IDEMPOTENT_REPLAYED,
    LOCATION,
    RETRY_AFTER,
    every_scope,
    problems,
    scoped,
)
from games.api.shapes import SeekSerializer
from games.api.views.accounts import NO_CONTENT, signed_in
from games.api.views.common import (
    PerViewerView,
    answer_response,
    answered_id,
    keyed_by_account,
)
from games.core import idempotency

SEEK_ID = OpenApiParameter(
    "seek_id", OpenApiTypes.UUID, OpenApiParameter.PATH, description="The seek's id."
)


_LIFETIME = (
    "A seek lives while its account is present, for a bounded time: while the account's stream "
    "(`GET /api/v1/account/stream`) is open, or while you poll the account's events (`GET "
    "/api/v1/account/events`) or read the seek (`GET /api/v1/seeks/{id}`) at least every "
    "`SEEK_IDLE_SECONDS` (30 s by default); it expires "
    "when its account has not been seen for that long, or `SEEK_MAX_SECONDS` (600 s) after "
    "it was made, whichever comes first."
)
_MATCHING = (
    "The matcher (the service's workers) seats seekers with the same clock whose seat ranges "
    "overlap, oldest seeks first: a game starts as soon as it has as many seekers as the "
    "largest seat count they all accept; after `SEEK_SMALLEST_AFTER_SECONDS` (20 s) with the "
    "seekers it has if they reach the fewest seats they all accept; and once the oldest "
    "seek's `bots_after` has passed, with the seekers whose `bots_after` has passed too and "
    "`greedy` bots in the empty seats, up to the fewest seats those seekers accept (a seeker "
    "whose `bots_after` is null, or not over, is never seated with bots: it keeps waiting). The "
    "game is listed, has a secret seed and the seekers' clock; each seeker is seated by its "
    "account (its personal tokens act for the seat), oldest first, and its account stream "
    "gets `seek_matched` `{seek, game, seat}`."
)


class SeekListView(PerViewerView):
    """Seek a game."""

    @extend_schema(
        operation_id="create_seek",
        summary="Seek a game (quick play)",
        tags=["seeks"],
        **scoped(
            f"A new seek, `searching`. {_MATCHING} {_LIFETIME} One searching seek per account: "
            "another is refused with 409 `already_seeking` (its `seek` names the one you "
            "have). An `Idempotency-Key` belongs to the account.",
            every_scope("play"),
        ),
        request=CreateSeekSerializer,
        parameters=[IDEMPOTENCY_KEY, LOCATION, IDEMPOTENT_REPLAYED, RETRY_AFTER],
        responses={201: SeekSerializer, **problems(400, 401, 403, 409, 415, 422)},
    )
    def post(self, request: Request) -> Response:
        account = signed_in(request, "play")
        form = CreateSeekSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        wanted = _wanted(form.validated_data)
        keyed = keyed_by_account(request, account.account_id, "create_seek", asdict(wanted))
        answer = idempotency.run(keyed, lambda _: _created(account, wanted))
        response = answer_response(answer)
        response["Location"] = f"/api/v1/seeks/{answered_id(answer)}"
        return response


def _wanted(chosen: dict[str, Any]) -> play.SeekRequest:
    return play.SeekRequest(
        seats_min=chosen["seats"]["min"],
        seats_max=chosen["seats"]["max"],
        turn_seconds=chosen["turn_seconds"],
        bots_after=chosen["bots_after"],
        rated=chosen["rated"],
    )


def _created(account: AccountCredential, wanted: play.SeekRequest) -> idempotency.Answer:
    seek = play.create_seek(account, wanted)
    return idempotency.Answer(201, play.seek_data(seek), None, None)


class SeekView(PerViewerView):
    """One of the account's seeks: read it, or withdraw it."""

    @extend_schema(
        operation_id="get_seek",
        summary="Get a seek",
        tags=["seeks"],
        **scoped(
            "The seek as it is now: once `matched`, `game` and `seat` say where you sit. A "
            "read of a searching seek is a sign of your presence, which keeps it alive: poll "
            f"it (every few seconds) or keep your account stream open. {_LIFETIME} 404 "
            "`seek_not_found` for a seek that is not yours.",
            every_scope("play"),
        ),
        parameters=[SEEK_ID, RETRY_AFTER],
        responses={200: SeekSerializer, **problems(401, 403, 404)},
    )
    def get(self, request: Request, seek_id: str) -> Response:
        seek = play.read_seek(signed_in(request, "play"), seek_id)
        return Response(play.seek_data(seek))

    @extend_schema(
        operation_id="delete_seek",
        summary="Withdraw a seek",
        tags=["seeks"],
        **scoped(
            "Stops searching: the seek is `canceled` (a seek already canceled or expired stays "
            "so, 204 too). A matched seek is a seat in its game: 409 `seek_already_matched` "
            "(leave the game instead). 404 `seek_not_found` for a seek that is not yours.",
            every_scope("play"),
        ),
        request=None,
        parameters=[SEEK_ID, RETRY_AFTER],
        responses={204: NO_CONTENT, **problems(401, 403, 404, 409)},
    )
    def delete(self, request: Request, seek_id: str) -> Response:
        play.withdraw_seek(signed_in(request, "play"), seek_id)
        return Response(status=http.HTTP_204_NO_CONTENT)
