"""The `accounts` tag: sign up, the account's profile and tokens, "my games", and players'
public pages. Thin: the use cases are `accounts.services` and core's (`games.core.players`)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status as http
from rest_framework.request import Request
from rest_framework.response import Response

from accounts import services
from accounts.credentials import AccountCredential
from accounts.errors import AccountRequired, MissingScope
from accounts.models import PersonalToken
from accounts.services import NewToken, SignedUp
from games import core
from games.api.headers import account_credential
from games.api.inputs import (
    GAME_STATUS_FILTERS,
    MAX_OFFSET,
    MAX_PAGE,
    MyGamesQuerySerializer,
    NewTokenSerializer,
    PlayerGamesQuerySerializer,
    SignUpSerializer,
)
from games.api.schema import (
    RETRY_AFTER,
    any_scope,
    every_scope,
    problems,
    scoped,
    whole_number,
)
from games.api.shapes import (
    AccountCreatedSerializer,
    AccountGameListSerializer,
    AccountSerializer,
    GameListSerializer,
    NewPersonalTokenSerializer,
    PersonalTokenSerializer,
    PlayerProfileSerializer,
)
from games.api.throttling import AccountCreationThrottle
from games.api.views.common import PerViewerView
from games.api.views.lobby import GamePagination
from games.core.resources import game_summary, iso_time
from ratings import reading
from ratings.ladder import with_duplicate_sets

NO_CONTENT = OpenApiResponse(description="Done; no body.")


def signed_in(request: Request, *scopes: str) -> AccountCredential:
    """The account a personal token presented stands for, holding one of `scopes`: 401
    `account_token_required` for a seat token or none, 401 `invalid_token` for a revoked or
    unknown one, 403 `missing_scope` (naming the first of `scopes`) for a token without."""
    credential = account_credential(request)
    if credential is None:
        raise AccountRequired()
    if not credential.holds_any(*scopes):
        raise MissingScope(scopes[0])
    return credential


def _no_store(response: Response) -> Response:
    """An answer holding a token is kept by no cache."""
    response["Cache-Control"] = "no-store"
    return response


def _page_parameters(statuses: list[str]) -> list[OpenApiParameter]:
    return [
        OpenApiParameter("status", str, enum=statuses, description="Only games in this status."),
        OpenApiParameter("limit", whole_number(1, MAX_PAGE), default=20, description="Page size."),
        OpenApiParameter(
            "offset", whole_number(0, MAX_OFFSET), default=0, description="Games to skip."
        ),
        RETRY_AFTER,
    ]


class AccountListView(PerViewerView):
    """Sign up: a new account and its first token."""

    def get_throttles(self) -> list[Any]:
        throttles = super().get_throttles()
        return [*throttles, AccountCreationThrottle()] if throttles else throttles

    @extend_schema(
        operation_id="create_account",
        summary="Create an account",
        description="A person (`password` required, checked by Django's validators) or a bot "
        "(no password: its tokens are its only credential), with a handle of its own for good "
        "(409 `handle_taken` for a handle taken in any case, a deleted account's, or "
        "reserved). The answer holds the account's first personal token, with every scope, "
        "shown this once. Sent with a person's personal token, a new bot records that person "
        "as its `owner`. Rate limited per client address (scope `account_create`, 10 an hour "
        "in production): 429 `throttled` beyond it.",
        tags=["accounts"],
        auth=[],
        request=SignUpSerializer,
        parameters=[RETRY_AFTER],
        responses={201: AccountCreatedSerializer, **problems(400, 401, 409, 415)},
    )
    def post(self, request: Request) -> Response:
        form = SignUpSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        chosen = form.validated_data
        creator = account_credential(request)
        signed = services.sign_up(chosen["handle"], chosen["kind"], chosen.get("password"), creator)
        return _no_store(Response(_created_data(signed), status=http.HTTP_201_CREATED))


def _created_data(signed: SignedUp) -> dict[str, Any]:
    return {
        "handle": signed.account.handle,
        "kind": signed.account.kind,
        "created_at": iso_time(signed.account.created_at),
        "token": signed.token.token,
        "scopes": list(signed.token.row.scopes),
    }


class AccountView(PerViewerView):
    """The account a personal token stands for: read it, or delete it."""

    @extend_schema(
        operation_id="get_account",
        summary="Get your account",
        tags=["accounts"],
        **scoped(
            "The account, its record (games played (finished), won and under way) and its "
            "`rating` (R14).",
            every_scope("account:read"),
        ),
        parameters=[RETRY_AFTER],
        responses={200: AccountSerializer, **problems(401, 403)},
    )
    def get(self, request: Request) -> Response:
        credential = signed_in(request, "account:read")
        profile = core.account_profile(credential)
        return Response({**profile, "rating": reading.account_rating(credential.account_id)})

    @extend_schema(
        operation_id="delete_account",
        summary="Delete your account",
        tags=["accounts"],
        **scoped(
            "Removes the account's tokens (every one stops working, within a second in every "
            "server process), its password and its profile. Its handle is never reused, and "
            "the games' logs keep the name each seat played under (they are append-only).",
            every_scope("account:write"),
        ),
        request=None,
        parameters=[RETRY_AFTER],
        responses={204: NO_CONTENT, **problems(401, 403)},
    )
    def delete(self, request: Request) -> Response:
        services.delete_account(signed_in(request, "account:write"))
        return Response(status=http.HTTP_204_NO_CONTENT)


class TokenListView(PerViewerView):
    """The account's personal tokens: list them (no secrets), create one."""

    @extend_schema(
        operation_id="list_tokens",
        summary="List your tokens",
        tags=["accounts"],
        **scoped(
            "Every personal token of the account, oldest first: never the token itself, only "
            "its first 14 characters (`prefix`). `last_used_at` moves at most once a minute.",
            every_scope("account:read"),
        ),
        parameters=[RETRY_AFTER],
        responses={200: PersonalTokenSerializer(many=True), **problems(401, 403)},
    )
    def get(self, request: Request) -> Response:
        rows = services.tokens_of(signed_in(request, "account:read"))
        return Response([_token_data(row) for row in rows])

    @extend_schema(
        operation_id="create_token",
        summary="Create a token",
        tags=["accounts"],
        **scoped(
            "Another personal token of the account, holding `scopes` (give a bot's token only "
            "what it needs, e.g. `play`). The token is shown this once.",
            every_scope("account:write"),
        ),
        request=NewTokenSerializer,
        parameters=[RETRY_AFTER],
        responses={201: NewPersonalTokenSerializer, **problems(400, 401, 403, 415)},
    )
    def post(self, request: Request) -> Response:
        credential = signed_in(request, "account:write")
        form = NewTokenSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        chosen = form.validated_data
        new = services.create_token(credential, chosen["description"], chosen["scopes"])
        return _no_store(Response(_new_token_data(new), status=http.HTTP_201_CREATED))


