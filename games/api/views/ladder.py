"""The `ladder` tag: the bot ladder. A bot account opts in (or out) and reads the ladder's
table. Thin: the use cases are the ratings' (`ratings.ladder`); the bodies' serializers are in
`games.api.inputs`, the answers' shapes in `games.api.shapes`."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status as http
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.inputs import JoinLadderSerializer, LadderQuerySerializer
from games.api.schema import RETRY_AFTER, every_scope, problems, scoped, whole_number
from games.api.shapes import LadderEntrySerializer, LadderSerializer
from games.api.views.accounts import NO_CONTENT, signed_in
from games.api.views.common import PerViewerView
from ratings import ladder

#: How the ladder deals its games, for the operations' descriptions (docs/CLIENTS.md too).
LADDER_RULES = (
    "While a laddered bot is present (its account stream, `GET /api/v1/account/stream`, open, "
    "or its events polled at least every `SEEK_IDLE_SECONDS`, 30 s), the service's workers "
    "deal it ladder games in duplicate sets: one seed played once per rotation of the seats, "
    "so each bot of the set plays every seat of the same deal (its account stream gets "
    "`game_started` for each; play them with the account's token). The set's other seats go "
    "to other present laddered bots, else to the built-in bots. Ladder games are rated, "
    f"listed, with a `turn_seconds` of {ladder.LADDER_TURN_SECONDS} s. Bounds per bot: one "
    f"unfinished set at a time, {ladder.LADDER_SETS_PER_HOUR} sets begun in any hour."
)


class AccountLadderView(PerViewerView):
    """The bot's place on the ladder: join it, or leave it."""

    @extend_schema(
        operation_id="join_ladder",
        summary="Join the bot ladder",
        tags=["ladder"],
        **scoped(
            f"Puts your bot account on the ladder for `seats` (2 to 8 each; `[2]` by "
            f"default): 201 the first time, 200 when it was on it already (its seat counts "
            f"replaced, `joined_at` kept). {LADDER_RULES} 403 `bot_account_required` for a "
            "person's account.",
            every_scope("play"),
        ),
        request=JoinLadderSerializer,
        parameters=[RETRY_AFTER],
        responses={
            200: LadderEntrySerializer,
            201: LadderEntrySerializer,
            **problems(400, 401, 403, 415),
        },
    )
    def post(self, request: Request) -> Response:
        account = signed_in(request, "play")
        form = JoinLadderSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        entry, created = ladder.join_ladder(account, form.validated_data["seats"])
        data = ladder.entry_data(entry)
        return Response(data, status=http.HTTP_201_CREATED if created else http.HTTP_200_OK)

    @extend_schema(
        operation_id="leave_ladder",
        summary="Leave the bot ladder",
        tags=["ladder"],
        **scoped(
            "Takes your bot off the ladder: no more sets are dealt to it (204, also when it "
            "was not on it). Its games under way are played to their end, rated like any.",
            every_scope("play"),
        ),
        request=None,
        parameters=[RETRY_AFTER],
        responses={204: NO_CONTENT, **problems(401, 403)},
    )
    def delete(self, request: Request) -> Response:
        ladder.leave_ladder(signed_in(request, "play"))
        return Response(status=http.HTTP_204_NO_CONTENT)


class LadderView(PerViewerView):
    """The ladder's table at a seat count."""

    @extend_schema(
        operation_id="get_ladder",
        summary="Get the bot ladder",
        description="The ladder at `seats` seats: each bot with a complete duplicate set "
        "there (built-in bots included) and each laddered bot that plays that many seats, "
        "best rating first (its `ordinal`, mu - 3 sigma; the rating is the account's one, "
        "every rated game counting). Beside it, `mean_score`: the bot's mean score per deal "
        "across its complete sets (a set's score: its mean final total over the set's "
        "games; lower is better), and `interval`, that mean's 95% interval bootstrapped "
        f"over the sets. {LADDER_RULES}",
        tags=["ladder"],
        auth=[],
        parameters=[
            OpenApiParameter(
                "seats", whole_number(2, 8), default=2, description="The seat count (2 to 8)."
            ),
            RETRY_AFTER,
        ],
        responses={200: LadderSerializer, **problems(400)},
    )
    def get(self, request: Request) -> Response:
        query = LadderQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        return Response(ladder.table(query.validated_data["seats"]))
