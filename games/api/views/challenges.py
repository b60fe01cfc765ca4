"""The `challenges` tag: an account challenges others to a game, they accept or decline, the
challenger cancels, and the parties list and read their challenges. Thin: the use cases are
`play`'s (`play.challenges`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import orjson
from django.http import HttpResponse, HttpResponseBase
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import Throttled
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import play
from accounts.credentials import AccountCredential
from accounts.scopes import SCOPES
from games.api.headers import idempotency_key
from games.api.inputs import (
    CHALLENGE_DIRECTIONS,
    MAX_OFFSET,
    MAX_PAGE,
    ChallengeListQuerySerializer,
    CreateChallengeSerializer,
    DeclineSerializer,
    EmptySerializer,
)
from games.api.schema import (
    ACCOUNT_ONLY,
    IDEMPOTENCY_KEY,
    IDEMPOTENT_REPLAYED,
    RETRY_AFTER,
    problems,
    whole_number,
)
from games.api.shapes import CHALLENGE_STATUSES, ChallengeListSerializer, ChallengeSerializer
from games.api.throttling import ChallengeCreationThrottle, PageBotSeatThrottle
from games.api.views.accounts import signed_in
from games.api.views.common import PerViewerView, answer_response
from games.api.views.lobby import GamePagination
from games.core import idempotency
from play.models import Challenge

CHALLENGE_ID = OpenApiParameter(
    "challenge_id", OpenApiTypes.UUID, OpenApiParameter.PATH, description="The challenge's id."
)
LOCATION = OpenApiParameter(
    "Location",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="The new challenge's URL.",
    response=[201],
)
#: What each answer to a challenge says it is, in the operations' descriptions.
_SEE_THE_LETTERS = (
    "Written to the parties' account streams in the same transaction (docs/CLIENTS.md, "
    "Challenges, says who gets which letter)."
)


def needs(description: str, *scopes: str) -> dict[str, Any]:
    """`extend_schema` arguments of a challenge operation that needs every one of `scopes`:
    its security, its description ending with them, and `x-required-scopes`."""
    assert all(scope in SCOPES for scope in scopes)
    named = " and ".join(f"`{scope}`" for scope in scopes)
    plural = "s" if len(scopes) > 1 else ""
    return {
        "auth": ACCOUNT_ONLY,
        "description": f"{description} Needs a personal token with the scope{plural} "
        f"{named} (403 `missing_scope`, naming the first missing, without; 401 "
        "`account_token_required` with a seat token or none).",
        "extensions": {"x-required-scopes": list(scopes)},
    }


def _keyed(
    request: Request, account: AccountCredential, *what: Any
) -> idempotency.Idempotency | None:
    """The request's `Idempotency-Key`, in the scope of the account's keys."""
    key = idempotency_key(request)
    if key is None:
        return None
    scope = idempotency.account_scope(account.account_id)
    return idempotency.Idempotency(scope, key, idempotency.fingerprint(*what))


def _answered(
    request: Request,
    account: AccountCredential,
    what: tuple[Any, ...],
    perform: Callable[[], Challenge],
    status: int = 200,
) -> HttpResponseBase:
    """`perform` once per `Idempotency-Key`, answering the challenge it leaves (a retry: the
    first answer, byte for byte)."""

    def answer(_: object) -> idempotency.Answer:
        challenge = perform()
        return idempotency.Answer(status, play.challenge_data(challenge), None, challenge.game_id)

    return answer_response(idempotency.run(_keyed(request, account, *what), answer))


def _count_bot_seats(request: Request, bots: int) -> None:
    """A challenge's bots count against the address's `bot_seat` limit, as joins do (when the
    API's throttles are on: `THROTTLING`)."""
    if not APIView.throttle_classes or not bots:
        return
    throttle = PageBotSeatThrottle()
    for _ in range(bots):
        if not throttle.allow_request(request, None):
            raise Throttled(wait=throttle.wait())


class ChallengeListView(PerViewerView):
    """The account's challenges: list them, make one."""

    def get_throttles(self) -> list[Any]:
        throttles = super().get_throttles()
        if self.request.method == "POST" and throttles:
            throttles.append(ChallengeCreationThrottle())
        return throttles

    @extend_schema(
        operation_id="list_challenges",
        summary="List your challenges",
        tags=["challenges"],
        **needs(
            "The challenges you made (`direction=outgoing`) and received (`incoming`), or "
            "both, newest first, paged as the lobby is; `status=` keeps one status (`expired` "
            "as soon as a pending one's `expires_at` passes).",
            "challenge:read",
        ),
        parameters=[
            OpenApiParameter(
                "direction", str, enum=CHALLENGE_DIRECTIONS, description="Received or made."
            ),
            OpenApiParameter(
                "status", str, enum=CHALLENGE_STATUSES, description="Only in this status."
            ),
            OpenApiParameter(
                "limit", whole_number(1, MAX_PAGE), default=20, description="Page size."
            ),
            OpenApiParameter(
                "offset", whole_number(0, MAX_OFFSET), default=0, description="Items to skip."
            ),
            RETRY_AFTER,
        ],
        responses={200: ChallengeListSerializer, **problems(400, 401, 403)},
    )
    def get(self, request: Request) -> Response:
        credential = signed_in(request, "challenge:read")
        query = ChallengeListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        chosen = query.validated_data
        rows = play.challenges_of(
            credential.account_id, chosen.get("direction"), chosen.get("status")
        )
        paginator = GamePagination(chosen["limit"], chosen["offset"])
        page = paginator.paginate_queryset(rows, request, view=self)
        return paginator.get_paginated_response([play.challenge_data(c) for c in page or []])

    @extend_schema(
        operation_id="create_challenge",
        summary="Challenge players",
        tags=["challenges"],
        **needs(
            "A new game, waiting, for you and the accounts `players` names: you take seat 0 "
            "(your account's seat), the `bots` the seats after it, and a seat is held for "
            "each invitee until the challenge closes (anyone else joining gets 409 "
            "`seat_reserved`); seats beyond those are open to whoever has the game's link. "
            "Each invitee's account stream gets a `challenge` letter. The game is private "
            "unless `listed`. 400 `invalid_request` for too few seats, your own handle, a "
            "handle named twice or a built-in bot's (`errors.players`); 404 "
            "`player_not_found` for no such account. Rate limited per account (scope "
            "`challenge_create`, 60 an hour in production) and, for its bots, per address "
            "(`bot_seat`): 429 `throttled` beyond.",
            "challenge:write",
            "play",
        ),
        request=CreateChallengeSerializer,
        parameters=[IDEMPOTENCY_KEY, LOCATION, IDEMPOTENT_REPLAYED, RETRY_AFTER],
        responses={201: ChallengeSerializer, **problems(400, 401, 403, 404, 413, 415, 422)},
    )
    def post(self, request: Request) -> HttpResponseBase:
        credential = signed_in(request, "challenge:write")
        form = CreateChallengeSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        chosen = form.validated_data
        _count_bot_seats(request, len(chosen["bots"]))
        asked = play.ChallengeRequest(
            players=chosen["players"],
            seats=chosen["seats"],
            options=chosen.get("options"),
            bots=chosen["bots"],
            listed=chosen["listed"],
            expires_in=chosen["expires_in"],
            rated=chosen["rated"],
        )
        what = ("create_challenge", chosen)
        perform = partial(play.create_challenge, credential, asked)
        response = _answered(request, credential, what, perform, status=201)
        response["Location"] = f"/api/v1/challenges/{_challenge_id(response)}"
        return response


def _challenge_id(response: HttpResponseBase) -> str:
    """The id of the challenge an answer holds (as data, or as a replay's bytes)."""
    if isinstance(response, Response):
        return str(response.data["id"])
    assert isinstance(response, HttpResponse)
    return str(orjson.loads(response.content)["id"])


class ChallengeDetailView(PerViewerView):
    """One challenge, for its parties."""

    @extend_schema(
        operation_id="get_challenge",
        summary="Get a challenge",
        tags=["challenges"],
        **needs(
            "The challenge, for its challenger and its invitees (404 `challenge_not_found` "
            "for anyone else, as for no such challenge).",
            "challenge:read",
        ),
        parameters=[CHALLENGE_ID, RETRY_AFTER],
        responses={200: ChallengeSerializer, **problems(401, 403, 404)},
    )
    def get(self, request: Request, challenge_id: str) -> Response:
        credential = signed_in(request, "challenge:read")
        return Response(play.challenge_data(play.challenge_of(credential, challenge_id)))


def _empty_or(request: Request) -> Any:
    """A body that may be absent: `{}`."""
    return {} if request.data in (None, "") else request.data


class AcceptChallengeView(PerViewerView):
    @extend_schema(
        operation_id="accept_challenge",
        summary="Accept a challenge",
        tags=["challenges"],
        **needs(
            "An invitee takes the seat held for it in the challenge's game (its account's "
            "seat, as a join with a personal token). Once every invitee has, the challenge is "
            "`accepted`, and the game deals when its last seat is taken. Every party gets a "
            f"`challenge_accepted` letter. {_SEE_THE_LETTERS} Answers the challenge. 403 "
            "`not_invited` for its challenger; 409 `already_answered`, or "
            "`challenge_closed` once it is no longer pending (`challenge_status`: `expired` "
            "as soon as `expires_at` passes).",
            "challenge:write",
            "play",
        ),
        request=EmptySerializer,
        parameters=[CHALLENGE_ID, IDEMPOTENCY_KEY, IDEMPOTENT_REPLAYED, RETRY_AFTER],
        responses={200: ChallengeSerializer, **problems(400, 401, 403, 404, 409, 415, 422)},
    )
    def post(self, request: Request, challenge_id: str) -> HttpResponseBase:
        credential = signed_in(request, "challenge:write")
        EmptySerializer(data=_empty_or(request)).is_valid(raise_exception=True)
        what = ("accept_challenge", challenge_id)
        perform = partial(play.accept_challenge, credential, challenge_id)
        return _answered(request, credential, what, perform)


class DeclineChallengeView(PerViewerView):
    @extend_schema(
        operation_id="decline_challenge",
        summary="Decline a challenge",
        tags=["challenges"],
        **needs(
            "An invitee declines, saying why (`reason`, `generic` by default): the challenge "
            "is `declined` and its game called off (`GameCanceled`, reason `declined`). The "
            "challenger and the decliner get a `challenge_declined` letter, the other "
            f"invitees a `challenge_canceled`. {_SEE_THE_LETTERS} Answers the challenge. "
            "Refused as an accept is.",
            "challenge:write",
        ),
        request=DeclineSerializer,
        parameters=[CHALLENGE_ID, IDEMPOTENCY_KEY, IDEMPOTENT_REPLAYED, RETRY_AFTER],
        responses={200: ChallengeSerializer, **problems(400, 401, 403, 404, 409, 415, 422)},
    )
    def post(self, request: Request, challenge_id: str) -> HttpResponseBase:
        credential = signed_in(request, "challenge:write")
        form = DeclineSerializer(data=_empty_or(request))
        form.is_valid(raise_exception=True)
        reason = form.validated_data["reason"]
        what = ("decline_challenge", challenge_id, reason)
        perform = partial(play.decline_challenge, credential, challenge_id, reason)
        return _answered(request, credential, what, perform)


class CancelChallengeView(PerViewerView):
    @extend_schema(
        operation_id="cancel_challenge",
        summary="Cancel a challenge",
        tags=["challenges"],
        **needs(
            "The challenger calls its challenge off: `canceled`, and its game too "
            "(`GameCanceled`, reason `canceled`); every party gets a `challenge_canceled` "
            f"letter. {_SEE_THE_LETTERS} Answers the challenge. 403 `not_challenger` for an "
            "invitee; 409 `challenge_closed` once it is no longer pending.",
            "challenge:write",
        ),
        request=EmptySerializer,
        parameters=[CHALLENGE_ID, IDEMPOTENCY_KEY, IDEMPOTENT_REPLAYED, RETRY_AFTER],
        responses={200: ChallengeSerializer, **problems(400, 401, 403, 404, 409, 415, 422)},
    )
    def post(self, request: Request, challenge_id: str) -> HttpResponseBase:
        credential = signed_in(request, "challenge:write")
        EmptySerializer(data=_empty_or(request)).is_valid(raise_exception=True)
        what = ("cancel_challenge", challenge_id)
        perform = partial(play.cancel_challenge, credential, challenge_id)
        return _answered(request, credential, what, perform)
