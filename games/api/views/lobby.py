"""The `lobby` tag: list, create, read and join games; rotate a seat's token."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
)
from rest_framework import status as http
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.credentials import AccountCredential
from accounts.errors import AccountRequired
from engine.options import MAX_SEATS, MIN_SEATS
from games import core
from games.api.headers import (
    account_credential,
    idempotency_key,
    if_none_match,
    seat_credential,
)
from games.api.inputs import (
    GAME_ORDERINGS,
    GAME_STATUS_FILTERS,
    MAX_OFFSET,
    MAX_PAGE,
    AtQuerySerializer,
    CreateGameSerializer,
    EmptySerializer,
    GameListQuerySerializer,
    JoinSerializer,
)
from games.api.schema import (
    BOT_JOIN_EXAMPLE,
    CREATE_EXAMPLE,
    ETAG,
    GAME_ID,
    IDEMPOTENCY_KEY,
    IDEMPOTENT_REPLAYED,
    IF_NONE_MATCH,
    JOIN_EXAMPLE,
    LOCATION,
    RETRY_AFTER,
    SEAT,
    SEAT_ONLY,
    SEAT_OR_SPECTATOR,
    STREAM_LINK,
    every_scope,
    problems,
    scoped,
    whole_number,
)
from games.api.shapes import (
    JOINED,
    BotSerializer,
    GameListSerializer,
    GameSerializer,
    SeatTokenSerializer,
)
from games.api.throttling import BotSeatThrottle, GameCreationThrottle
from games.api.views.common import (
    PerViewerView,
    answer_response,
    authenticated_before_bad_request,
    client_address,
    keyed_by_account,
    keyed_by_address,
    keyed_by_seat,
    with_etag,
    with_stream_link,
)
from games.core import bots, idempotency
from games.core.errors import InvalidRequest
from games.core.resources import game_data, game_summary
from games.core.tokens import Credential
from games.models import Game, Status
from ratings.ladder import with_duplicate_sets


class GamePagination(LimitOffsetPagination):
    """Pages of the validated `limit` and `offset` (DRF's own parsing would silently fall back
    to defaults on bad values); `next` and `previous` links as DRF writes them."""

    max_limit = MAX_PAGE

    def __init__(self, limit: int, offset: int) -> None:
        self.default_limit = self.chosen_limit = limit
        self.chosen_offset = offset

    def get_limit(self, request: Request) -> int:
        return self.chosen_limit

    def get_offset(self, request: Request) -> int:
        return self.chosen_offset


class GameListView(APIView):
    """The lobby: list games (filter by status) and create one."""

    def get_throttles(self) -> list[Any]:
        throttles = super().get_throttles()
        if self.request.method == "POST" and throttles:
            throttles.append(GameCreationThrottle())
        return throttles

    @extend_schema(
        operation_id="list_games",
        summary="List games",
        description="Newest first unless `ordering` says otherwise. Filter by "
        "`status=waiting&open_seats=1&seeded=false` to find games to join. Private games "
        "(`listed: false`) are left out, but for a request with a personal token: its "
        "account's own (those it sits in, holds a seat of, or created) are listed too. Stale "
        "games, "
        "unfinished ones whose last event (`updated_at`) is older than the service's "
        "`LOBBY_STALE_AFTER_SECONDS` (an hour by default), are left out unless `stale=true`: "
        "no one moves them (a seat's player may never come back), so they are not worth "
        "joining or watching. Every parameter is checked: a value outside its type, enum or "
        "bounds is refused with 400 `invalid_request`, the parameter named in `errors`.",
        tags=["lobby"],
        auth=[],
        parameters=[
            OpenApiParameter(
                "status", str, enum=GAME_STATUS_FILTERS, description="Only games in this status."
            ),
            OpenApiParameter(
                "seats",
                whole_number(MIN_SEATS, MAX_SEATS),
                description="Only games of exactly this many seats.",
            ),
            OpenApiParameter(
                "open_seats",
                whole_number(1, MAX_SEATS),
                description="Only games with at least this many open seats.",
            ),
            OpenApiParameter(
                "seeded",
                bool,
                description="`false`: only games with a secret seed, which no one can have "
                "rigged; `true`: only games created with an explicit `seed` (whoever knows it "
                "knows every card). `true` or `false` only.",
            ),
            OpenApiParameter(
                "stale",
                bool,
                default=False,
                description="`true`: every game, the stale ones too (waiting, setup or playing "
                "games no one has moved for `LOBBY_STALE_AFTER_SECONDS`); `false`: only the "
                "games moved since and the finished ones. `true` or `false` only.",
            ),
            OpenApiParameter(
                "ordering",
                str,
                enum=GAME_ORDERINGS,
                default="-created_at",
                description="Sort by creation or by last event (`updated_at`); `-`: newest "
                "first. Ties in the order of the games' ids.",
            ),
            OpenApiParameter(
                "limit", whole_number(1, MAX_PAGE), default=20, description="Page size."
            ),
            OpenApiParameter(
                "offset", whole_number(0, MAX_OFFSET), default=0, description="Games to skip."
            ),
            RETRY_AFTER,
        ],
        responses={200: GameListSerializer, **problems(400)},
    )
    def get(self, request: Request) -> Response:
        query = GameListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        chosen = query.validated_data
        paginator = GamePagination(chosen["limit"], chosen["offset"])
        viewer = account_credential(request)
        games = core.listed_games(chosen, viewer=None if viewer is None else viewer.account_id)
        page = paginator.paginate_queryset(games, request, view=self)
        summaries = with_duplicate_sets([game_summary(g) for g in page or []])
        answer = paginator.get_paginated_response(summaries)
        return _per_account(answer, viewer is not None)

    @extend_schema(
        operation_id="create_game",
        summary="Create a game",
        description="A new game in status `waiting`, seen as a spectator, with its "
        "`invite_url` (its table page). Players then join. `listed: false` makes it private: "
        "lobbies leave it out, its link is the invitation. A personal token is optional (a "
        "guest creates as well): with one, its account is the game's creator, sees the game "
        "in its lobby, and may reserve seats (`reserved`, scope `play`) and free them. "
        "`rated: true` makes it a rated game (R14): accounts only, each once; a guest's join "
        "gets 409 `account_required`.",
        tags=["lobby"],
        auth=[],
        request=CreateGameSerializer,
        examples=[CREATE_EXAMPLE],
        parameters=[
            IDEMPOTENCY_KEY,
            ETAG,
            LOCATION,
            STREAM_LINK,
            IDEMPOTENT_REPLAYED,
            RETRY_AFTER,
        ],
        responses={201: GameSerializer, **problems(400, 401, 403, 404, 409, 413, 415, 422)},
    )
    def post(self, request: Request) -> Response:
        creator = account_credential(request)
        form = CreateGameSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        chosen = form.validated_data
        who = None if creator is None else creator.account_id
        keyed = keyed_by_address(request, "create_game", chosen, who)
        answer = idempotency.run(keyed, lambda _: _created(request, chosen, creator))
        response = answer_response(answer)
        response["Location"] = f"/api/v1/games/{answer.game_id}"
        return with_etag(with_stream_link(response, answer.game_id), answer.version or 0)


def _per_account(response: Response, personal: bool) -> Response:
    """The lobby answers everyone alike, and a shared cache may keep it; but an account's
    list holds its private games too: it varies with `Authorization`, and one asked with a
    personal token stays out of shared caches."""
    patch_vary_headers(response, ("Authorization",))
    if personal:
        patch_cache_control(response, private=True)
    return response


def _created(
    request: Request, chosen: dict[str, Any], creator: AccountCredential | None
) -> idempotency.Answer:
    game = core.create_game(
        seats=chosen["seats"],
        options=chosen.get("options"),
        seed=chosen.get("seed"),
        listed=chosen["listed"],
        reserved=chosen.get("reserved", ()),
        created_by=creator,
        rated=chosen["rated"],
    )
    state = core.game_state(game)
    body = {**game_data(game, state, None), "invite_url": invite_url(request, game.id)}
    return idempotency.Answer(201, body, state.version, game.id)


def invite_url(request: Request, game_id: object) -> str:
    """The game's table page, absolute: a private game's invitation."""
    return request.build_absolute_uri(reverse("web:table", args=[game_id]))


class GameDetailView(PerViewerView):
    """One game as the caller may see it: a seat's view with its token, else a spectator's."""

    @extend_schema(
        operation_id="get_game",
        summary="Get a game",
        description="With a seat token, that seat's view; without, the spectator's view. "
        "Face-down cards show `value: null` to everyone (R7). A rated game's view shows its "
        "seats' `ratings` (R14); once it is finished, it is answered in full even to a "
        "matching `If-None-Match`, since its ratings' change comes after its last event "
        "(without a new version).",
        tags=["lobby"],
        auth=SEAT_OR_SPECTATOR,
        parameters=[
            GAME_ID,
            OpenApiParameter(
                "at",
                whole_number(1),
                description="Replay: the game as it was just after event `at` (1 to `version`), "
                "seen by the caller. For a finished game everything is shown, face-down cards "
                "included. Such answers carry no ETag. An `at` past the game's `version` is "
                "refused with 400 `invalid_request`, `errors.at` naming the largest valid value "
                "(the game's `version`; read it from the game or its `ETag`).",
            ),
            IF_NONE_MATCH,
            ETAG,
            STREAM_LINK,
            RETRY_AFTER,
        ],
        responses={
            200: GameSerializer,
            304: OpenApiResponse(description="Not modified: your copy is current."),
            **problems(400, 401, 404),
        },
    )
    def get(self, request: Request, game_id: str) -> Response:
        game, seat = core.game_and_seat(game_id, seat_credential(request), required=False)
        at = _replay_version(request, game)
        if at is not None:
            return _replay_response(game, seat, at)
        tags = if_none_match(request)
        if ("*" in tags or str(game.version) in tags) and not _rated_and_over(game):
            unchanged = Response(status=http.HTTP_304_NOT_MODIFIED)
            return with_etag(with_stream_link(unchanged, game.id), game.version)
        state = core.seat_state(game, seat_credential(request), seat)
        view = Response(game_data(game, state, seat))
        return with_etag(with_stream_link(view, game.id), state.version)


def _rated_and_over(game: Game) -> bool:
    """A finished rated game's view changes once more after its last event, without a new
    version: when a worker has rated it, its `ratings` show each seat's change. Its ETag
    cannot tell the two views apart, so it is always answered in full (R14)."""
    return game.status == Status.FINISHED and bool(game.options.get("rated"))


def _replay_version(request: Request, game: Game) -> int | None:
    """The `?at=` asked for, if any: 1 to the game's version (else 400)."""
    if not request.query_params:  # a client polling the current view sends none
        return None
    query = AtQuerySerializer(data=request.query_params)
    query.is_valid(raise_exception=True)
    at: int | None = query.validated_data.get("at")
    if at is not None and at > game.version:
        raise InvalidRequest(
            f"The game has {game.version} events.",
            errors={"at": [f"Ensure this value is at most {game.version}."]},
        )
    return at


