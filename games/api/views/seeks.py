"""The `seeks` tag: quick play. An account seeks a game (a range of seats, a clock, bots after
a wait), reads its seek until the matcher has seated it, or withdraws it. Thin: the use cases
are `play`'s (`play.seeks`, `play.matcher`); the body's serializer and the answer's shape are
here, beside their only view."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from django.conf import settings
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework import status as http
from rest_framework.request import Request
from rest_framework.response import Response

import play
from accounts.credentials import AccountCredential
from engine.options import MAX_SEATS, MAX_TURN_SECONDS, MIN_SEATS, MIN_TURN_SECONDS
from games.api.headers import idempotency_key
from games.api.inputs import StrictBooleanField, StrictIntegerField, StrictSerializer
from games.api.schema import (
    IDEMPOTENCY_KEY,
    IDEMPOTENT_REPLAYED,
    LOCATION,
    RETRY_AFTER,
    problems,
    scoped,
)
from games.api.views.accounts import NO_CONTENT, signed_in
from games.api.views.common import PerViewerView, answer_response
from games.core import idempotency
from play.models import SeekStatus

SEEK_ID = OpenApiParameter(
    "seek_id", OpenApiTypes.UUID, OpenApiParameter.PATH, description="The seek's id."
)


class SeatRangeSerializer(StrictSerializer):
    """The game sizes a seeker accepts: any number of seats from `min` to `max`."""

    min = StrictIntegerField(
        min_value=MIN_SEATS, max_value=MAX_SEATS, help_text="The fewest seats (2 to 8)."
    )
    max = StrictIntegerField(
        min_value=MIN_SEATS, max_value=MAX_SEATS, help_text="The most seats (`min` to 8)."
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if data["min"] > data["max"]:
            raise serializers.ValidationError({"max": ["Ensure this value is at least min."]})
        return data


class CreateSeekSerializer(StrictSerializer):
    """A seek: the seats accepted, the clock, and how long before bots may fill the table."""

    seats = SeatRangeSerializer()
    turn_seconds = StrictIntegerField(
        min_value=MIN_TURN_SECONDS,
        max_value=MAX_TURN_SECONDS,
        default=None,
        allow_null=True,
        help_text="Each turn's clock, in seconds (R13), as a game's option; null (the "
        "default): no clock. Only seekers with the same clock are matched.",
    )
    bots_after = StrictIntegerField(
        min_value=0,
        max_value=settings.SEEK_MAX_SECONDS,
        default=None,
        allow_null=True,
        help_text="Seconds after which bots may fill the empty seats of your game (up to "
        "the fewest seats its seekers accept), with the other seekers who want bots by then; 0: "
        "at once. Null (the default): never seated with bots, keep waiting for people.",
    )
    rated = StrictBooleanField(
        default=False,
        help_text="Whether the game is rated: `false` (the default) for now; `true` is refused "
        "with 400 `invalid_request` naming `rated` until the ratings come.",
    )


class SeekSeatsSerializer(serializers.Serializer):
    min = serializers.IntegerField()
    max = serializers.IntegerField()


class SeekSerializer(serializers.Serializer):
    """A seek, as its account reads it."""

    id = serializers.UUIDField()
    status = serializers.ChoiceField(
        choices=SeekStatus.choices,
        help_text="`searching` until the matcher seats you (`matched`: `game` and `seat` say "
        "where), you delete it (`canceled`), or it lapses (`expired`).",
    )
    created_at = serializers.DateTimeField()
    seats = SeekSeatsSerializer(help_text="The seat counts accepted.")
    turn_seconds = serializers.IntegerField(allow_null=True, help_text="The clock; null: none.")
    bots_after = serializers.IntegerField(
        allow_null=True, help_text="Seconds before bots may fill the table; null: never."
    )
    rated = serializers.BooleanField(help_text="Whether the game is rated: `false` for now.")
    expires_at = serializers.DateTimeField(
        allow_null=True,
        help_text="While searching: when the seek expires unless your account is seen before "
        "(an open account stream, or a read of the seek, moves it on, never past "
        "`SEEK_MAX_SECONDS` after `created_at`). Expired: when it did. Null once matched or "
        "canceled.",
    )
    game = serializers.UUIDField(
        allow_null=True, help_text="Once matched: the game you are seated in."
    )
    seat = serializers.IntegerField(allow_null=True, help_text="Once matched: your seat in it.")


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
            "play",
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
        keyed = _account_key(request, account.account_id, wanted)
        answer = idempotency.run(keyed, lambda _: _created(account, wanted))
        response = answer_response(answer)
        response["Location"] = f"/api/v1/seeks/{_seek_id(answer)}"
        return response


def _wanted(chosen: dict[str, Any]) -> play.SeekRequest:
    return play.SeekRequest(
        seats_min=chosen["seats"]["min"],
        seats_max=chosen["seats"]["max"],
        turn_seconds=chosen["turn_seconds"],
        bots_after=chosen["bots_after"],
        rated=chosen["rated"],
    )


def _account_key(
    request: Request, account_id: int, wanted: play.SeekRequest
) -> idempotency.Idempotency | None:
    """A seek's key belongs to its account."""
    key = idempotency_key(request)
    if key is None:
        return None
    what = idempotency.fingerprint("create_seek", asdict(wanted))
    return idempotency.Idempotency(idempotency.account_scope(account_id), key, what)


def _created(account: AccountCredential, wanted: play.SeekRequest) -> idempotency.Answer:
    seek = play.create_seek(account, wanted)
    return idempotency.Answer(201, play.seek_data(seek), None, None)


def _seek_id(answer: idempotency.Answer) -> str:
    """The seek's id in an answer, as data or as the stored bytes of a replay."""
    body = json.loads(answer.body) if isinstance(answer.body, bytes) else answer.body
    return str(body["id"])


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
            "play",
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
            "play",
        ),
        request=None,
        parameters=[SEEK_ID, RETRY_AFTER],
        responses={204: NO_CONTENT, **problems(401, 403, 404, 409)},
    )
    def delete(self, request: Request, seek_id: str) -> Response:
        play.withdraw_seek(signed_in(request, "play"), seek_id)
        return Response(status=http.HTTP_204_NO_CONTENT)
