"""HTTP views: parse and validate, call a service, present the result. Nothing else."""

from __future__ import annotations

from typing import Any, ClassVar

from rest_framework import status as http
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engine import DISCARD, DRAW, TAKE_DISCARD, Replace, Reveal, TurnAction

from . import services
from .auth import SeatCredential
from .http import etag, idempotency_key, if_none_match, parse_version_header
from .models import Game, Status
from .presenters import game_data, game_summary
from .problems import Problem
from .serializers import (
    CreateGameSerializer,
    EmptySerializer,
    JoinSerializer,
    PositionSerializer,
)
from .throttling import GameCreationThrottle


def _credential(request: Request) -> SeatCredential | None:
    return request.auth if isinstance(request.auth, SeatCredential) else None


def _with_etag(response: Response, version: int) -> Response:
    response["ETag"] = etag(version)
    response["Vary"] = "Authorization"
    return response


class GamePagination(LimitOffsetPagination):
    default_limit = 20
    max_limit = 100


class GameListView(APIView):
    """The lobby: list games (filter by status) and create one."""

    def get_throttles(self) -> list[Any]:
        throttles = super().get_throttles()
        if self.request.method == "POST" and throttles:
            throttles.append(GameCreationThrottle())
        return throttles

    def get(self, request: Request) -> Response:
        games = Game.objects.prefetch_related("seat_rows").order_by("-created_at")
        wanted = request.query_params.get("status")
        if wanted is not None:
            if wanted not in Status.values:
                raise Problem(
                    400,
                    "invalid_request",
                    f"Unknown status {wanted!r}.",
                    errors={"status": [f"Expected one of: {', '.join(Status.values)}."]},
                )
            games = games.filter(status=wanted)
        paginator = GamePagination()
        page = paginator.paginate_queryset(games, request, view=self)
        return paginator.get_paginated_response([game_summary(g) for g in page or []])

    def post(self, request: Request) -> Response:
        form = CreateGameSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        game = services.create_game(
            seats=form.validated_data["seats"],
            options=form.validated_data.get("options"),
            seed=form.validated_data.get("seed"),
        )
        state = services.game_state(game)
        response = Response(game_data(game, state, None), status=http.HTTP_201_CREATED)
        response["Location"] = f"/api/v1/games/{game.id}"
        return _with_etag(response, state.version)


class GameDetailView(APIView):
    """One game as the caller may see it: a seat's view with its token, else a spectator's."""

    def get(self, request: Request, game_id: str) -> Response:
        game = services.get_game(game_id)
        seat = services.seat_of(game, _credential(request), required=False)
        tags = if_none_match(request)
        if "*" in tags or str(game.version) in tags:
            return _with_etag(Response(status=http.HTTP_304_NOT_MODIFIED), game.version)
        state = services.game_state(game)
        return _with_etag(Response(game_data(game, state, seat)), state.version)


class JoinView(APIView):
    """Take the next open seat; the answer holds the seat's token, shown only this once."""

    def post(self, request: Request, game_id: str) -> Response:
        form = JoinSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        joined = services.join_game(game_id, form.validated_data["name"])
        body = {
            "seat": joined.seat,
            "name": joined.name,
            "token": joined.token,
            "game": game_data(joined.game, joined.state, joined.seat),
        }
        response = Response(body, status=http.HTTP_201_CREATED)
        response["Cache-Control"] = "no-store"
        return _with_etag(response, joined.state.version)


class ActionView(APIView):
    """A turn action by the seat whose token is presented; answers that seat's new view."""

    kind: ClassVar[str]
    input_serializer: ClassVar[type] = EmptySerializer

    def make_action(self, data: dict[str, Any]) -> TurnAction:
        raise NotImplementedError

    def post(self, request: Request, game_id: str) -> Response:
        raw = request.data if request.data not in (None, "") else {}
        form = self.input_serializer(data=raw)
        form.is_valid(raise_exception=True)
        result = services.perform_action(
            game_id,
            _credential(request),
            self.make_action(form.validated_data),
            expected_version=parse_version_header(request, "If-Match"),
            idempotency_key=idempotency_key(request),
            fingerprint=services.request_fingerprint(self.kind, form.validated_data),
        )
        response = Response(result.body)
        if result.replayed:
            response["Idempotent-Replayed"] = "true"
        return _with_etag(response, result.version)


class RevealView(ActionView):
    kind = "reveal"
    input_serializer = PositionSerializer

    def make_action(self, data: dict[str, Any]) -> TurnAction:
        return Reveal(data["column"], data["row"])


class DrawView(ActionView):
    kind = "draw"

    def make_action(self, data: dict[str, Any]) -> TurnAction:
        return DRAW


class TakeDiscardView(ActionView):
    kind = "take_discard"

    def make_action(self, data: dict[str, Any]) -> TurnAction:
        return TAKE_DISCARD


class ReplaceView(ActionView):
    kind = "replace"
    input_serializer = PositionSerializer

    def make_action(self, data: dict[str, Any]) -> TurnAction:
        return Replace(data["column"], data["row"])


class DiscardView(ActionView):
    kind = "discard"

    def make_action(self, data: dict[str, Any]) -> TurnAction:
        return DISCARD