def _replay_response(game: Game, seat: int | None, at: int) -> Response:
    """The game just after event `at`, as `seat` may see it (a finished game: everything)."""
    return Response(core.replay_data(game, seat, at))


class JoinView(PerViewerView):
    """Take the next open seat; the answer holds the seat's token, shown only this once."""

    def get_throttles(self) -> list[Any]:
        throttles = super().get_throttles()
        return [*throttles, BotSeatThrottle()] if throttles else throttles

    @extend_schema(
        operation_id="join_game",
        summary="Join a game",
        description="Takes the next open seat (the lowest). For a person (`name`) the answer "
        "holds the seat's bearer token, shown this once only. With `bot` (a strategy of `GET "
        "/api/v1/bots`) the seat is a bot's, which the service plays (R13): the answer holds "
        "`bot` and no token. Taking the last seat deals the first round. Bot seats count "
        "against a limit per client address (scope `bot_seat`, 120 an hour in production): "
        "429 `throttled` beyond it. A game in which no person holds a seat is played by the "
        "service for `BOT_ONLY_MAX_ROUNDS` rounds (20) at most, then ends (`GameEnded` "
        "reason `round_limit`, R13).",
        tags=["lobby"],
        auth=[],
        request=JoinSerializer,
        examples=[JOIN_EXAMPLE, BOT_JOIN_EXAMPLE],
        parameters=[GAME_ID, IDEMPOTENCY_KEY, ETAG, STREAM_LINK, IDEMPOTENT_REPLAYED, RETRY_AFTER],
        responses={201: JOINED, **problems(400, 404, 409, 413, 415, 422)},
    )
    def post(self, request: Request, game_id: str) -> Response:
        account = account_credential(request)
        context = {} if account is None else {"account": account.handle}
        form = JoinSerializer(data=_body_or_empty(request), context=context)
        form.is_valid(raise_exception=True)
        name, bot = form.validated_data.get("name"), form.validated_data.get("bot")
        seated = None if bot is not None else account
        what = ("join_game", core.game_uuid(game_id), name) + (() if bot is None else (bot,))
        keyed = _join_key(request, seated, what)
        answer = idempotency.run(keyed, lambda _: _joined(game_id, name, bot, seated))
        response = answer_response(answer)
        response["Cache-Control"] = "no-store"
        return with_etag(with_stream_link(response, game_id), answer.version or 0)