def _token_data(row: PersonalToken) -> dict[str, Any]:
    """A token as its list shows it: never the token, its first characters only."""
    used = row.last_used_at
    return {
        "id": row.id,
        "description": row.description,
        "scopes": list(row.scopes),
        "created_at": iso_time(row.created_at),
        "last_used_at": None if used is None else iso_time(used),
        "prefix": row.prefix,
    }


def _new_token_data(new: NewToken) -> dict[str, Any]:
    row = new.row
    return {
        "id": row.id,
        "token": new.token,
        "description": row.description,
        "scopes": list(row.scopes),
        "created_at": iso_time(row.created_at),
    }


class TokenView(PerViewerView):
    """One personal token of the account: revoke it."""

    @extend_schema(
        operation_id="revoke_token",
        summary="Revoke a token",
        tags=["accounts"],
        **scoped(
            "The token stops working at once in this process and within a second in every "
            "other (its open streams end). 404 `token_not_found` for no token of the account "
            "with this id.",
            every_scope("account:write"),
        ),
        request=None,
        parameters=[
            OpenApiParameter(
                "token_id", whole_number(1), OpenApiParameter.PATH, description="The token's id."
            ),
            RETRY_AFTER,
        ],
        responses={204: NO_CONTENT, **problems(401, 403, 404)},
    )
    def delete(self, request: Request, token_id: int) -> Response:
        services.revoke_token(signed_in(request, "account:write"), token_id)
        return Response(status=http.HTTP_204_NO_CONTENT)


