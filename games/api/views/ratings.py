"""The `ratings` tag (R14): the leaderboards and a player's rating history, public reads.
Thin: the reading is `ratings.reading`'s; a player's rating on its profile and a rated game's
seats' ratings in its views are added where those are answered."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.services import find_player
from games.api.inputs import (
    LEADERBOARD_KINDS,
    MAX_HISTORY_PAGE,
    MAX_OFFSET,
    MAX_PAGE,
    LeaderboardQuerySerializer,
    RatingHistoryQuerySerializer,
)
from games.api.schema import RETRY_AFTER, problems, whole_number
from games.api.shapes import LeaderboardSerializer, RatingHistorySerializer
from games.api.views.lobby import GamePagination
from games.core.resources import iso_time
from ratings import reading
from ratings.skill import ESTABLISHED_GAMES


class NamedPagination(GamePagination):
    """The lobby's pages (`count`, `next`, `previous`, `limit` and `offset` validated) whose
    items are named for what they are (`entries`, `history`) rather than `results`."""

    def __init__(self, limit: int, offset: int, items: str) -> None:
        super().__init__(limit, offset)
        self.items = items

    def get_paginated_response(self, data: Any) -> Response:
        return Response(self.page_data(data))

    def page_data(self, data: Any) -> dict[str, Any]:
        return {
            "count": self.count,
            "next": self.get_next_link(),
            "previous": self.get_previous_link(),
            self.items: data,
        }


def _page(default: int, maximum: int, what: str) -> list[OpenApiParameter]:
    return [
        OpenApiParameter(
            "limit", whole_number(1, maximum), default=default, description="Page size."
        ),
        OpenApiParameter(
            "offset", whole_number(0, MAX_OFFSET), default=0, description=f"{what} to skip."
        ),
        RETRY_AFTER,
    ]


class LeaderboardView(APIView):
    """A leaderboard: the same for everyone, so shared caches may keep it."""

    @extend_schema(
        operation_id="get_leaderboard",
        summary="Get a leaderboard",
        description="The ratings of people (`kind=person`, the default) or of bots "
        "(`kind=bot`: bot accounts and the built-in bots, rated in the same pool as people's "
        "games), best `ordinal` (`mu - 3 * sigma`) first, ties by handle; `rank` counts "
        f"across the pages. Established ratings only ({ESTABLISHED_GAMES} rated games or "
        "more) unless `provisional=true`. Deleted accounts are left out. Every parameter is "
        "checked: a bad value is refused with 400 `invalid_request`, the parameter named in "
        "`errors`.",
        tags=["ratings"],
        auth=[],
        parameters=[
            OpenApiParameter(
                "kind",
                str,
                enum=LEADERBOARD_KINDS,
                default="person",
                description="Whose board: people's or bots'.",
            ),
            OpenApiParameter(
                "provisional",
                bool,
                default=False,
                description=f"`true`: the provisional ratings too (fewer than {ESTABLISHED_GAMES}"
                " rated games, shown with a “?”). `true` or `false` only.",
            ),
            *_page(20, MAX_PAGE, "Entries"),
        ],
        responses={200: LeaderboardSerializer, **problems(400)},
    )
    def get(self, request: Request) -> Response:
        query = LeaderboardQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        chosen = query.validated_data
        paginator = NamedPagination(chosen["limit"], chosen["offset"], "entries")
        board = reading.leaderboard(chosen["kind"], provisional=chosen["provisional"])
        page = paginator.paginate_queryset(board, request, view=self) or []
        first = chosen["offset"] + 1
        entries = [_entry(first + n, rating) for n, rating in enumerate(page)]
        return paginator.get_paginated_response(entries)


def _entry(rank: int, rating: Any) -> dict[str, Any]:
    entry = reading.leaderboard_entry(rank, rating)
    played = entry["last_played"]
    return {**entry, "last_played": None if played is None else iso_time(played)}


class PlayerRatingsView(APIView):
    """A player's rating and its history, public."""

    @extend_schema(
        operation_id="get_player_ratings",
        summary="Get a player's rating history",
        description="The player's rating now and one point per rated game it played, oldest "
        "first: the game, when it was rated, its rank among how many seats, and its rating "
        "after it. Paged (`limit` up to 1000, for charts). 404 `player_not_found` for no such "
        "player, as `GET /api/v1/players/{handle}`.",
        tags=["ratings"],
        auth=[],
        parameters=_page(100, MAX_HISTORY_PAGE, "Points"),
        responses={200: RatingHistorySerializer, **problems(400, 404)},
    )
    def get(self, request: Request, handle: str) -> Response:
        query = RatingHistoryQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        chosen = query.validated_data
        account = find_player(handle)
        paginator = NamedPagination(chosen["limit"], chosen["offset"], "history")
        changes = reading.history_changes(account)
        page = paginator.paginate_queryset(changes, request, view=self) or []
        points = paginator.page_data([_point(change) for change in page])
        rating = reading.account_rating(account)
        return Response({"handle": account.handle, "rating": rating, **points})


def _point(change: Any) -> dict[str, Any]:
    point = reading.history_point(change)
    return {**point, "game": str(point["game"]), "at": iso_time(point["at"])}
