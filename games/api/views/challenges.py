"""The `challenges` tag: an account challenges others to a game, they accept or decline, the
challenger cancels, and the parties list and read their challenges. Thin: the use cases are
`play`'s (`play.challenges`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from django.db import transaction
from django.http import HttpResponseBase
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import Throttled
from rest_framework.request import Request
from rest_framework.response import Response

import play
from accounts.credentials import AccountCredential
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
    IDEMPOTENCY_KEY,
    IDEMPOTENT_REPLAYED,
    RETRY_AFTER,
    every_scope,
    problems,
    scoped,
    whole_number,
)
from games.api.shapes import CHALLENGE_STATUSES, ChallengeListSerializer, ChallengeSerializer
from games.api.throttling import challenge_wait
from games.api.views.accounts import signed_in
from games.api.views.common import (
    PerViewerView,
    answer_response,
    answered_id,
    keyed_by_account,
)
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


def _answered(
    request: Request,
    account: AccountCredential,
    what: tuple[Any, ...],
    perform: Callable[[], Challenge],
    status: int = 200,
) -> idempotency.Answer:
    """`perform` once per `Idempotency-Key` (the account's), answering the challenge it leaves
    (a retry: the first answer, byte for byte)."""

    def answer(_: object) -> idempotency.Answer:
        challenge = perform()
        return idempotency.Answer(status, play.challenge_data(challenge), None, challenge.game_id)

    return idempotency.run(keyed_by_account(request, account.account_id, *what), answer)


def _made_within_limits(
    request: Request, challenger: AccountCredential, asked: play.ChallengeRequest
) -> Challenge:
    """The challenge made, then counted against its limits (`challenge_wait`): once it is
    valid, and once (a replay performs nothing); refused, it is rolled back with its game."""
    with transaction.atomic():
        challenge = play.create_challenge(challenger, asked)
        wait = challenge_wait(request, challenger, len(asked.bots))
        if wait is not None:
            raise Throttled(wait=wait)
    return challenge


class ChallengeListView(PerViewerView):
    """The account's challenges: list them, make one."""

    @extend_schema(
        operation_id="list_challenges",
        summary="List your challenges",
        tags=["challenges"],
        **scoped(
            "The challenges you made (`direction=outgoing`) and received (`incoming`), or "
            "both, newest first, paged as the lobby is; `status=` keeps one status (`expired` "
            "as soon as a pending one's `expires_at` passes).",
            every_scope("challenge:read"),
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
        **scoped(
            "A new game, waiting, for you and the accounts `players` names: you take seat 0 "
            "(your account's seat), the `bots` the seats after it, and a seat is held for "
            "each invitee until the challenge closes (anyone else joining gets 409 "
            "`seat_reserved`); seats beyond those are open to whoever has the game's link. "
            "Each invitee's account stream gets a `challenge` letter. The game is private "
            "unless `listed`. 400 `invalid_request` for too few seats, your own handle, a "
            "handle named twice or a built-in bot's (`errors.players`); 404 "
            "`player_not_found` for no such account. Rate limited per account (scope "
            "`challenge_create`, 60 an hour in production) and, for its bots, per address "
            "(`bot_seat`), counted once per challenge made (neither a refused one nor a replay "
            "counts): 429 `throttled` beyond, and nothing is made.",
            every_scope("challenge:write", "play"),
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
        perform = partial(_made_within_limits, request, credential, asked)
        answer = _answered(request, credential, what, perform, status=201)
        response = answer_response(answer)
        response["Location"] = f"/api/v1/challenges/{answered_id(answer)}"
        return response


class ChallengeDetailView(PerViewerView):
    """One challenge, for its parties."""

    @extend_schema(
        operation_id="get_challenge",
        summary="Get a challenge",
        tags=["challenges"],
        **scoped(
            "The challenge, for its challenger and its invitees (404 `challenge_not_found` "
            "for anyone else, as for no such challenge).",
            every_scope("challenge:read"),
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
        **scoped(
            "An invitee takes the seat held for it in the challenge's game (its account's "
            "seat, as a join with a personal token). Once every invitee has, the challenge is "
            "`accepted`, and the game deals when its last seat is taken. Every party gets a "
            f"`challenge_accepted` letter. {_SEE_THE_LETTERS} Answers the challenge. 403 "
            "`not_invited` for its challenger; 409 `already_answered`, or "
            "`challenge_closed` once it is no longer pending (`challenge_status`: `expired` "
            "as soon as `expires_at` passes).",
            every_scope("challenge:write", "play"),
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
        return answer_response(_answered(request, credential, what, perform))


class DeclineChallengeView(PerViewerView):
    @extend_schema(
        operation_id="decline_challenge",
        summary="Decline a challenge",
        tags=["challenges"],
        **scoped(
            "An invitee declines, saying why (`reason`, `generic` by default): the challenge "
            "is `declined` and its game called off (`GameCanceled`, reason `declined`). The "
            "challenger and the decliner get a `challenge_declined` letter, the other "
            f"invitees a `challenge_canceled`. {_SEE_THE_LETTERS} Answers the challenge. "
            "Refused as an accept is.",
            every_scope("challenge:write"),
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
        return answer_response(_answered(request, credential, what, perform))


class CancelChallengeView(PerViewerView):
    @extend_schema(
        operation_id="cancel_challenge",
        summary="Cancel a challenge",
        tags=["challenges"],
        **scoped(
            "The challenger calls its challenge off: `canceled`, and its game too "
            "(`GameCanceled`, reason `canceled`); every party gets a `challenge_canceled` "
            f"letter. {_SEE_THE_LETTERS} Answers the challenge. 403 `not_challenger` for an "
            "invitee; 409 `challenge_closed` once it is no longer pending.",
            every_scope("challenge:write"),
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
        return answer_response(_answered(request, credential, what, perform))