class MyGamesView(PerViewerView):
    """The account's games, whose turn first."""

    @extend_schema(
        operation_id="list_account_games",
        summary="List your games",
        tags=["accounts"],
        **scoped(
            "The games the account sits in, as the lobby lists them, with its `seat`, whether "
            "it is to act (`your_turn`) and the game's `turn_deadline`: the games under way "
            "(`active`: setup or playing) first, those where it is your turn first among "
            "them, then by deadline (soonest first); then the waiting games, then the finished "
            "ones, newest first.",
            any_scope("account:read", "play"),
        ),
        parameters=_page_parameters(list(core.ACCOUNT_GAME_STATUSES)),
        responses={200: AccountGameListSerializer, **problems(400, 401, 403)},
    )
    def get(self, request: Request) -> Response:
        credential = signed_in(request, "account:read", "play")
        query = MyGamesQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        chosen = query.validated_data
        paginator = GamePagination(chosen["limit"], chosen["offset"])
        entries = core.my_games(credential, chosen.get("status"))
        page = paginator.paginate_queryset(entries, request, view=self)
        return paginator.get_paginated_response(with_duplicate_sets(list(page or [])))


class PlayerView(PerViewerView):
    """A player's public page."""

    @extend_schema(
        operation_id="get_player",
        summary="Get a player",
        description="A live account's public profile, whatever the case of the handle: a "
        "person's, a bot's, or a built-in strategy's (`builtin`, e.g. `greedy`). Its record "
        "counts finished games (each once, however many seats it held). 404 "
        "`player_not_found` for no such handle, or a deleted account's. `rating`: its rating "
        "now (R14), its history at `GET /api/v1/players/{handle}/ratings`.",
        tags=["accounts"],
        auth=[],
        parameters=[RETRY_AFTER],
        responses={200: PlayerProfileSerializer, **problems(404)},
    )
    def get(self, request: Request, handle: str) -> Response:
        profile = core.player_profile(handle)
        return Response({**profile, "rating": reading.handle_rating(handle)})


class PlayerGamesView(PerViewerView):
    """A player's games, as the lobby lists them."""

    @extend_schema(
        operation_id="list_player_games",
        summary="List a player's games",
        description="The games the player sat in, newest first, paged as the lobby is "
        "(`status=active`: setup or playing). Its private games (`listed: false`) are listed "
        "only to an account that sits in them, holds a seat in them or created them (a "
        "personal token). 404 `player_not_found` for no such player.",
        tags=["accounts"],
        auth=[],
        parameters=_page_parameters([*GAME_STATUS_FILTERS, "active"]),
        responses={200: GameListSerializer, **problems(400, 404)},
    )
    def get(self, request: Request, handle: str) -> Response:
        query = PlayerGamesQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        chosen = query.validated_data
        viewer = account_credential(request)
        viewer_id = None if viewer is None else viewer.account_id
        games = core.player_games(handle, chosen.get("status"), viewer_id)
        paginator = GamePagination(chosen["limit"], chosen["offset"])
        page = paginator.paginate_queryset(games, request, view=self)
        summaries = [game_summary(game) for game in page or []]
        return paginator.get_paginated_response(with_duplicate_sets(summaries))
