"""HTTP views of game histories: the event feed, the full history, and import."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpResponseBase
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status as http
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import core
from games.api.documents import audited_history
from games.api.headers import if_none_match, seat_credential
from games.api.inputs import MAX_WAIT_SECONDS, EventsQuerySerializer
from games.api.schema import (
    AFTER,
    ETAG,
    GAME_ID,
    IDEMPOTENCY_KEY,
    IDEMPOTENT_REPLAYED,
    IF_NONE_MATCH,
    LIMIT,
    LOCATION,
    RETRY_AFTER,
    SEAT_OR_SPECTATOR,
    problems,
    whole_number,
)
from games.api.shapes import (
    EventFeedSerializer,
    HistorySerializer,
    ImportedGameSerializer,
)
from games.api.throttling import GameCreationThrottle
from games.api.views.common import (
    PerViewerView,
    answer_response,
    client_address,
    keyed_by_address,
    with_etag,
)
from games.core import idempotency
from games.core.resources import event_feed, game_data
from games.core.tokens import Credential
from games.live.fanout import LONG_POLL, hub, release_connections
from games.models import Game


class EventFeedView(PerViewerView):
    """The log, event by event, as the caller may see it: poll it to follow a game."""

    @extend_schema(
        operation_id="list_events",
        summary="Follow a game's events",
        description="The events after sequence `after`, at most `limit`, each as the caller "
        "may see it (a seat with its token, else a spectator): a deal shows no card but the "
        "first discard, a draw shows its value to the drawer only (R7). Once the game is "
        "finished nothing is hidden. Poll with `after` set to the last `sequence` you have, "
        "and `wait` to be answered as soon as there is news (or stream the game: "
        "`GET /api/v1/games/{id}/stream`). The `ETag` is the game's version. A long poll "
        "answers as its token stands when it answers: a token rotated, or a seat left, while "
        "it waited is refused with 401.",
        tags=["history"],
        auth=SEAT_OR_SPECTATOR,
        parameters=[
            GAME_ID,
            AFTER,
            LIMIT,
            OpenApiParameter(
                "wait",
                whole_number(0, MAX_WAIT_SECONDS),
                description="Long poll: when there is no event after `after` yet, wait up to "
                "this many seconds for one, and answer as soon as it comes (an empty list "
                "when none did). Default 0: answer at once. A waiting long poll holds one of "
                "the places streams hold: when there is none it is refused at once with 503 "
                "`too_many_streams`, past the places one address may hold with 429 "
                "`too_many_streams_from_address` (both with `Retry-After`); without `wait` "
                "it never is.",
            ),
            IF_NONE_MATCH,
            ETAG,
            RETRY_AFTER,
        ],
        responses={
            200: EventFeedSerializer,
            304: OpenApiResponse(description="Unchanged: `If-None-Match` names this version."),
            **problems(400, 401, 404, 503),
        },
    )
    def get(self, request: Request, game_id: str) -> HttpResponseBase:
        credential = seat_credential(request)
        game, seat = core.game_and_seat(game_id, credential, required=False)
        query = EventsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        after, limit, wait = (query.validated_data[name] for name in ("after", "limit", "wait"))
        if wait and game.version <= after:
            game, seat = _waited_for(game, after, wait, credential, client_address(request))
        tags = if_none_match(request)
        if "*" in tags or str(game.version) in tags:
            return with_etag(Response(status=http.HTTP_304_NOT_MODIFIED), game.version)
        feed = event_feed(
            game, core.logged_events(game, after, upto=game.version, limit=limit), seat
        )
        return with_etag(Response(feed), game.version)


def _waited_for(
    game: Game, after: int, seconds: int, credential: Credential | None, address: str
) -> tuple[Game, int | None]:
    """The game once it is past `after`, or as it is after `seconds` (a long poll), and the
    seat `credential` stands for then: a token rotated or a seat left meanwhile answers 401,
    never the seat's cards. No database connection is held while waiting. The wait holds a
    thread: one of the places streams take too (`hub.reserve`), refused at once when there
    is none."""
    with hub.reserve(LONG_POLL, address):
        release_connections()
        with hub.watching(game.id, game.version):
            hub.wait_beyond(game.id, after, min(seconds, settings.LIVE_LONG_POLL_SECONDS))
    return core.game_and_seat(game.id, credential, required=False)


class HistoryView(APIView):
    """The complete log of a finished game, nothing hidden, in the documented format."""

    @extend_schema(
        operation_id="get_history",
        summary="Export a finished game's history",
        description="Every event with its full payload (deck orders and drawn cards included), "
        "in format `skyjo-history` version 1. Refused with 409 `game_not_finished` before the "
        "end, since it reveals every hidden card; a game called off (`canceled`) has ended "
        "too. `import_history` takes it back.",
        tags=["history"],
        auth=[],
        parameters=[GAME_ID, RETRY_AFTER],
        responses={200: HistorySerializer, **problems(404, 409)},
    )
    def get(self, request: Request, game_id: str) -> Response:
        return Response(core.export_history(core.get_game(game_id)))


class ImportView(PerViewerView):
    """A new game from a history document, replayed and checked by the rules."""

    def get_throttles(self) -> list[Any]:
        throttles = super().get_throttles()
        return [*throttles, GameCreationThrottle()] if throttles else throttles

    @extend_schema(
        operation_id="import_history",
        summary="Import a history as a new game",
        description="Replays every event through the rules. A finished history becomes a "
        "finished game, a canceled one (`GameCanceled`) a canceled game, neither with tokens; "
        "an unfinished one a playable game, with a new token for each joined "
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
            _imported,
            prepare=lambda: audited_history(document),
        )
        response = answer_response(answer)
        response["Location"] = f"/api/v1/games/{answer.game_id}"
        response["Cache-Control"] = "no-store"
        return response


def _imported(audited: core.AuditedHistory) -> idempotency.Answer:
    imported = core.import_history(audited)
    body = {
        **game_data(imported.game, imported.state, None),
        "seat_tokens": imported.seat_tokens,
    }
    tokens = [(seat["seat"], seat["token"]) for seat in imported.seat_tokens]
    version = imported.state.version
    return idempotency.Answer(http.HTTP_201_CREATED, body, version, imported.game.id, tokens)