def _body_or_empty(request: Request) -> Any:
    """An account's join may send no body at all: it needs no field."""
    return {} if request.data in (None, "") else request.data


def _join_key(
    request: Request, account: AccountCredential | None, what: tuple[Any, ...]
) -> idempotency.Idempotency | None:
    """A guest's join key belongs to its address, an account's to the account."""
    if account is None:
        return keyed_by_address(request, *what)
    return keyed_by_account(request, account.account_id, *what)


def _joined(
    game_id: str, name: str | None, bot: str | None, account: AccountCredential | None = None
) -> idempotency.Answer:
    joined = core.join_game(game_id, name, bot, account)
    if joined.account is not None and bot is None:  # an account's seat: its tokens act for it
        body = {
            "seat": joined.seat,
            "name": joined.name,
            "account": joined.account,
            "game": game_data(joined.game, joined.state, joined.seat),
        }
        return idempotency.Answer(201, body, joined.state.version, joined.game.id)
    if joined.token is None:  # a bot's seat: no token, and the game as anyone sees it
        view = game_data(joined.game, joined.state, None)
        body = {"seat": joined.seat, "name": joined.name, "bot": bot, "game": view}
        return idempotency.Answer(201, body, joined.state.version, joined.game.id)
    body = {
        "seat": joined.seat,
        "name": joined.name,
        "token": joined.token,
        "game": game_data(joined.game, joined.state, joined.seat),
    }
    tokens = [(joined.seat, joined.token)]
    return idempotency.Answer(201, body, joined.state.version, joined.game.id, tokens)


