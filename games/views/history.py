"""HTTP views of game histories: the event feed, the full history, and import."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status as http
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import idempotency, log, services
from ..api.headers import seat_credential
from ..api.throttling import GameCreationThrottle
from ..history import export_history
from ..inputs import (
    EventsQuerySerializer,
)
from ..presenters import event_feed, game_data
from ..schema import (
    GAME_ID,
    IDEMPOTENCY_KEY,
    IDEMPOTENT_REPLAYED,
    LOCATION,
    RETRY_AFTER,
    SEAT_OR_SPECTATOR,
    problems,
    whole_number,
)
from ..shapes import (
    EventFeedSerializer,
    HistorySerializer,
    ImportedGameSerializer,
)
from .common import PerViewerView, answer_response, keyed_by_address


class EventFeedView(PerViewerView):
    """The log, event by event, as the caller may see it: poll it to follow a game."""

    @extend_schema(
        operation_id="list_events",
        summary="Follow a game's events",
        description="The events after sequence `after`, at most `limit`, each as the caller "
        "may see it (a seat with its token, else a spectator): a deal shows no card but the "
        "first discard, a draw shows its value to the drawer only (R7). Once the game is "
        "finished nothing is hidden. Poll with `after` set to the last `sequence` you have.",
        tags=["history"],
        auth=SEAT_OR_SPECTATOR,
        parameters=[
            GAME_ID,
            OpenApiParameter(
                "after", whole_number(0), description="Sequence to start after (default 0)."
            ),
            OpenApiParameter(
                "limit", whole_number(1, 1000), description="At most this many (default 100)."
            ),
            RETRY_AFTER,
        ],
        responses={200: EventFeedSerializer, **problems(400, 401, 404)},
    )
    def get(self, request: Request, game_id: str) -> Response:
        game, seat = services.game_and_seat(game_id, seat_credential(request), required=False)
        query = EventsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        after, limit = query.validated_data["after"], query.validated_data["limit"]
        return Response(event_feed(game, log.events(game, after, limit=limit), seat))


class HistoryView(APIView):
    """The complete log of a finished game, nothing hidden, in the documented format."""

    @extend_schema(
        operation_id="get_history",
        summary="Export a finished game's history",
        description="Every event with its full payload (deck orders and drawn cards included), "
        "in format `skyjo-history` version 1. Refused with 409 `game_not_finished` before the "
        "end, since it reveals every hidden card. `import_history` takes it back.",
        tags=["history"],
        auth=[],
        parameters=[GAME_ID, RETRY_AFTER],
        responses={200: HistorySerializer, **problems(404, 409)},
    )
    def get(self, request: Request, game_id: str) -> Response:
        return Response(export_history(services.get_game(game_id)))


class ImportView(PerViewerView):
    """A new game from a history document, replayed and checked by the rules."""

    def get_throttles(self) -> list[Any]:
        throttles = super().get_throttles()
        return [*throttles, GameCreationThrottle()] if throttles else throttles

    @extend_schema(
        operation_id="import_history",
        summary="Import a history as a new game",
        description="Replays every event through the rules. A finished history becomes a "
        "finished game; an unfinished one a playable game, with a new token for each joined "
        "seat in `seat_tokens`. An invalid history is refused with 400 `invalid_history`, "
        "naming the first offending event's `sequence` and the `rule_code`.",
        tags=["history"],
        auth=[],
        request=HistorySerializer,
        parameters=[IDEMPOTENCY_KEY, LOCATION, IDEMPOTENT_REPLAYED, RETRY_AFTER],
        responses={201: ImportedGameSerializer, **problems(400, 409, 413, 415, 422)},
    )
    def post(self, request: Request) -> Response:
        document = request.data
        keyed = keyed_by_address(request, "import_history", document)
        answer = idempotency.run(
            keyed,
            lambda audited: _imported(document, audited),
            prepare=lambda: services.audit_history(document),
        )
        response = answer_response(answer)
        response["Location"] = f"/api/v1/games/{answer.game_id}"
        response["Cache-Control"] = "no-store"
        return response


def _imported(document: Any, audited: Any) -> idempotency.Answer:
    imported = services.import_history(document, audited)
    body = {
        **game_data(imported.game, imported.state, None),
        "seat_tokens": imported.seat_tokens,
    }
    tokens = [(seat["seat"], seat["token"]) for seat in imported.seat_tokens]
    version = imported.state.version
    return idempotency.Answer(http.HTTP_201_CREATED, body, version, imported.game.id, tokens)