class LeaveView(PerViewerView):
    """A seat's player gives the seat up (R13)."""

    @extend_schema(
        operation_id="leave_game",
        summary="Leave a game",
        description="Authenticated by the seat's token (a token may leave its own seat only: "
        "403 `forbidden` for another's). While the game waits for players the seat is open "
        "again (`PlayerLeft`); once it has started, a bot (`greedy`) plays the seat to the "
        "end (`SeatLeft`), so the game goes on. Either way the token stops working at once "
        "(401 from then on). A finished game cannot be left: 409 `game_finished`. Answers "
        "the game as a spectator sees it.",
        tags=["lobby"],
        auth=SEAT_ONLY,
        request=None,
        parameters=[GAME_ID, SEAT, IDEMPOTENCY_KEY, ETAG, IDEMPOTENT_REPLAYED, RETRY_AFTER],
        responses={200: GameSerializer, **problems(400, 401, 403, 404, 409, 413, 415, 422)},
    )
    def post(self, request: Request, game_id: str, seat: int) -> Response:
        answer = _seat_operation(request, "leave_game", game_id, seat, _left)
        return with_etag(answer_response(answer), answer.version or 0)


def _left(game_id: str, seat: int, credential: Credential | None) -> idempotency.Answer:
    left = core.leave_seat(game_id, seat, credential)
    body = game_data(left.game, left.state, None)
    return idempotency.Answer(200, body, left.state.version, left.game.id)


class BotListView(APIView):
    """The strategies a bot can play."""

    @extend_schema(
        operation_id="list_bots",
        summary="List the bots' strategies",
        description="Every strategy a seat can be given (`POST /api/v1/games/{id}/players` "
        'with `{"bot": name}`), with how it plays in one sentence (R13).',
        tags=["lobby"],
        auth=[],
        parameters=[RETRY_AFTER],
        responses={200: BotSerializer(many=True), **problems()},
    )
    def get(self, request: Request) -> Response:
        strategies = bots.descriptions()
        return Response([{"name": name, "description": text} for name, text in strategies.items()])


class RotateTokenView(PerViewerView):
    """A seat replaces its token: the old one stops working, the new one is shown once."""

    @extend_schema(
        operation_id="rotate_token",
        summary="Rotate a seat's token",
        description="Authenticated by the seat's current token, answers a new one (shown this "
        "once only); the old token is refused from then on (401). A token may rotate its own "
        "seat's token only: another seat's is refused with 403 `forbidden`. The game itself "
        "does not change (tokens are not part of its log).",
        tags=["lobby"],
        auth=SEAT_ONLY,
        request=None,
        parameters=[GAME_ID, SEAT, IDEMPOTENCY_KEY, IDEMPOTENT_REPLAYED, RETRY_AFTER],
        responses={200: SeatTokenSerializer, **problems(400, 401, 403, 404, 409, 413, 415, 422)},
    )
    def post(self, request: Request, game_id: str, seat: int) -> Response:
        answer = _seat_operation(request, "rotate_token", game_id, seat, _rotated)
        response = answer_response(answer)
        response["Cache-Control"] = "no-store"
        return response


#: What a seat's own operation does once authorized: (game id, seat, credential) -> answer.
SeatOperation = Callable[[str, int, Credential | None], idempotency.Answer]


def _seat_operation(
    request: Request, operation: str, game_id: str, seat: int, perform: SeatOperation
) -> idempotency.Answer:
    """A seat's operation on itself with an empty body (leave, rotate its token): the body
    checked after who is asking, the seat's Idempotency-Key honoured, the seat's own token
    required before a used key is told."""
    credential = seat_credential(request)
    with authenticated_before_bad_request(request, game_id):
        raw = request.data if request.data not in (None, "") else {}
        EmptySerializer(data=raw).is_valid(raise_exception=True)
        key = idempotency_key(request)
    return idempotency.run(
        _seat_key(request, key, operation, game_id, seat, credential),
        lambda _: perform(game_id, seat, credential),
        authorize=lambda: core.own_seat(game_id, seat, credential),
    )


def _seat_key(
    request: Request,
    key: str | None,
    operation: str,
    game_id: str,
    seat: int,
    credential: Credential | None,
) -> idempotency.Idempotency | None:
    """A rotation's or a leave's key belongs to the seat, like its actions'. The request
    includes the token presented and the client's address: a replay (a lost answer's retry)
    presents the token it retired, so it must come from the same address too."""
    if key is None:
        return None
    presented = None if credential is None else credential.seat_hash(core.game_uuid(game_id))
    return keyed_by_seat(
        request, game_id, seat, operation, seat, presented, client_address(request)
    )


def _rotated(game_id: str, seat: int, credential: Credential | None) -> idempotency.Answer:
    rotated = core.rotate_token(game_id, seat, credential)
    body = {"seat": rotated.seat, "name": rotated.name, "token": rotated.token}
    game = core.game_uuid(game_id)
    return idempotency.Answer(200, body, None, game, [(rotated.seat, rotated.token)])


class ReservationView(PerViewerView):
    """The creator frees a seat it reserved."""

    @extend_schema(
        operation_id="free_reserved_seat",
        summary="Free a reserved seat",
        tags=["lobby"],
        request=None,
        parameters=[
            GAME_ID,
            OpenApiParameter(
                "handle", str, OpenApiParameter.PATH, description="The account it is kept for."
            ),
            ETAG,
            RETRY_AFTER,
        ],
        responses={200: GameSerializer, **problems(401, 403, 404)},
        **scoped(
            "The game's creator frees the seat it reserved for `handle` (`reserved` when it "
            "created the game): anyone may take it now. Answers the game as a spectator sees "
            "it. 403 `not_creator` for another account; 404 `reservation_not_found` when no "
            "seat is kept for that handle (never reserved, taken, freed, or the game started).",
            every_scope("play"),
        ),
    )
    def delete(self, request: Request, game_id: str, handle: str) -> Response:
        account = account_credential(request)
        if account is None:
            raise AccountRequired()
        game = core.free_reserved_seat(game_id, handle, account)
        state = core.game_state(game)
        return with_etag(Response(game_data(game, state, None)), state.version)
